/**
 * The field table of docs/operator-parity.md, generated from CRD_FIELDS so that the document and
 * the converter cannot disagree (test/operator/parity-doc.test.ts compares them).
 */
import { CRD_FIELDS, FieldDecision } from './crd-fields';

const DECISION_TEXT: Record<FieldDecision, string> = {
  [FieldDecision.MAPPED]: 'mapped',
  [FieldDecision.NO_EFFECT]: 'no effect (warning)',
  [FieldDecision.REJECTED]: '**rejected**',
};

/** One Markdown table row per CRD field: field, type, CRD default, decision, prop, difference or reason. */
export function fieldTableMarkdown(): string {
  const rows = CRD_FIELDS.map((f) => {
    const cells = [
      `\`${f.path}\`${f.required ? ' (required)' : ''}`,
      f.type,
      f.default === undefined ? '' : `\`${JSON.stringify(f.default)}\``,
      DECISION_TEXT[f.decision],
      f.decision === FieldDecision.MAPPED ? `\`${f.prop}\`` : '',
      f.note ?? '',
    ];
    return `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  });
  return [
    '| Operator field | Type | CRD default | Decision | MiniCluster prop | Difference from the operator, or reason |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
