/**
 * The gang floor (bench/gang-floor.ts, issue 37): its objects, the MiniCluster volumes bench:shape
 * adds to it, and its program, run as real processes over loopback.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { FluxViewSource } from '../lib';
import { GANG_PROGRAM, gangFloorObjects, miniClusterVolumes } from '../bench/gang-floor';
import { scaleCluster } from '../e2e/cases/scale';
import { indexedJob, readDocs } from '../e2e/manifests';
import { expectValidManifests } from './support/k8s-validate';

/** The image-volume scale cluster bench:shape takes its volumes from, and a Secret of its certificate's name. */
function scaleDocs(size: number): { docs: any[]; secrets: any[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-gang-'));
  try {
    const docs = readDocs(scaleCluster(dir, size, FluxViewSource.IMAGE_VOLUME));
    // (bench:shape mints it with the CLI; what matters here is its name)
    const secrets = [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'flux-scale-curve', namespace: 'default' }, stringData: { 'curve.cert': 'x' } }];
    return { docs, secrets };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('gangFloorObjects', () => {
  test('is a headless Service and an Indexed Job of N pods that find pod 0 through it', () => {
    // GIVEN a size and an image WHEN the gang floor is made
    const [service, job] = gangFloorObjects('gang', 'bench', 16, 'node:22');
    // THEN both are valid for the oldest, the default and the newest Kubernetes the tests know
    for (const kubernetesVersion of ['1.27', '1.34', '1.36']) expectValidManifests([service, job], { kubernetesVersion });
    // AND the Service is headless, publishes pods before they are ready, and selects the Job's pods
    expect(service.spec).toEqual({ clusterIP: 'None', publishNotReadyAddresses: true, selector: { 'job-name': 'gang' } });
    // AND the pods are its subdomain, so pod 0 is gang-0.gang, where the program looks for it
    expect(job.spec).toMatchObject({ completionMode: 'Indexed', completions: 16, parallelism: 16, backoffLimit: 0 });
    const pod = job.spec.template.spec;
    expect(pod.subdomain).toBe('gang');
    expect(pod.containers[0].command).toEqual(['node', '-e', GANG_PROGRAM]);
    expect(pod.containers[0].env).toEqual(expect.arrayContaining([{ name: 'GANG_SIZE', value: '16' }, { name: 'GANG_HOST', value: 'gang-0.gang' }]));
    // AND without volumes asked for, the pod mounts none
    expect(pod.volumes).toBeUndefined();
    expect(pod.containers[0].volumeMounts).toBeUndefined();
  });

  test('with a MiniCluster\'s volumes, mounts them as its runner does, with the objects they name', () => {
    // GIVEN the image-volume cluster bench:shape synthesizes, and its Secret
    const { docs, secrets } = scaleDocs(4);
    const mc = indexedJob(docs).spec.template.spec;
    // WHEN its volumes are added to the gang floor
    const objects = gangFloorObjects('gang', 'bench', 4, 'node:22', miniClusterVolumes(docs, secrets));
    // THEN all is valid where image volumes are (1.35 on)
    expectValidManifests(objects, { kubernetesVersion: '1.36' });
    // AND the pod has the cluster's volumes and the runner's mounts, image volumes and subPaths too
    const pod = objects.find((o) => o.kind === 'Job').spec.template.spec;
    expect(pod.volumes).toEqual(mc.volumes);
    expect(pod.containers[0].volumeMounts).toEqual(mc.containers.find((c: any) => c.name === 'flux-scale').volumeMounts);
    expect(pod.volumes.filter((v: any) => v.image)).toHaveLength(2);
    // AND every ConfigMap and Secret a volume names comes with it, in the gang's namespace
    const names = objects.filter((o) => o.kind === 'ConfigMap' || o.kind === 'Secret').map((o) => `${o.kind}/${o.metadata.name}@${o.metadata.namespace}`).sort();
    const named = mc.volumes.flatMap((v: any) => (v.configMap ? [`ConfigMap/${v.configMap.name}@bench`] : v.secret ? [`Secret/${v.secret.secretName}@bench`] : [])).sort();
    expect(names).toEqual(named);
  });

  test('without image volumes, keeps the rest of the shape and drops their mounts', () => {
    // GIVEN the same cluster WHEN its volumes but the image volumes are taken
    const { docs, secrets } = scaleDocs(4);
    const v = miniClusterVolumes(docs, secrets, false);
    // THEN no image volume is left, nor a mount of one, and the others are all there
    const images = indexedJob(docs).spec.template.spec.volumes.filter((x: any) => x.image).map((x: any) => x.name);
    expect(images.length).toBeGreaterThan(0);
    expect(v.volumes.some((x: any) => x.image)).toBe(false);
    expect(v.volumeMounts.some((m: any) => images.includes(m.name))).toBe(false);
    expect(v.volumes.length).toBe(indexedJob(docs).spec.template.spec.volumes.length - images.length);
    expectValidManifests(gangFloorObjects('gang', 'bench', 4, 'node:22', v), { kubernetesVersion: '1.27' });
  });

  test('refuses volumes whose Secret is not given, naming it', () => {
    // GIVEN the cluster's documents without its certificate Secret WHEN its volumes are taken THEN it says which
    const { docs } = scaleDocs(4);
    expect(() => miniClusterVolumes(docs, [])).toThrow(/Secret\/flux-scale-curve/);
  });
});

/** A free TCP port on loopback. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Rank {
  readonly proc: ChildProcess;
  out: string;
  readonly exited: Promise<number | null>;
}

function rank(index: number, size: number, port: number): Rank {
  const proc = spawn(process.execPath, ['-e', GANG_PROGRAM], {
    env: { ...process.env, JOB_COMPLETION_INDEX: String(index), GANG_SIZE: String(size), GANG_PORT: String(port), GANG_HOST: '127.0.0.1' },
  });
  const r: Rank = { proc, out: '', exited: new Promise((resolve) => proc.on('exit', (code) => resolve(code))) };
  proc.stdout!.on('data', (d) => { r.out += d; });
  return r;
}

/** Resolves once `r` has printed `text`. */
function printed(r: Rank, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => { if (r.out.includes(text)) { r.proc.stdout!.off('data', check); resolve(); } };
    r.proc.stdout!.on('data', check);
    check();
  });
}

describe('the gang program, real processes over loopback', () => {
  test('pod 0 holds every worker until the last has come, then all end with 0', async () => {
    // GIVEN a gang of 3 whose worker 1 starts before pod 0 is listening
    const port = await freePort();
    const one = rank(1, 3, port);
    const zero = rank(0, 3, port);
    const ranks = [zero, one];
    try {
      // WHEN worker 1 has arrived at pod 0
      await printed(zero, 'arrived 1 of 2');
      // THEN neither has ended: pod 0 waits for worker 2, worker 1 for pod 0's answer
      expect(one.proc.exitCode).toBeNull();
      expect(zero.proc.exitCode).toBeNull();
      // WHEN worker 2 comes THEN all three end, each with 0
      ranks.push(rank(2, 3, port));
      expect(await Promise.all(ranks.map((r) => r.exited))).toEqual([0, 0, 0]);
      expect(zero.out).toContain('arrived 2 of 2');
    } finally {
      for (const r of ranks) r.proc.kill();
    }
  });

  test('a gang of one ends at once', async () => {
    // GIVEN a gang of one WHEN pod 0 starts THEN it ends with 0, waiting for nobody
    const zero = rank(0, 1, await freePort());
    expect(await zero.exited).toBe(0);
  });
});
