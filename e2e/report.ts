/** docs/e2e.md: the table of cases and results, written by `npm run e2e`. */
import { spawnSync } from 'child_process';
import * as os from 'os';
import { E2eCase, RejectedCase } from './case';
import { CaseResult } from './run-case';

/** What each case checks, in a few words, from its expectation. */
function checks(c: E2eCase): string {
  const e = c.expect;
  const parts = [e.result === 'Interrupted' ? 'cluster stays up' : `Job ${e.result.toLowerCase()}`];
  if (e.leadExit !== undefined && e.leadExit !== 0) parts.push(`lead exits ${e.leadExit}`);
  parts.push('every broker connected');
  if (e.leadOutputExactly !== undefined) parts.push(`lead output is exactly \`${e.leadOutputExactly.trim().split('\n')[0]}\`${e.leadOutputExactly.trim().includes('\n') ? ' …' : ''}`);
  else if (e.leadOutput?.length) parts.push(`lead output ${e.leadOutput.map((p) => `\`${p.source}\``).join(', ')}`);
  for (const o of e.containerOutput ?? []) parts.push(`${o.container} output ${o.patterns.map((p) => `\`${p.source}\``).join(', ')}`);
  for (const x of e.exec ?? []) parts.push(`exec: ${x.what}`);
  return parts.join('; ').replace(/\|/g, '\\|');
}

function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function fluxVersion(prefix: string | undefined): string {
  if (!prefix) return 'unknown';
  const r = spawnSync(`${prefix}/bin/flux`, ['version'], { encoding: 'utf8' });
  const core = /libflux-core:\s*(\S+)/.exec(r.stdout)?.[1];
  const sched = spawnSync('sh', ['-c', `ls ${prefix}/lib/flux/modules 2>/dev/null | grep -c fluxion`], { encoding: 'utf8' }).stdout.trim();
  return `flux-core ${core ?? '?'}${sched !== '0' ? ' with Fluxion (flux-sched)' : ''}`;
}

/** The whole document. */
export function e2eReport(cases: E2eCase[], results: CaseResult[], rejected: RejectedCase[], fluxPrefix: string | undefined, seconds: number): string {
  const byId = new Map(results.map((r) => [r.id, r]));
  const passed = results.filter((r) => r.status === 'pass').length;
  const rows = cases.map((c) => {
    const r = byId.get(c.id);
    const status = !r ? 'not run' : r.status === 'pass' ? (c.machineLimit ? 'pass (expected outcome)' : 'pass') : r.status;
    const wall = r?.wallSeconds != null ? r.wallSeconds.toFixed(1) : '–';
    const note = [c.note, c.patch?.why, c.machineLimit ? `machine: ${c.machineLimit}` : undefined].filter(Boolean).join('; ');
    return `| ${c.id} | ${checks(c)} | ${status} | ${r?.brokers ?? '–'} | ${wall} | ${cell(note)} |`;
  });
  const faultRows = cases.filter((c) => c.faults).map((c) => {
    const f = c.faults!;
    const r = byId.get(c.id);
    const what = [...(f.evict ?? []).map((x) => `evict ${x}`), ...(f.crash ?? []).map((x) => `crash ${x}`)].join(', ');
    const measured = r?.faultSeconds?.map((t) => (t === null ? '–' : t.toFixed(1))).join(', ') ?? '–';
    const runs = f.runs ?? 1;
    const status = !r ? 'not run' : r.status === 'pass' ? (runs > 1 ? `pass (${runs} of ${runs})` : 'pass') : r.status;
    return `| ${c.id} | \`${what}\` | ${f.outcome === 'recovers' ? 'every broker up again' : 'the Job ends'} | ${f.boundSeconds} | ${measured} | ${status} |`;
  });
  const failures = results.filter((r) => r.status !== 'pass').map((r) =>
    [`### ${r.id}`, '', '```', ...r.problems.map((p) => p.trim()), '```', `Logs: ${r.logs ?? '–'}`, ''].join('\n'));
  return [
    '# End-to-end results: real Flux brokers',
    '',
    'What you get from this page: which examples and Flux Operator test MiniClusters boot a real Flux',
    'cluster, what each case checks, its result and time in the last run, and why the operator tests',
    'that are not converted are refused.',
    '',
    'Written by `npm run e2e` (do not edit by hand). Every example and every Flux Operator test',
    'MiniCluster the CLI converts is synthesized, given a certificate Secret made with',
    '`cdk8s-minicluster cert`, and run by the pod emulator podemu (pods as real processes in network',
    'namespaces, kubelet-style hosts and resolv.conf, a CoreDNS-like cache) with real Flux brokers.',
    'Each case checks what a user would: the Job\'s result, that every broker connected, and the lead\'s',
    'output or commands run in the running cluster (`kubectl exec`).',
    '',
    'To run it: `npm run e2e` (not part of `npm test`; `--only TEXT` runs the matching cases, `--keep`',
    'keeps their logs). It needs root, podemu (`../shared/tools/podemu` beside the checkout, or',
    '`PODEMU=`) and a Flux install (flux-core + flux-sched) at `FLUX_PREFIX` (default',
    '`/opt/software/flux`); `../shared/reference/flux-build-facts.md` lists what is known about building',
    'one by hand. Without them every case is reported skipped, one line each.',
    '',
    `Last run: ${new Date().toISOString().slice(0, 10)}, ${fluxVersion(fluxPrefix)}, ${os.cpus().length} CPUs;`,
    `${passed} of ${cases.length} cases passed in ${Math.round(seconds)} s.`,
    '"pass (expected outcome)": the image\'s program is not on this machine, and the case checks that',
    'everything up to it works and that its failure fails the Job with its exit code.',
    '',
    '| case | checks | result | brokers up | first pod → Job success (s) | note |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    ...(faultRows.length ? [
      '## Faults',
      '',
      'Faults injected by podemu (`--evict INDEX@S`: the Eviction API\'s path, DisruptionTarget, SIGTERM, a',
      'replacement with a new IP; `--crash INDEX@S[:CONTAINER]`: SIGKILL, exit 137) at S seconds after',
      'the first pod started. The time is from the (last) fault to every broker up again (the last',
      'broker\'s connection to its parent, or the new lead listening) or to the Job\'s end (the last pod',
      'ended), one figure per run; docs/reliability.md says what each outcome means for a user.',
      '',
      '| case | fault | outcome | bound (s) | fault → outcome (s) | result |',
      '|---|---|---|---|---|---|',
      ...faultRows,
      '',
    ] : []),
    '## Operator tests the converter refuses (by design)',
    '',
    'These fail `cdk8s-minicluster validate` with the reason shown; docs/operator-parity.md explains each rule.',
    '',
    '| test | reason |',
    '|---|---|',
    ...rejected.map((r) => `| ${r.id} | ${cell(r.reason)} |`),
    '',
    ...(failures.length ? ['## Failures', '', ...failures] : []),
  ].join('\n');
}
