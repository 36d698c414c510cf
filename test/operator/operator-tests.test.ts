/**
 * The Flux Operator's own end-to-end test MiniClusters (../shared/data/flux-operator/tests), each
 * converted by the real built command line: valid ones give schema-valid manifests with the
 * operator's behaviour (hosts, node and task flags, volumes, Service, view image, logging modes);
 * the ones using rejected fields fail with the documented message. Skipped, visibly, when the data
 * folder is absent.
 */
import { parse as parseToml } from 'smol-toml';
import { expectValidManifests } from '../support/k8s-validate';
import { describeWithOperatorData, operatorTestFiles } from './support/operator-data';
import { cli, yamlDocuments } from './support/run-cli';

/** What each test MiniCluster must produce. */
interface Expected {
  readonly hosts: string;
  readonly submitFlags: string;
  readonly check?: (out: Output) => void;
  /** A warning the conversion must print. */
  readonly warning?: RegExp;
}

/** Test MiniClusters that use fields the converter rejects, and the documented message. */
const REJECTED: Record<string, RegExp[]> = {
  // The output volume has no source: the operator made a claim with an empty claimName.
  'batch/minicluster.yaml': [/:29:11: document 1 \(MiniCluster flux-sample\): spec\.containers\[0\]\.volumes\.data\.claimName = \(unset\): a volume needs a source: .*the operator fell back to a claim with an empty claimName, which the API server rejects\); for scratch space use emptyDir: true$/m],
  // Its broker.toml predates the flux view layout and the Service rename.
  'custom-config/minicluster.yaml': [
    /spec\.flux\.brokerConfig = "\(toml\)": \[bootstrap\] curve_cert = "\/mnt\/flux\/view\/curve\/curve\.cert": must be \/mnt\/flux\/config\/curve\/curve\.cert/,
    /spec\.flux\.brokerConfig = "\(toml\)": \[resource\] path = "\/mnt\/flux\/view\/etc\/flux\/system\/R": must be \/mnt\/flux\/config\/etc\/flux\/system\/R/,
    /spec\.flux\.brokerConfig = "\(toml\)": \[bootstrap\] default_connect = "tcp:\/\/%h\.flux-service\.default\.svc\.cluster\.local:%p": names Service 'flux-service', but this cluster's headless Service is 'flux-sample'/,
    /spec\.flux\.brokerConfig = "\(toml\)": \[bootstrap\] hosts\[0\]\.connect = "tcp:\/\/flux-sample-0\.flux-service\.default\.svc\.cluster\.local:8050": names Service 'flux-service'/,
  ],
  'nginx-service/minicluster.yaml': [/:14:5: document 1 \(MiniCluster flux-sample\): spec\.services = \[\{"image":"nginx","name":"nginx","ports":\[80\]\}\]: the operator runs these containers in one extra Pod '<name>-services' outside the Job/],
  'snakemake/minicluster.yaml': [/:11:12: document 1 \(MiniCluster flux-sample\): spec\.cleanup = true: the operator deletes the whole MiniCluster once pod <name>-0 finishes; .*ttlSecondsAfterFinished/],
};

const viewImage = (tag: string) => (o: Output) => expect(o.initContainer.image).toBe(`ghcr.io/converged-computing/flux-view-ubuntu:${tag}`);

const EXPECTED: Record<string, Expected> = {
  'hello-world/minicluster.yaml': { hosts: 'flux-sample-[0-3]', submitFlags: '-n1', check: (o) => expect(o.shellVar('command_line')).toBe('echo hello world') },
  'post/minicluster.yaml': { hosts: 'flux-sample-[0-3]', submitFlags: '-n1', check: (o) => expect(o.shellVar('hook_post')).toBe('echo hello post') },
  'debug/minicluster.yaml': { hosts: 'flux-sample-[0-1]', submitFlags: '-n1 -vvv' },
  'timed/minicluster.yaml': {
    hosts: 'flux-sample-[0-3]', submitFlags: '-n1',
    check: (o) => expect(o.entrypoint).toContain("start_time=(/usr/bin/time -f 'FLUXTIME fluxstart wall time %E')"),
  },
  'flux-resource-list/minicluster.yaml': { hosts: 'flux-sample-[0-3]', submitFlags: '-N 4 -n4' },
  'minimal-service/minicluster.yaml': { hosts: 'flux-sample-[0-3]', submitFlags: '-N 4 -n4', warning: /spec\.flux\.minimalService = true: no effect: the headless Service always publishes every broker/ },
  'lammps/minicluster.yaml': {
    hosts: 'flux-sample-[0-3]', submitFlags: '-n2',
    check: (o) => {
      expect(o.job.spec.template.metadata.labels.selector).toBe('lammps');
      expect(o.runner.workingDir).toBe('/opt/lammps/examples/reaxff/HNS');
      expect(o.runner.image).toBe('ghcr.io/converged-computing/metric-lammps:latest');
    },
  },
  'lammps/interactive-minicluster.yaml': {
    hosts: 'flux-sample-interactive-[0-3]', submitFlags: '-n2',
    check: (o) => expect(o.entrypoint).toMatch(/broker_options=\(.*'-Sbroker\.rc2_none' \)/),
  },
  'disable-view/minicluster.yaml': {
    hosts: 'flux-sample-[0-3]', submitFlags: '-n2',
    check: (o) => {
      expect(o.initContainer.image).toBe('ubuntu:focal');
      // Flux is in the application image: no Spack software tree is copied.
      expect(o.pod.volumes.map((v: any) => v.name)).not.toContain('flux-software');
    },
  },
  'pokemon/minicluster.yaml': { hosts: 'flux-sample-[0-3]', submitFlags: '-n1', check: viewImage('tag-jammy') },
  'osu-benchmarks/minicluster.yaml': {
    hosts: 'flux-sample-[0-1]', submitFlags: '-N 2 -n2 -ompi=openmpi@5',
    check: viewImage('tag-focal'),
  },
  'emptydir/minicluster.yaml': {
    hosts: 'flux-sample-[0-1]', submitFlags: '-n1',
    check: (o) => {
      expect(o.pod.volumes).toContainEqual({ name: 'my-empty-dir', emptyDir: { medium: 'Memory' } });
      expect(o.runner.volumeMounts).toContainEqual({ name: 'my-empty-dir', mountPath: '/dev/shm' });
    },
  },
  'emptydir/minicluster-without.yaml': {
    hosts: 'flux-sample-[0-1]', submitFlags: '-n1',
    check: (o) => expect(o.runner.volumeMounts.map((m: any) => m.mountPath)).not.toContain('/dev/shm'),
  },
  'existing-volumes/minicluster.yaml': {
    hosts: 'flux-sample-[0-1]', submitFlags: '-n1',
    check: (o) => {
      expect(o.pod.volumes).toContainEqual({ name: 'data', persistentVolumeClaim: { claimName: 'data' } });
      expect(o.runner.volumeMounts).toContainEqual({ name: 'data', mountPath: '/data' });
    },
  },
  'volumes/minicluster.yaml': {
    hosts: 'flux-sample-[0-1]', submitFlags: '-n1',
    // The operator enforces no Pod Security level: a hostPath volume converts at the privileged level.
    warning: /spec\.containers\[0\]\.volumes\.data\.hostPath = "\/data": a hostPath volume is not allowed at the default Pod Security level, baseline \(HostPath Volumes\): converted with podSecurity: PodSecurityLevel\.PRIVILEGED/,
    check: (o) => {
      expect(o.pod.volumes).toContainEqual({ name: 'data', hostPath: { path: '/data', type: 'Directory' } });
      expect(o.runner.volumeMounts).toContainEqual({ name: 'data', mountPath: '/data' });
    },
  },
  'flux-sidecar/minicluster.yaml': {
    hosts: 'flux-sample-[0-1]', submitFlags: '-n1',
    check: (o) => {
      expect(o.pod.containers.map((c: any) => c.name)).toEqual(['flux-sample', 'flux-queue']);
      expect(o.pod.containers[1].command).toEqual(['/bin/bash', '/flux_operator/start-flux-queue.sh']);
      const start = o.configMap.data['start-flux-queue.sh'];
      expect(start).toContain("sidecar_command='sleep 10 && flux proxy ${fluxsocket} flux jobs -a'");
      // The sidecar's socket is the broker's local-uri (the operator's start.sh pointed under view/, the broker under config/).
      expect(start).toContain("fluxsocket='local:///mnt/flux/config/run/flux/local'");
      expect(o.entrypoint).toContain("'-Slocal-uri=local:///mnt/flux/config/run/flux/local'");
    },
  },
  'nginx-sidecar-service/minicluster.yaml': {
    hosts: 'flux-sample-[0-1]', submitFlags: '-n1',
    warning: /spec\.containers\[1\]\.ports = \[80\]: no Service 'nginx': the operator also created a ClusterIP Service/,
    check: (o) => {
      const nginx = o.pod.containers.find((c: any) => c.name === 'nginx');
      expect(nginx.command).toBeUndefined(); // noWrapEntrypoint: the image's own entrypoint
      expect(nginx.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    },
  },
  'singularity/minicluster.yaml': {
    hosts: 'flux-sample-[0-1]', submitFlags: '-n1',
    warning: /spec\.containers\[0\]\.securityContext\.privileged = true: a privileged container is not allowed at the default Pod Security level, baseline \(Privileged Containers\): converted with podSecurity: PodSecurityLevel\.PRIVILEGED/,
    check: (o) => {
      expect(o.runner.securityContext).toEqual({ privileged: true });
      expect(o.shellVar('hook_pre')).toBe('singularity pull docker://ubuntu > /dev/null');
    },
  },
};

/** The synthesized objects of one cluster, with accessors for what the tests look at. */
class Output {
  public readonly job: any;
  public readonly service: any;
  public readonly configMap: any;
  constructor(public readonly docs: any[], name: string) {
    const find = (kind: string, objName: string) => {
      const doc = docs.find((d) => d.kind === kind && d.metadata.name === objName);
      if (!doc) throw new Error(`no ${kind}/${objName} in ${docs.map((d) => `${d.kind}/${d.metadata.name}`).join(', ')}`);
      return doc;
    };
    this.job = find('Job', name);
    this.service = find('Service', name);
    this.configMap = find('ConfigMap', `${name}-entrypoint`);
  }
  get pod(): any { return this.job.spec.template.spec; }
  get runner(): any { return this.pod.containers[0]; }
  get initContainer(): any { return this.pod.initContainers.find((c: any) => c.command?.join(' ').includes('flux-init.sh')); }
  get entrypoint(): string { return this.configMap.data['entrypoint.sh']; }
  /** The value of `name='...'` in the entrypoint (single-quoted, no embedded quotes). */
  shellVar(name: string): string {
    const m = new RegExp(`^${name}='([^']*)'$`, 'm').exec(this.entrypoint);
    if (!m) throw new Error(`${name} is not set in entrypoint.sh`);
    return m[1];
  }
}

describeWithOperatorData('the operator\'s test MiniClusters through `cdk8s-minicluster synth`', () => {
  const files = operatorTestFiles();
  const miniClusters = files.filter((f) => f.documents.some((d) => d.kind === 'MiniCluster'));

  test('every MiniCluster file of the operator tests has an expectation here', () => {
    expect(miniClusters.map((f) => f.relative).sort()).toEqual([...Object.keys(EXPECTED), ...Object.keys(REJECTED)].sort());
  });

  test.each(Object.keys(EXPECTED))('%s: schema-valid manifests with the operator\'s behaviour', (relative) => {
    // GIVEN
    const file = files.find((f) => f.relative === relative)!;
    const expected = EXPECTED[relative];
    const name = file.documents[0].metadata.name;
    // WHEN
    const run = cli(['synth', '-f', file.file, '--stdout']);
    // THEN
    expect(run.code).toBe(0);
    if (expected.warning) expect(run.stderr).toMatch(expected.warning);
    else expect(run.stderr).toBe('');
    const docs = yamlDocuments(run.stdout);
    expectValidManifests(docs);
    const out = new Output(docs, name);
    // hosts of broker.toml
    expect((parseToml(out.configMap.data['broker.toml']) as any).bootstrap.hosts).toEqual([{ host: expected.hosts }]);
    expect(out.shellVar('hostlist')).toBe(expected.hosts);
    // node and task flags of the lead's submit
    expect(out.shellVar('submit_flags')).toBe(expected.submitFlags);
    // the headless Service named after the cluster, publishing brokers before they are ready
    expect(out.service.spec).toMatchObject({ clusterIP: 'None', publishNotReadyAddresses: true });
    expect(out.pod.subdomain).toBe(name);
    // logging: every one of these examples is quiet (Flux's own log level 0)
    const quiet = file.documents[0].spec.logging?.quiet === true;
    expect(out.shellVar('quiet')).toBe(String(quiet));
    expect(out.entrypoint.includes("'-Slog-stderr-level=0'")).toBe(quiet);
    // the runner, named after the cluster, runs the entrypoint
    expect(out.runner.name).toBe(name);
    expect(out.runner.image).toBe(file.documents[0].spec.containers.find((c: any) => c.runFlux)?.image ?? file.documents[0].spec.containers[0].image);
    if (!relative.startsWith('pokemon') && !relative.startsWith('osu') && !relative.startsWith('disable-view')) {
      expect(out.initContainer.image).toBe('ghcr.io/converged-computing/flux-view-ubuntu:tag-noble');
    }
    expected.check?.(out);
  });

  test.each(Object.keys(REJECTED))('%s: rejected with the documented message, nothing printed', (relative) => {
    const file = files.find((f) => f.relative === relative)!;
    const run = cli(['synth', '-f', file.file, '--stdout']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    // (warnings, such as snakemake's hostPath volume needing the privileged level, come first)
    expect(run.stderr).toMatch(/^error: \d+ problems?; nothing was written:\n/m);
    for (const message of REJECTED[relative]) expect(run.stderr).toMatch(message);
    expect(run.stderr.split('\n').filter((l) => l.startsWith('  ')).length).toBe(REJECTED[relative].length);
  });

  test('the operator tests\' PersistentVolume files are not MiniClusters: a clear error', () => {
    const file = files.find((f) => f.relative === 'existing-volumes/pv.yaml')!;
    const run = cli(['validate', '-f', file.file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file.file}:2:7: document 1: kind = "PersistentVolume": must be MiniCluster (apiVersion flux-framework.org/v1alpha2)`);
  });
});
