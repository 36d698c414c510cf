/** docs/e2e.md: the table of cases and results, written by `npm run e2e`. */
import { spawnSync } from 'child_process';
import { E2eCase, RejectedCase } from './case';
import { stepCommand } from './kube/day2';
import { RunRecord } from './run-record';
import { versionMatrix } from './version-matrix';

/** What each case checks, in a few words, from its expectation. */
function checks(c: E2eCase): string {
  const e = c.expect;
  const parts = [e.result === 'Interrupted' ? (e.stopAfterSeconds !== undefined ? `stopped after ${e.stopAfterSeconds} s` : 'cluster stays up') : `Job ${e.result.toLowerCase()}`];
  if (e.leadExit !== undefined && e.leadExit !== 0) parts.push(`lead exits ${e.leadExit}`);
  parts.push(e.noBrokers ? 'no broker comes up' : 'every broker connected');
  if (e.leadOutputExactly !== undefined) {
    // The operator's test.out.correct files may end their lines with CR.
    const text = e.leadOutputExactly.replace(/\r/g, '').trim();
    parts.push(`lead output is exactly \`${text.split('\n')[0]}\`${text.includes('\n') ? ' …' : ''}`);
  }
  else if (e.leadOutput?.length) parts.push(`lead output ${e.leadOutput.map((p) => `\`${p.source}\``).join(', ')}`);
  for (const o of e.containerOutput ?? []) parts.push(`${o.container} output ${o.patterns.map((p) => `\`${p.source}\``).join(', ')}`);
  for (const x of e.exec ?? []) parts.push(`exec: ${x.what}`);
  const day2 = c.day2 ? [...c.day2.beforeApply ?? [], ...c.day2.afterApply] : [];
  if (day2.length) parts.push(`${day2.length} \`kubectl minicluster\` commands (${[...new Set(day2.map((x) => x.args[0]))].join(', ')}): see Day-2 commands`);
  return parts.join('; ').replace(/\|/g, '\\|');
}

function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function fluxVersion(prefix: string | undefined): string {
  if (!prefix) return 'unknown';
  const r = spawnSync(`${prefix}/bin/flux`, ['version'], { encoding: 'utf8' });
  const core = /libflux-core:\s*(\S+)/.exec(r.stdout)?.[1];
  const sched = spawnSync('sh', ['-c', `ls ${prefix}/lib/flux/modules 2>/dev/null | grep -c fluxion`], { encoding: 'utf8' }).stdout.trim();
  return `flux-core ${core ?? '?'}${sched !== '0' ? ' with Fluxion (flux-sched)' : ''}`;
}

type Result = RunRecord['results'][number];

function statusCell(c: E2eCase, r: Result | undefined, runs = 1): string {
  if (!r) return 'not run';
  if (r.status !== 'pass') return r.status;
  if (runs > 1) return `pass (${runs} of ${runs})`;
  return c.machineLimit ? 'pass (expected outcome)' : 'pass';
}

function wallCell(r: Result | undefined): string {
  return r?.wallSeconds != null ? r.wallSeconds.toFixed(1) : '–';
}

function runLine(name: string, run: RunRecord | undefined, cases: E2eCase[]): string {
  if (!run) return `- ${name}: not run yet.`;
  const passed = run.results.filter((r) => r.status === 'pass').length;
  const skipped = run.results.filter((r) => r.status === 'skip').length;
  const reruns = (run.reruns ?? []).map((r) => ` ${r.ids.length} case(s) run again on ${r.date}: ${r.ids.join('; ')}.`).join('');
  return `- ${name}: ${run.date}, ${run.environment ?? '?'}; ${passed} of ${cases.length} cases passed${skipped ? `, ${skipped} skipped` : ''}, in ${Math.round(run.seconds)} s.${reruns}`;
}

/**
 * The whole document: the emulator's run and a real cluster's full run (`kube`), side by side; then
 * the version matrix from every minor's record (`kubeRecords`).
 */
export function e2eReport(cases: E2eCase[], rejected: RejectedCase[], podemu: RunRecord | undefined, kube: RunRecord | undefined, kubeRecords: RunRecord[] = []): string {
  const pod = new Map(podemu?.results.map((r) => [r.id, r]) ?? []);
  const real = new Map(kube?.results.map((r) => [r.id, r]) ?? []);
  const rows = cases.map((c) => {
    const p = pod.get(c.id);
    const k = real.get(c.id);
    const note = [c.note, c.patch?.why, c.kube?.patch ? `real cluster: ${c.kube.patch.why}` : undefined,
      c.kube?.beforeMinor ? `before Kubernetes 1.${c.kube.beforeMinor.minor}: ${c.kube.beforeMinor.why}` : undefined,
      c.kube?.fromMinor ? `real cluster: from Kubernetes 1.${c.kube.fromMinor.minor} on: ${c.kube.fromMinor.why}` : undefined,
      p?.status === 'skip' ? `emulator: ${p.problems[0]}` : undefined, k?.status === 'skip' ? `real cluster: ${k.problems[0]}` : undefined, ...(k?.notes ?? []).map((n) => `real cluster: ${n}`),
      k?.nodes ? `real cluster: ${k.nodes}` : undefined, c.machineLimit ? `machine: ${c.machineLimit}` : undefined].filter(Boolean).join('; ');
    return `| ${c.id} | ${checks(c)} | ${statusCell(c, p)} | ${p?.brokers ?? '–'} | ${wallCell(p)} | ${statusCell(c, k)} | ${k?.brokers ?? '–'} | ${wallCell(k)} | ${k?.namespaceSeconds?.toFixed(1) ?? '–'} | ${cell(note)} |`;
  });
  const faultRows = cases.filter((c) => c.faults).map((c) => {
    const f = c.faults!;
    const what = [...(f.evict ?? []).map((x) => `evict ${x}`), ...(f.crash ?? []).map((x) => `crash ${x}`)].join(', ');
    const measured = (r: Result | undefined) => r?.faultSeconds?.map((t) => (t === null ? '–' : t.toFixed(1))).join(', ') ?? '–';
    const runs = f.runs ?? 1;
    return `| ${c.id} | \`${what}\` | ${{ recovers: 'every broker up again', ends: 'the Job ends', acted: 'the fault acted (the run stops before an outcome)' }[f.outcome]} | ${f.boundSeconds} | ${measured(pod.get(c.id))} | ${statusCell(c, pod.get(c.id), runs)} | ${measured(real.get(c.id))} | ${statusCell(c, real.get(c.id), runs)} |`;
  });
  const day2Sections = cases.filter((c) => c.day2).map((c) => {
    const k = real.get(c.id);
    const steps = [...c.day2!.beforeApply ?? [], ...c.day2!.afterApply];
    const rows = steps.map((step, i) => {
      const got = k?.day2?.[i];
      const ran = got && got.what === step.what ? got : undefined;
      const exit = ran ? `${ran.exit ?? 'killed'}` : '–';
      const said = ran?.said ? `\`${cell(ran.said).replace(/`/g, "'")}\`` : '–';
      return `| ${cell(step.what)} | \`${cell(ran?.command ?? stepCommand(step))}\` | ${step.exit ?? 0} | ${exit} | ${ran ? `${ran.seconds.toFixed(1)}${ran.tries > 1 ? ` (${ran.tries} tries)` : ''}` : '–'} | ${said} | ${ran ? (ran.pass ? 'pass' : 'fail') : 'not run'} |`;
    });
    return [`### ${c.id}`, '', `Real cluster: ${statusCell(c, k)}.`, '', '| step | command | expected exit | exit | time (s) | it said (a line) | result |', '|---|---|---|---|---|---|---|', ...rows, ''].join('\n');
  });
  const measuredRows = cases.flatMap((c) => [['emulator', pod.get(c.id)], ['real cluster', real.get(c.id)]] as const)
    .filter(([, r]) => r?.measured?.length)
    .map(([where, r]) => `| ${r!.id} | ${where} | ${cell(r!.measured!.join('; '))} |`);
  const failures = [...(podemu?.results ?? []).map((r) => ['pod emulator', r] as const), ...(kube?.results ?? []).map((r) => ['real cluster', r] as const)]
    .filter(([, r]) => r.status === 'fail')
    .map(([where, r]) => [`### ${r.id} (${where})`, '', '```', ...r.problems.map((p) => p.trim()), '```', ''].join('\n'));
  return [
    '# End-to-end results: real Flux brokers',
    '',
    'What you get from this page: which examples and Flux Operator test MiniClusters boot a real Flux',
    'cluster, on a real Kubernetes node and in the pod emulator, what each case checks, its result and',
    'time in the last run of each, why the operator tests that are not converted are refused, and',
    'for the cases that tell Kubernetes versions apart, their result on each version run (Version matrix).',
    '',
    'Written by `npm run e2e` (do not edit by hand; each run keeps its results in `docs/e2e-runs/`).',
    'Every example and every Flux Operator test MiniCluster the CLI converts is synthesized and run,',
    'and each case checks what a user would: the Job\'s result and reason, that every broker joined,',
    'the lead\'s output, and commands run in the running cluster (`kubectl exec`).',
    '',
    '- **Real cluster** (`npm run e2e -- --kubeconfig FILE [--context NAME]`): each case in a namespace',
    '  of its own, created and deleted by the case (a namespace not gone within 60 s of its deletion fails',
    '  the case); objects created as `kubectl apply` would; the certificate Secret made by the output\'s own',
    '  certificate Job (or `cdk8s-minicluster cert` where the output has none); faults as a cluster makes',
    '  them (the Eviction API, as `kubectl drain`; a SIGKILL of the broker through exec). A broker is up',
    '  when the lead\'s own log says so (`flux dmesg --follow` through exec: rank 0 listening, each child\'s',
    '  connection); without that log, when its pod turns Ready. Times are from the first pod\'s creation;',
    '  the longest time any run\'s namespace took to go is shown. `--list-images` prints every image the cases need.',
    '- **Pod emulator** (`npm run e2e`): podemu runs the pods as real processes in network namespaces,',
    '  with kubelet-style hosts and resolv.conf and a CoreDNS-like cache; it needs root, podemu',
    '  (`../shared/tools/podemu` or `PODEMU=`) and a Flux install at `FLUX_PREFIX` (default',
    '  `/opt/software/flux`). Times are from the first pod\'s start. Brokers are up when podemu saw their sockets.',
    '',
    'Last runs:',
    '',
    runLine('Real cluster', kube, cases),
    runLine('Pod emulator', podemu, cases),
    '',
    '"pass (expected outcome)": the image\'s program is not on this machine, and the case checks that',
    'everything up to it works and that its failure fails the Job with its exit code.',
    '',
    '| case | checks | emulator | brokers up | first pod → Job success (s) | real cluster | brokers up | first pod → Job success (s) | namespace deleted in (s) | note |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...versionMatrix(cases, kubeRecords, kube),
    ...(faultRows.length ? [
      '## Faults',
      '',
      'Each fault comes at S seconds after the first pod (`INDEX@S`). An eviction goes through the Eviction',
      'API on a real cluster (podemu: the same path: DisruptionTarget, SIGTERM, a replacement with a new IP);',
      'a crash is a SIGKILL of the container\'s broker through exec (podemu: of its PID 1), exit 137. The time',
      'is from the (last) fault to every broker up again or to the Job\'s end (the last pod ended), one',
      'figure per run; docs/reliability.md says what each outcome means for a user.',
      '',
      '| case | fault | outcome | bound (s) | emulator: fault → outcome (s) | emulator | real cluster: fault → outcome (s) | real cluster |',
      '|---|---|---|---|---|---|---|---|',
      ...faultRows,
      '',
    ] : []),
    ...(day2Sections.length ? [
      '## Day-2 commands',
      '',
      'The built `kubectl-minicluster` run as a user runs it, with `--kubeconfig`, `--context` and `-n` the',
      'case\'s namespace: `check -f` on the case\'s objects once the namespace exists and before they are',
      'created, the others once they are. Each must end with its exit code and print what the case',
      'expects; the time is from its start to its exit (a step marked with tries ran again, 2 s apart,',
      'until it passed). "It said" is one line of what it printed: on a non-zero exit, the error line',
      'the case looks for (else its last); for `-o json`, the document\'s state, brokers, size and',
      'problems; else the line the case\'s first pattern matched (else its first). Only on a real',
      'cluster: the pod emulator has no API server.',
      '',
      ...day2Sections,
    ] : []),
    ...(measuredRows.length ? [
      '## Measured',
      '',
      'What the cases measure in the running cluster, as their exec steps printed it in the last run.',
      '',
      '| case | target | measured |',
      '|---|---|---|',
      ...measuredRows,
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
