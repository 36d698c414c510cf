/** `status [NAME]`: where a MiniCluster (or every one of the namespace) stands. */
import { Command } from 'commander';
import { findClusterJob, listClusterJobs } from './cluster';
import { untilDone } from './changes';
import { Day2Error, EXIT } from './errors';
import { connect, KubeOptions } from './kube';
import { ClusterStatus, STATUS_API_VERSION } from './model';
import { connectionOptions, day2Action, outputOption, withConnectionOptions } from './options';
import { readStatus } from './read';

const HELP = `
A rank's READY is its pod's Ready condition: a worker is Ready once its broker is connected to its
TBON parent, the lead once the instance is up (docs/day2.md). Problems are explained in words:
hosts handshake exit codes with the peers the handshake names, the podFailurePolicy rule that
failed the Job, image pull and mount errors.

Examples:
  $ kubectl minicluster status                 # every MiniCluster of the namespace
  $ kubectl minicluster status flux-sample -o json
  $ kubectl minicluster status flux-sample --watch
`;

interface StatusOptions extends KubeOptions {
  readonly output: 'text' | 'json';
  readonly watch?: boolean;
}

export function statusCommand(program: string): Command {
  return withConnectionOptions(new Command('status'))
    .description('show the state of a MiniCluster: Job, brokers up, and every rank\'s pod')
    .argument('[name]', 'MiniCluster (Job or cluster name); all of the namespace when omitted')
    .addOption(outputOption())
    .option('-w, --watch', 'print again after every change (with -o json: one JSON document per line)')
    .addHelpText('after', HELP)
    .action(day2Action(program, async (clusterName: string | undefined, options: StatusOptions) => {
      const kube = connect(connectionOptions(options));
      if (clusterName === undefined && !options.watch) {
        const jobs = await listClusterJobs(kube);
        const statuses: ClusterStatus[] = [];
        for (const job of jobs) statuses.push(await readStatus(kube, job));
        process.stdout.write(options.output === 'json'
          ? `${JSON.stringify({ apiVersion: STATUS_API_VERSION, kind: 'MiniClusterStatusList', namespace: kube.namespace, items: statuses }, null, 2)}\n`
          : statusList(kube.namespace, statuses));
        return;
      }
      if (clusterName === undefined) throw new Day2Error(EXIT.USAGE, '--watch needs a MiniCluster name');
      const job = await findClusterJob(kube, clusterName);
      const print = (s: ClusterStatus): void => {
        process.stdout.write(options.output === 'json' ? `${JSON.stringify(s, null, options.watch ? undefined : 2)}\n` : statusText(s));
      };
      if (!options.watch) {
        print(await readStatus(kube, job));
        return;
      }
      let last = '';
      await untilDone(kube, job.metadata!.name!, async () => {
        const s = await readStatus(kube, job, true);
        const text = JSON.stringify(s);
        if (text !== last) {
          if (last && options.output !== 'json') process.stdout.write('\n');
          print(s);
          last = text;
        }
        return false;
      });
    }));
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n') + '\n';
}

function sizeText(s: ClusterStatus): string {
  return s.elastic ? `elastic ${s.size.min}..${s.size.max}` : `${s.size.current}`;
}

/** One line per cluster, then their problems. */
export function statusList(namespace: string, statuses: ClusterStatus[]): string {
  if (statuses.length === 0) return `no MiniCluster in namespace '${namespace}'\n`;
  const rows = [['NAME', 'JOB', 'STATE', 'BROKERS', 'SIZE'], ...statuses.map((s) => [s.name, s.job, s.state, `${s.brokers.up}/${s.brokers.expected}`, sizeText(s)])];
  const problems = statuses.flatMap((s) => s.problems.map((p) => `  ${s.job}: ${p}`));
  return table(rows) + (problems.length ? `\nProblems:\n${problems.join('\n')}\n` : '');
}

/** One cluster: its state, conditions, ranks and problems. */
export function statusText(s: ClusterStatus): string {
  const lines = [
    `MiniCluster ${s.name} (Job ${s.job}, namespace ${s.namespace}): ${s.state}`,
    `Brokers up: ${s.brokers.up}/${s.brokers.expected}   Size: ${sizeText(s)}`,
  ];
  const conditions = s.conditions.filter((c) => c.status === 'True').map((c) => `${c.type}${c.reason ? ` (${c.reason})` : ''}`);
  if (conditions.length) lines.push(`Conditions: ${conditions.join(', ')}`);
  const a = s.autoscaler;
  const q = s.queue;
  if (q) lines.push(`Kueue: ${q.state}${q.reason ? ` (${q.reason})` : ''}, LocalQueue ${q.localQueue}${q.clusterQueue ? `, ClusterQueue ${q.clusterQueue}` : ''}${q.workload ? `, Workload ${q.workload}` : ''}${q.evictions ? `, ${q.evictions} eviction${q.evictions > 1 ? 's' : ''} so far` : ''}`);
  if (a) lines.push(`Autoscaler: ${a.action}${a.action === 'grow' || a.action === 'shrink' ? ` ${a.from} -> ${a.to}` : ''}${a.time ? ` at ${a.time}` : ''}: ${a.reason}`);
  let out = `${lines.join('\n')}\n\n`;
  if (s.ranks.length === 0) out += 'No pods yet.\n';
  else {
    out += table([['RANK', 'POD', 'PHASE', 'READY', 'RESTARTS', 'IP', 'NODE', 'FLUX'],
      ...s.ranks.map((r) => [String(r.rank), r.pod, r.phase, r.ready ? 'yes' : 'no', String(r.restarts), r.ip ?? '-', r.node ?? '-', r.flux])]);
  }
  if (s.problems.length) out += `\nProblems:\n${s.problems.map((p) => `  ${p}`).join('\n')}\n`;
  return out;
}
