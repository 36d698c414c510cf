/** `check`'s report: the JSON document (-o json) and the text, one line per finding with its fix. */
import type { ClusterFacts } from './facts';
import { CHECK_API_VERSION, CheckReport, Finding, Severity } from './findings';
import type { Manifest } from './manifest';
import { RULES } from './rules';

const ORDER: Record<Severity, number> = { error: 0, warning: 1, unknown: 2, info: 3 };

export function checkReport(manifest: Manifest, facts: ClusterFacts): CheckReport {
  const findings = RULES.flatMap((r) => r.run({ manifest, facts }).map((f) => ({ f, rule: RULES.indexOf(r) })))
    .sort((a, b) => ORDER[a.f.severity] - ORDER[b.f.severity] || a.rule - b.rule).map((x) => x.f);
  return {
    apiVersion: CHECK_API_VERSION,
    kind: 'MiniClusterCheck',
    server: { url: facts.server, version: facts.version.ok ? facts.version.value?.gitVersion ?? null : null },
    files: manifest.files,
    clusters: manifest.brokerJobs.map((j) => ({ job: j.name, namespace: j.namespace, kubernetesVersion: j.targetMinor === null ? null : `1.${j.targetMinor}`, size: j.size, maxSize: j.maxSize })),
    result: findings.some((f) => f.severity === 'error') ? 'WouldNotRun' : 'Runs',
    findings,
  };
}

const LABEL: Record<Severity, string> = { error: 'ERROR', warning: 'WARNING', unknown: 'CANNOT TELL', info: 'INFO' };

function line(f: Finding): string {
  const where = f.object ? `${f.namespace ? `${f.namespace}/` : ''}${f.object}: ` : '';
  return `${LABEL[f.severity]} [${f.rule}] ${where}${f.message}${f.fix ? `. Fix: ${f.fix}` : ''}`;
}

export function reportText(r: CheckReport): string {
  const count = (s: Severity): number => r.findings.filter((f) => f.severity === s).length;
  const jobs = r.clusters.map((c) => `${c.namespace}/Job/${c.job}`).join(', ');
  const summary = r.result === 'Runs'
    ? `${jobs} would run on ${r.server.url} (Kubernetes ${r.server.version ?? 'version unknown'})${count('warning') + count('unknown') ? `; ${count('warning')} warnings, ${count('unknown')} cannot tell` : ''}`
    : `${jobs} would not run on ${r.server.url} (Kubernetes ${r.server.version ?? 'version unknown'}): ${count('error')} ${count('error') === 1 ? 'reason' : 'reasons'}`
      + `${count('warning') + count('unknown') ? `, ${count('warning')} warnings, ${count('unknown')} cannot tell` : ''}`;
  return [...r.findings.map(line), summary].join('\n') + '\n';
}
