/**
 * Running objects as the API server returns them (Kubernetes API reference, batch/v1 Job and core/v1
 * Pod): a synthesized Job from dist/ with server-set metadata and a status, and the pods the Job
 * controller makes of its template, with conditions and container statuses.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';

type Obj = Record<string, any>;

/** The repository's dist/ (from test/support, or build/test/support when compiled). */
const DIST = [path.resolve(__dirname, '..', '..', 'dist'), path.resolve(__dirname, '..', '..', '..', 'dist')].find((d) => fs.existsSync(d))!;
const T0 = '2026-01-01T00:00:00Z';

/** The Job of a dist/ example, as created in `namespace` (active, no conditions yet). */
export function runningJob(example: string, namespace: string): Obj {
  const docs = parseAllDocuments(fs.readFileSync(path.join(DIST, `${example}.k8s.yaml`), 'utf8')).map((d) => d.toJS());
  const job = structuredClone(docs.find((d) => d.kind === 'Job' && d.metadata.labels?.['app.kubernetes.io/component'] === 'job'));
  job.metadata.namespace = namespace;
  job.metadata.generation = 1;
  job.spec.template.metadata.labels['batch.kubernetes.io/controller-uid'] = `uid-${job.metadata.name}`;
  job.status = { active: job.spec.parallelism, ready: 0, startTime: T0, terminating: 0, uncountedTerminatedPods: {} };
  return job;
}

/** A Job condition as the Job controller writes it. */
export function jobCondition(type: string, reason: string, message: string): Obj {
  return { type, status: 'True', reason, message, lastProbeTime: T0, lastTransitionTime: T0 };
}

export interface PodOptions {
  readonly phase?: string;
  readonly ready?: boolean;
  readonly node?: string;
  /** State of the Flux container (default running). */
  readonly flux?: Obj;
  readonly fluxLastState?: Obj;
  /** State of the handshake sidecar (default running). */
  readonly handshake?: Obj;
  readonly handshakeLastState?: Obj;
  readonly restarts?: number;
  readonly unscheduled?: string;
}

export const RUNNING = { running: { startedAt: T0 } };
export function terminated(exitCode: number, message?: string, reason = exitCode === 0 ? 'Completed' : 'Error'): Obj {
  return { terminated: { exitCode, reason, ...(message ? { message } : {}), startedAt: T0, finishedAt: T0, containerID: 'containerd://0123' } };
}
export function waiting(reason: string, message?: string): Obj {
  return { waiting: { reason, ...(message ? { message } : {}) } };
}

/** The pod of `rank` of a running Job, as the Job controller and kubelet leave it. */
export function podOf(job: Obj, rank: number, o: PodOptions = {}): Obj {
  const name = job.metadata.name;
  const t = job.spec.template;
  const phase = o.phase ?? 'Running';
  const ready = o.ready ?? false;
  const ip = o.unscheduled ? undefined : `10.244.1.${10 + rank}`;
  const cond = (type: string, status: boolean, extra: Obj = {}): Obj => ({ type, status: status ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: T0, ...extra });
  const status = (c: Obj, state: Obj, last: Obj | undefined, isReady: boolean, restarts: number): Obj => ({
    name: c.name, image: c.image, imageID: `${c.image}@sha256:${'0'.repeat(64)}`, containerID: 'containerd://0123',
    ready: isReady, restartCount: restarts, started: Boolean(state.running), state, lastState: last ?? {},
  });
  const inits = (t.spec.initContainers ?? []).map((c: Obj) => (c.name === 'flux-handshake'
    ? status(c, o.handshake ?? RUNNING, o.handshakeLastState, true, o.handshakeLastState ? 1 : 0)
    : status(c, terminated(0), undefined, false, 0)));
  const mains = t.spec.containers.map((c: Obj, i: number) => status(c, i === 0 ? o.flux ?? RUNNING : RUNNING, i === 0 ? o.fluxLastState : undefined, ready, i === 0 ? o.restarts ?? 0 : 0));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${name}-${rank}-${'abcdefghij'.slice(rank % 5, (rank % 5) + 5)}`,
      generateName: `${name}-${rank}-`,
      namespace: job.metadata.namespace,
      labels: { ...t.metadata.labels, 'batch.kubernetes.io/job-completion-index': String(rank), 'batch.kubernetes.io/job-name': name, 'controller-uid': `uid-${name}`, 'job-name': name },
      annotations: { 'batch.kubernetes.io/job-completion-index': String(rank) },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name, uid: `uid-${name}`, controller: true, blockOwnerDeletion: true }],
      finalizers: ['batch.kubernetes.io/job-tracking'],
    },
    spec: { ...t.spec, hostname: `${name}-${rank}`, ...(o.unscheduled ? {} : { nodeName: o.node ?? `node-${rank % 2}` }) },
    status: {
      phase,
      conditions: o.unscheduled
        ? [cond('PodScheduled', false, { reason: 'Unschedulable', message: o.unscheduled })]
        : [cond('PodReadyToStartContainers', true), cond('Initialized', true), cond('Ready', ready), cond('ContainersReady', ready), cond('PodScheduled', true)],
      ...(ip ? { hostIP: '172.18.0.2', hostIPs: [{ ip: '172.18.0.2' }], podIP: ip, podIPs: [{ ip }], startTime: T0 } : {}),
      qosClass: 'Burstable',
      ...(o.unscheduled ? {} : { initContainerStatuses: inits, containerStatuses: mains }),
    },
  };
}

/** A Warning event about a pod (e.g. FailedMount), as the kubelet records it. */
export function podWarning(pod: Obj, reason: string, message: string): Obj {
  return podEvent(pod, reason, message);
}

/** An event about a pod: by default a kubelet Warning at T0; the cluster autoscaler's are Normal. */
export function podEvent(pod: Obj, reason: string, message: string, o: { type?: string; at?: string; component?: string } = {}): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${pod.metadata.name}.${reason}`, namespace: pod.metadata.namespace },
    involvedObject: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace, uid: 'uid-pod' },
    reason, message, type: o.type ?? 'Warning', count: 3, firstTimestamp: o.at ?? T0, lastTimestamp: o.at ?? T0,
    source: { component: o.component ?? 'kubelet', ...(pod.spec.nodeName ? { host: pod.spec.nodeName } : {}) },
  };
}

export interface NodeOptions {
  readonly cpu?: string;
  readonly memory?: string;
  readonly pods?: string;
  /** status.nodeInfo.containerRuntimeVersion (default containerd://2.1.4). */
  readonly runtime?: string;
  readonly labels?: Record<string, string>;
  readonly taints?: Obj[];
  readonly unschedulable?: boolean;
}

/** A Ready node as the kubelet reports it, with its allocatable resources and container runtime. */
export function node(name: string, o: NodeOptions = {}): Obj {
  const allocatable = { cpu: o.cpu ?? '4', memory: o.memory ?? '16Gi', pods: o.pods ?? '110', 'ephemeral-storage': '100Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...o.labels } },
    spec: { ...(o.unschedulable ? { unschedulable: true } : {}), ...(o.taints ? { taints: o.taints } : {}) },
    status: {
      allocatable, capacity: allocatable,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: T0, lastTransitionTime: T0 }],
      nodeInfo: { containerRuntimeVersion: o.runtime ?? 'containerd://2.1.4', kubeletVersion: 'v1.35.1', operatingSystem: 'linux', architecture: 'amd64' },
    },
  };
}

/** A namespace, with labels (e.g. Pod Security's). */
export function namespace(name: string, labels: Record<string, string> = {}): Obj {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } };
}

/** The kube-dns Service of kube-system, as kubeadm installs CoreDNS. */
export function kubeDnsService(): Obj {
  return {
    apiVersion: 'v1', kind: 'Service',
    metadata: { name: 'kube-dns', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } },
    spec: { clusterIP: '10.96.0.10', selector: { 'k8s-app': 'kube-dns' }, ports: [{ name: 'dns', port: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53, protocol: 'TCP' }] },
  };
}

/** A namespaced object of `kind` as it exists in the cluster (Secret, PersistentVolumeClaim, ...). */
export function existing(kind: string, namespace: string, name: string): Obj {
  return { apiVersion: 'v1', kind, metadata: { name, namespace } };
}

/** The path of a dist/ example's YAML. */
export function distFile(example: string): string {
  return path.join(DIST, `${example}.k8s.yaml`);
}
