/**
 * The hello-world example as it is synthesized for older Kubernetes versions: each version range
 * gets another pod lifecycle (kubernetesVersion, docs/objects.md, "Kubernetes versions"), and each must boot.
 */
import { E2eCase, MANIFESTS_FILE } from '../case';
import { kubeMinor } from '../kube/cluster-info';
import { synthCluster } from './synth';

/** What changes at each version: the handshake's lifecycle and mode, and the Job's failure handling. */
const VERSIONS: Array<{ version: string; what: string }> = [
  { version: '1.27', what: 'handshake as a plain init container in DNS mode, restartPolicy OnFailure' },
  { version: '1.28', what: 'handshake as a plain init container with the rendezvous Service' },
  { version: '1.30', what: 'native sidecar, podFailurePolicy, no successPolicy' },
];

export function versionCases(): E2eCase[] {
  return VERSIONS.map(({ version, what }) => ({
    id: `example hello-world for Kubernetes ${version}`,
    note: what,
    synth: synthCluster('hello-world', 'default', 'flux-sample', {
      size: 4,
      logging: { quiet: true },
      kubernetesVersion: version,
      containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }],
    }),
    expect: { result: 'Succeeded', leadOutputExactly: 'hello world' },
  }));
}

/** The target of YAML kept in Git from before the default moved on: what a cluster upgraded under it still runs. */
export const UPGRADE_FROM = '1.34';

/**
 * What is wrong with `check -o json` of YAML synthesized for 1.`from` on its server: it must run,
 * with no error, and with the server-version warning exactly when the server is more than one minor newer.
 */
export function upgradeCheckShows(from: number): (doc: any) => string[] {
  return (doc) => {
    const problems: string[] = [];
    const minor = kubeMinor(doc.server?.version ?? '');
    if (!minor) return [`server.version ${doc.server?.version}, expected v1.N`];
    const lag = Number(minor.split('.')[1]) - from;
    if (doc.result !== 'Runs') problems.push(`result ${doc.result}, expected Runs`);
    const findings: any[] = doc.findings ?? [];
    for (const f of findings.filter((x) => x.severity === 'error')) problems.push(`error [${f.rule}] ${f.message}`);
    const skew = findings.filter((x) => x.rule === 'server-version');
    if (lag > 1 && skew.length !== 1) problems.push(`the server is ${lag} minors newer than the target 1.${from}: expected one server-version warning, got ${skew.length}`);
    if (lag > 1 && skew.length === 1 && skew[0].severity !== 'warning') problems.push(`server-version is ${skew[0].severity}, expected warning`);
    if (lag <= 1 && skew.length) problems.push(`the server is ${lag < 0 ? 'older than' : `${lag} minor(s) from`} the target 1.${from}: expected no server-version finding, got: ${skew.map((x) => x.message).join('; ')}`);
    return problems;
  };
}

/**
 * The GitOps user's upgrade: YAML synthesized for 1.34 and never synthesized again, applied to the
 * cluster under test (1.37 when it was upgraded three times). It must run as it is; `check` says
 * beforehand that it runs and, more than a minor behind, what synthesizing again would bring.
 */
export function upgradeCases(): E2eCase[] {
  const from = Number(UPGRADE_FROM.split('.')[1]);
  return [{
    id: `upgrade: hello world synthesized for Kubernetes ${UPGRADE_FROM}, applied unchanged to this cluster`,
    note: `check -f first: it runs, with the server-version warning only when the server is more than one minor newer than ${UPGRADE_FROM}`,
    synth: synthCluster('upgrade', 'default', 'flux-upgrade', {
      size: 4,
      logging: { quiet: true },
      kubernetesVersion: UPGRADE_FROM,
      containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }],
    }),
    podemu: { skip: 'check needs an API server: podemu has none (its README: "No API server")' },
    day2: {
      beforeApply: [{ what: 'check -f -o json: runs; warns of the skew only past one minor', args: ['check', '-f', MANIFESTS_FILE, '-o', 'json'], json: upgradeCheckShows(from) }],
      afterApply: [],
    },
    expect: { result: 'Succeeded', leadOutputExactly: 'hello world' },
  }];
}
