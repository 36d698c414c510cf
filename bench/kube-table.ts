/** A real-cluster benchmark's table: printed, and with --write-docs written into docs/scale.md (record.ts). */
import { KubeTarget } from '../e2e/kube/target';
import { clusterInfo, describeCluster } from '../e2e/kube/cluster-info';
import { SCALE_DOC, measuredOn, writeSection } from './record';
import { tableLines } from './table';

export interface KubeTable {
  /** The section of docs/scale.md it is written into (record.ts). */
  readonly id: string;
  /** What the printed table is headed with, after the server. */
  readonly heading: string;
  /** What the figures are, above the table (printed and written). */
  readonly about: string;
  readonly columns: string[];
  readonly align: string;
  readonly rows: string[];
  /** The command that measured it, as a user types it (written only). */
  readonly command: string;
}

/** Prints the table; with `writeDocs`, writes it with the date, the command and the cluster (cordoned nodes named). */
export async function reportKubeTable(target: KubeTarget, t: KubeTable, writeDocs: boolean): Promise<void> {
  const table = tableLines(t.columns, t.align, t.rows);
  console.log(`\nReal cluster (${target.server})${t.heading}: ${t.about}\n`);
  for (const line of table) console.log(line);
  if (!writeDocs) return;
  const info = await clusterInfo(target, []);
  const cordoned = info.nodes.filter((n) => n.unschedulable).map((n) => n.name);
  writeSection(t.id, [measuredOn(new Date().toISOString().slice(0, 10), t.command, describeCluster(info), cordoned), '', t.about, '', ...table]);
  console.log(`written into ${SCALE_DOC}`);
}
