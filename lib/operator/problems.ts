/** Problems found in a MiniCluster resource, each with the field path, the value and the rule. */
import { formatViolations } from '../constructs/private/validate-mini-cluster-props';

/**
 * A property name or a list index.
 * @jsii ignore a type alias: jsii writes `string | number` where it is used
 */
export type PathSegment = string | number;

/** One problem: where (as text and as segments into the resource), what value, which rule. */
export interface Problem {
  /** e.g. `spec.containers[0].volumes.data.path`; '' for the whole resource. */
  readonly path: string;
  /** The same path as keys and indexes, to locate the field in the source document. */
  readonly segments: PathSegment[];
  /** The offending value, as found. */
  readonly value: unknown;
  /** The rule it breaks, as a sentence. */
  readonly rule: string;
}

/** `['spec', 'containers', 0, 'image']` → `spec.containers[0].image`. */
export function formatPath(segments: PathSegment[]): string {
  return segments.reduce<string>((out, s) => (typeof s === 'number' ? `${out}[${s}]` : out === '' ? s : `${out}.${s}`), '');
}

/**
 * All problems as one message, in the style of the MiniCluster props validation.
 * @jsii ignore other languages: OperatorConverter.formatProblems (jsii publishes no free functions)
 */
export function formatProblems(resourceName: string, problems: Problem[]): string {
  const message = formatViolations(resourceName, problems.map((p) => ({ path: p.path || '(resource)', value: p.value, rule: p.rule })));
  return message.replace(/^invalid MiniCluster /, 'invalid MiniCluster resource ');
}

/**
 * One problem as `path = value: rule`, for tools that prefix their own location.
 * @jsii ignore other languages: OperatorConverter.problemLines
 */
export function problemLine(p: Problem): string {
  return `${p.path || '(resource)'} = ${formatValue(p.value)}: ${p.rule}`;
}

function formatValue(v: unknown): string {
  if (v === undefined) return '(unset)';
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
