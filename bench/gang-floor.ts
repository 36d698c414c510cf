/**
 * The gang floor (issue 37): bare pods that do what any gang of brokers must, and nothing else.
 * Every worker reaches pod 0 by its DNS name (`<job>-0.<service>`, the pods' subdomain) over TCP and
 * waits there; pod 0 answers them all once every worker has arrived, and all end together. Against
 * the floor (bench/floor.ts, pods running `true` that end one by one as they start) it shows what
 * starting N long-lived pods, finding each other and ending at once costs the same cluster; with the
 * MiniCluster's volumes added (bench/shape.ts), what its pod's shape costs before Flux does anything.
 */
import { indexedJob, jobFacts } from '../e2e/manifests';
import { bareIndexedJob } from './floor';

/** The port pod 0 listens on. */
export const GANG_PORT = 9000;

/**
 * The program every pod runs (`node -e`): JOB_COMPLETION_INDEX 0 serves, the others call it.
 * GANG_SIZE is N; GANG_HOST where pod 0 is. Pod 0 prints `arrived K of M` as workers come, so a
 * test can see it wait. A worker retries until pod 0 answers: pod 0 may start last.
 */
export const GANG_PROGRAM = `
const http = require('http');
const size = Number(process.env.GANG_SIZE), port = Number(process.env.GANG_PORT);
const index = process.env.JOB_COMPLETION_INDEX;
if (index === '0') {
  const workers = size - 1, waiting = new Map();
  if (workers === 0) process.exit(0);
  http.createServer((req, res) => {
    waiting.set(req.url, res);
    console.log('arrived ' + waiting.size + ' of ' + workers);
    if (waiting.size < workers) return;
    let left = waiting.size;
    for (const r of waiting.values()) r.end('go\\n', () => { if (--left === 0) process.exit(0); });
  }).listen(port);
} else {
  const call = () => http.get('http://' + process.env.GANG_HOST + ':' + port + '/' + index, (res) => {
    res.resume();
    res.on('end', () => process.exit(res.statusCode === 200 ? 0 : 1));
  }).on('error', () => setTimeout(call, 200));
  call();
}
`;

/** What the gang's pods may also mount: a MiniCluster's volumes and the objects they need. */
export interface GangVolumes {
  readonly volumes: any[];
  readonly volumeMounts: any[];
  /** ConfigMaps and Secrets the volumes name, created with the Job. */
  readonly objects: any[];
}

/** The gang floor's objects: its headless Service (the pods' subdomain) and its Indexed Job. */
export function gangFloorObjects(name: string, namespace: string, size: number, image: string, extra?: GangVolumes): any[] {
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace },
    // Addresses before readiness, as the MiniCluster's Service: the pods have no probe here.
    spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector: { 'job-name': name } },
  };
  // A gang that never meets (a pod unschedulable) fails instead of hanging the benchmark.
  const job = bareIndexedJob(name, namespace, size, {
    subdomain: name,
    containers: [{
      name: 'gang',
      image,
      imagePullPolicy: 'IfNotPresent',
      command: ['node', '-e', GANG_PROGRAM],
      env: [
        { name: 'GANG_SIZE', value: String(size) },
        { name: 'GANG_PORT', value: String(GANG_PORT) },
        { name: 'GANG_HOST', value: `${name}-0.${name}` },
      ],
      resources: { requests: { cpu: '5m' } },
      ...(extra ? { volumeMounts: extra.volumeMounts } : {}),
    }],
    ...(extra ? { volumes: extra.volumes } : {}),
  }, { activeDeadlineSeconds: 900 });
  return [...(extra?.objects ?? []).map((o) => ({ ...o, metadata: { ...o.metadata, namespace } })), service, job];
}

/**
 * A MiniCluster's pod volumes, as its runner mounts them, with the ConfigMaps and Secrets they
 * name (from `docs`, the synthesized cluster, and `secrets`, made beside it). Without image volumes
 * when `imageVolumes` is false: what the rest of the shape costs.
 */
export function miniClusterVolumes(docs: any[], secrets: any[], imageVolumes = true): GangVolumes {
  const { runner } = jobFacts(docs);
  const pod = indexedJob(docs).spec.template.spec;
  const volumes = (pod.volumes ?? []).filter((v: any) => imageVolumes || !v.image);
  const kept = new Set(volumes.map((v: any) => v.name));
  const volumeMounts = (pod.containers.find((c: any) => c.name === runner).volumeMounts ?? []).filter((m: any) => kept.has(m.name));
  const byKey = new Map([...docs, ...secrets].map((o) => [`${o.kind}/${o.metadata?.name}`, o]));
  const wanted = [...new Set<string>(volumes.flatMap((v: any) =>
    (v.configMap ? [`ConfigMap/${v.configMap.name}`] : v.secret ? [`Secret/${v.secret.secretName}`] : [])))];
  const missing = wanted.filter((w) => !byKey.has(w));
  if (missing.length) throw new Error(`the cluster's volumes name ${missing.join(', ')}, which neither its documents nor the secrets given hold`);
  return { volumes, volumeMounts, objects: wanted.map((w) => byKey.get(w)) };
}
