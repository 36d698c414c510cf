/**
 * Node faults on a real cluster (FaultPlan.nodes): a node drained as `kubectl drain` does it, or lost
 * as in a power loss through an external node control program (`--node-control PROGRAM`, called as
 * `PROGRAM lose NODE` and `PROGRAM restore NODE`), and what the platform does after a loss. The
 * cluster is put back whole after every run, so that the next case starts on every node.
 */
import { spawn } from 'child_process';
import type * as k8s from '@kubernetes/client-node';
import { E2eCase, NodeAction, NodeFault } from '../case';
import { nodeActions } from '../faults';
import { FaultRecord } from '../podemu';
import { KubeTarget, client, statusOf } from './target';

export const OUT_OF_SERVICE = { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' };
const CLEANUP_READY_SECONDS = 120;

/** Where node faults come from: the program that loses and restores nodes, and the nodes never to lose. */
export interface NodeControl {
  readonly program?: string;
  /** Nodes a case must never lose (the one that runs the API server): E2E_PROTECTED_NODES. */
  readonly protectedNodes: string[];
}

/** --node-control (or E2E_NODE_CONTROL) and E2E_PROTECTED_NODES (comma-separated). */
export function nodeControlFrom(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): NodeControl {
  const program = flag ?? (env.E2E_NODE_CONTROL || undefined);
  return { program, protectedNodes: (env.E2E_PROTECTED_NODES ?? '').split(',').map((n) => n.trim()).filter(Boolean) };
}

/** The nodes a pod can land on: Ready, not cordoned, without a NoSchedule or NoExecute taint it would need to tolerate. */
export function schedulableReadyNodes(nodes: k8s.V1Node[]): string[] {
  return nodes.filter((n) => !n.spec?.unschedulable
    && (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
    && !(n.spec?.taints ?? []).some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute'))
    .map((n) => n.metadata!.name!);
}

/** Why a case with node faults cannot run here, or undefined. `nodes`: the Ready schedulable nodes. */
export function nodeFaultSkip(c: E2eCase, where: { kube: boolean; nodes?: string[]; control?: NodeControl }): string | undefined {
  const faults = c.faults?.nodes ?? [];
  if (!faults.length) return undefined;
  if (!where.kube) return 'node faults need a real cluster of several nodes';
  const nodes = where.nodes ?? [];
  if (nodes.length < 2) return `node faults need at least 2 Ready schedulable nodes; the cluster has ${nodes.length}`;
  if (!faults.some((f) => f.kind === 'lose')) return undefined;
  if (!where.control?.program) return 'losing a node needs --node-control PROGRAM (or E2E_NODE_CONTROL)';
  const free = nodes.filter((n) => !where.control!.protectedNodes.includes(n));
  if (free.length < 2) return `losing a node needs 2 Ready schedulable nodes besides the protected ones (${where.control.protectedNodes.join(', ')}): one to lose, one for its pods; the cluster has ${free.length}`;
  return undefined;
}

/**
 * Keeps every pod of the Job off the protected nodes when the case loses a node. The fault picks
 * the node of an index's pod at fault time, and the Job's one pod template cannot steer a single
 * index: so all pods stay off them (nodeFaultSkip made sure 2 other nodes are there), and the fault
 * still refuses a protected node. Returns the note for the report, or undefined when nothing changed.
 */
export function keepOffProtectedNodes(job: any, c: E2eCase, protectedNodes: string[]): string | undefined {
  if (!protectedNodes.length || !(c.faults?.nodes ?? []).some((f) => f.kind === 'lose')) return undefined;
  const spec = job.spec.template.spec;
  const required = (((spec.affinity ??= {}).nodeAffinity ??= {}).requiredDuringSchedulingIgnoredDuringExecution ??= { nodeSelectorTerms: [] });
  const off = { key: 'metadata.name', operator: 'NotIn', values: protectedNodes };
  // Terms are ORed: the requirement goes into each of them (or a term of its own).
  if (!required.nodeSelectorTerms.length) required.nodeSelectorTerms.push({});
  for (const term of required.nodeSelectorTerms) (term.matchFields ??= []).push(off);
  return `pods kept off the protected node(s) ${protectedNodes.join(', ')} (a node fault loses the node of a pod)`;
}

type SeenPod = { name: string; index: number; phase: string; node: string | null };

/**
 * The running pod whose node a fault of `index` takes. A worker's fault must not take the lead: with
 * two schedulable nodes for four pods, the lead shares a node with a worker, so when `index`'s node
 * holds the lead, another worker's on a node without it is taken instead (undefined when none is).
 */
export function faultedPod(index: number, pods: SeenPod[]): SeenPod | undefined {
  const running = (i: number) => pods.filter((p) => p.index === i && p.phase === 'Running' && p.node).at(-1);
  const wanted = running(index);
  if (index === 0) return wanted;
  const leadNode = running(0)?.node;
  if (wanted && wanted.node !== leadNode) return wanted;
  const others = [...new Set(pods.map((p) => p.index))].filter((i) => i !== 0).sort((a, b) => a - b).map(running);
  return others.find((p) => p && p.node !== leadNode);
}

/**
 * The pods of one index whose Flux container runs on a Ready node (not one the run lost), when
 * there are two or more: two live brokers of one rank. `lost`: nodes lost and not back.
 */
export function doubleBrokers(pods: k8s.V1Pod[], runner: string, readyNodes: Set<string>, lost: Set<string>, index: (p: k8s.V1Pod) => number): string[] {
  const live = new Map<number, string[]>();
  for (const p of pods) {
    const node = p.spec?.nodeName;
    const running = (p.status?.containerStatuses ?? []).some((s) => s.name === runner && s.state?.running);
    if (!node || !running || !readyNodes.has(node) || lost.has(node)) continue;
    live.set(index(p), [...live.get(index(p)) ?? [], `${p.metadata!.name} on ${node}`]);
  }
  return [...live].filter(([, on]) => on.length > 1).map(([i, on]) => `rank ${i} had ${on.length} live brokers at once: ${on.join(', ')}`);
}

/** The Ready nodes of a node list. */
export function readyNodes(nodes: k8s.V1Node[]): Set<string> {
  return new Set(nodes.filter((n) => (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')).map((n) => n.metadata!.name!));
}

/** Runs the node control program (never throws): its exit code and output. */
export function runNodeControl(program: string, verb: 'lose' | 'restore', node: string, timeoutSeconds: number): Promise<{ code: number | null; output: string }> {
  const child = spawn(program, [verb, node], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutSeconds * 1000);
  return new Promise((resolve) => {
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, output: e.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output.trim() });
    });
  });
}

type Action = { action: NodeAction; at: number; outcome: string; bound: boolean };
type Record = FaultRecord & { actions: Action[]; podsOnNode: string[] };

/** A node fault in a run: planned, acted (its record), and the actions still to take. */
interface Tracked {
  readonly plan: NodeFault;
  record?: Record;
  pending: Array<{ action: NodeAction; afterSeconds: number; bound: boolean }>;
}

/** The run's node faults: injects them at their time, takes the actions after, and puts the cluster back. */
export class NodeFaults {
  private readonly tracked: Tracked[];
  private readonly drained = new Set<string>();
  private readonly tainted = new Set<string>();
  private readonly deleted = new Set<string>();
  /** Lost and not returned. */
  private readonly lost = new Set<string>();
  private readonly inFlight: Array<Promise<unknown>> = [];
  private nodesAtStart: string[] | undefined;
  private schedulableAtStart: string[] = [];

  constructor(private readonly target: KubeTarget, private readonly namespace: string, private readonly control: NodeControl,
    faults: NodeFault[], private readonly log: (line: string) => void, private readonly now: () => number) {
    this.tracked = [...faults].sort((a, b) => a.atSeconds - b.atSeconds).map((plan) => ({ plan, pending: nodeActions(plan) }));
  }

  get any(): boolean {
    return this.tracked.length > 0;
  }

  /** Nodes lost and not back: their pods' API status is stale. */
  lostNodes(): Set<string> {
    return new Set(this.lost);
  }

  /** The records of the faults that acted, and one for each that did not. */
  records(): FaultRecord[] {
    return this.tracked.map((t) => t.record ?? { at: t.plan.atSeconds, fault: t.plan.kind, index: t.plan.index, pod: null, outcome: 'not carried out: the run ended first' });
  }

  /**
   * Called at each poll with the pods seen (newest last): injects what is due and takes the actions
   * that are. A fault waits for `allUp` (every index's pod Ready): a node's first pull of an image
   * can hold its pods back past the planned time, and a fault before bring-up tests nothing.
   */
  async poll(pods: Array<{ name: string; index: number; phase: string; node: string | null }>, allUp: boolean): Promise<void> {
    const now = this.now();
    for (const t of this.tracked) {
      if (!t.record && t.plan.atSeconds <= now && allUp) t.record = await this.inject(t.plan, pods);
      while (t.record?.pod && t.pending.length && t.record.at + t.pending[0].afterSeconds <= now) {
        const next = t.pending.shift()!;
        await this.act(t.record, next.action, next.bound);
      }
    }
  }

  private async inject(f: NodeFault, pods: Array<{ name: string; index: number; phase: string; node: string | null }>): Promise<Record> {
    const at = this.now();
    const pod = faultedPod(f.index, pods);
    const base = { at, fault: f.kind, index: f.index, actions: [] as Action[], podsOnNode: [] as string[] };
    if (!pod) {
      return { ...base, pod: null, outcome: f.index === 0 ? 'no running pod of index 0' : 'every running worker shares the lead\'s node: a worker\'s node fault would take the lead too (rerun)' };
    }
    const node = pod.node!;
    if (!this.nodesAtStart) {
      const nodes = (await this.target.core.listNode()).items;
      this.nodesAtStart = nodes.map((n) => n.metadata!.name!);
      this.schedulableAtStart = schedulableReadyNodes(nodes);
    }
    if (f.kind === 'lose' && this.control.protectedNodes.includes(node)) {
      return { ...base, pod: null, node, outcome: `index ${f.index} landed on protected node ${node}: not lost (rerun)` };
    }
    const onNode = pods.filter((p) => p.node === node && p.phase !== 'Succeeded' && p.phase !== 'Failed').map((p) => p.name);
    if (f.kind === 'drain') {
      await this.cordon(node, true);
      this.drained.add(node);
      this.log(`fault: drain ${node} (index ${f.index}, pod ${pod.name})`);
      const refused: string[] = [];
      for (const p of await this.podsOn(node)) {
        const body: k8s.V1Eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: p, namespace: this.namespace } };
        try {
          await this.target.core.createNamespacedPodEviction({ name: p, namespace: this.namespace, body });
          if (onNode.includes(p)) this.log(`fault: node-pod ${p} (on ${node}, drain)`);
        } catch (e) {
          refused.push(`${p}: ${(e as Error).message.split('\n')[0]}`);
        }
      }
      // Every eviction asked: what waits for the drain's outcome may look from here on (faultsSettled).
      this.log(`fault: drained ${node}`);
      const outcome = refused.length ? `drained; eviction refused for ${refused.join('; ')}` : 'drained (cordoned, every pod of the namespace evicted)';
      return { ...base, pod: pod.name, node, podsOnNode: onNode, outcome };
    }
    // On the timeline when the loss starts: the program may take seconds to end every process there.
    this.lost.add(node);
    this.log(`fault: lose ${node} (index ${f.index}, pod ${pod.name})`);
    for (const p of onNode) this.log(`fault: node-pod ${p} (on ${node}, lose)`);
    const r = await runNodeControl(this.control.program!, 'lose', node, 120);
    if (r.code !== 0) return { ...base, pod: null, node, outcome: `${this.control.program} lose ${node} exited ${r.code}: ${r.output}` };
    return { ...base, pod: pod.name, node, podsOnNode: onNode, outcome: `lost (${r.output.split('\n').at(-1)})` };
  }

  /** The platform's action after a loss, timed from when it starts (a restore runs on while the run polls). */
  private async act(record: Record, action: NodeAction, bound: boolean): Promise<void> {
    const node = record.node!;
    const entry: Action = { action, at: this.now(), outcome: 'started', bound };
    record.actions.push(entry);
    this.log(`fault: node ${node} ${action}`);
    try {
      if (action === 'delete') {
        await this.target.core.deleteNode({ name: node });
        this.deleted.add(node);
        entry.outcome = 'done: Node deleted';
      } else if (action === 'out-of-service') {
        await this.setTaint(node, true);
        this.tainted.add(node);
        entry.outcome = 'done: tainted out-of-service';
      } else if (action === 'return') {
        const running = this.restore(node).then((r) => {
          entry.outcome = r.code === 0 ? `done: ${r.output.split('\n').at(-1)}` : `restore exited ${r.code}: ${r.output}`;
        });
        this.inFlight.push(running);
      }
    } catch (e) {
      entry.outcome = `failed: ${(e as Error).message.split('\n')[0]}`;
    }
  }

  /** `PROGRAM restore NODE`; a deleted Node whose kubelet still runs does not register again by itself, so it is lost first. */
  private async restore(node: string): Promise<{ code: number | null; output: string }> {
    if (!this.lost.has(node)) await runNodeControl(this.control.program!, 'lose', node, 120);
    const r = await runNodeControl(this.control.program!, 'restore', node, 180);
    if (r.code === 0) {
      this.lost.delete(node);
      this.deleted.delete(node);
    }
    return r;
  }

  private async podsOn(node: string): Promise<string[]> {
    const pods = (await this.target.core.listNamespacedPod({ namespace: this.namespace, fieldSelector: `spec.nodeName=${node}` })).items;
    return pods.filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed').map((p) => p.metadata!.name!);
  }

  private async cordon(node: string, on: boolean): Promise<void> {
    const k8s = client();
    await this.target.core.patchNode({ name: node, body: { spec: { unschedulable: on } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
  }

  private async setTaint(node: string, on: boolean): Promise<void> {
    const k8s = client();
    const current = (await this.target.core.readNode({ name: node })).spec?.taints ?? [];
    const others = current.filter((t) => t.key !== OUT_OF_SERVICE.key);
    const taints = on ? [...others, OUT_OF_SERVICE] : others;
    if (!on && taints.length === current.length) return;
    await this.target.core.patchNode({ name: node, body: { spec: { taints } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
  }

  /**
   * Puts the cluster back, whatever happened to the run: every lost or deleted node restored, the
   * out-of-service taint removed, drained nodes uncordoned, and every node there at the first fault
   * Ready again (bounded). Returns what it could not put back.
   */
  async cleanup(): Promise<string[]> {
    const problems: string[] = [];
    await Promise.all(this.inFlight);
    for (const node of new Set([...this.lost, ...this.deleted])) {
      if (!this.control.program) {
        problems.push(`node ${node} is ${this.lost.has(node) ? 'lost' : 'deleted'} and there is no --node-control to restore it`);
        continue;
      }
      const r = await this.restore(node);
      this.log(`cleanup: ${this.control.program} restore ${node}: exit ${r.code}`);
      if (r.code !== 0) problems.push(`cleanup: ${this.control.program} restore ${node} exited ${r.code}: ${r.output}`);
    }
    const tryOn = async (what: string, node: string, call: () => Promise<void>) => {
      try {
        await call();
        this.log(`cleanup: ${what} ${node}`);
      } catch (e) {
        // A Node deleted and registered again has neither the taint nor the cordon.
        if (statusOf(e) !== 404) problems.push(`cleanup: ${what} ${node}: ${(e as Error).message.split('\n')[0]}`);
      }
    };
    for (const node of this.tainted) await tryOn('out-of-service taint removed from', node, () => this.setTaint(node, false));
    for (const node of this.drained) await tryOn('uncordoned', node, () => this.cordon(node, false));
    if (this.nodesAtStart) problems.push(...await this.waitReady(this.nodesAtStart, this.schedulableAtStart));
    return problems;
  }

  /**
   * Every node Ready again, and every node that took pods at the first fault taking them again: a
   * node back Ready keeps its not-ready NoSchedule taint a few seconds more, and a run started then
   * puts all its pods on the other nodes (the next case's node fault would find the lead and its
   * worker on one node).
   */
  private async waitReady(nodes: string[], schedulable: string[]): Promise<string[]> {
    const deadline = Date.now() + CLEANUP_READY_SECONDS * 1000;
    let missing: string[] = nodes;
    while (Date.now() < deadline) {
      const list = (await this.target.core.listNode()).items;
      const ready = readyNodes(list);
      const open = new Set(schedulableReadyNodes(list));
      missing = [...nodes.filter((n) => !ready.has(n)), ...schedulable.filter((n) => ready.has(n) && !open.has(n))];
      if (!missing.length) return [];
      await new Promise((r) => setTimeout(r, 2000));
    }
    return [`cleanup: node(s) ${missing.join(', ')} not Ready and schedulable ${CLEANUP_READY_SECONDS} s after the run: the next case may not have the whole cluster`];
  }
}
