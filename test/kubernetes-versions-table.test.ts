/**
 * docs/objects.md's "Kubernetes versions" table is generated from kubernetesFeatures, the one source
 * of which target version gets what, and each row's claim is held against the synthesized output of
 * every minor: what the output holds from that version on, and what it holds before.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { FluxViewSource, MiniCluster, MiniClusterProps, MIN_KUBERNETES_MINOR } from '../lib';
import { COMPLETION_INDEX_LABEL } from '../lib/core/day2-contract';
import { featureSince, KubernetesFeature, kubernetesFeatures } from '../lib/core/kubernetes-version';

const OBJECTS_MD = path.join(__dirname, '..', 'docs', 'objects.md');
const SECTION = '## Kubernetes versions';

type Obj = Record<string, any>;

interface Row {
  /** What the output holds from the feature's version on (Markdown). */
  readonly holds: string;
  /** What it holds before (Markdown). */
  readonly before: string;
  /** Whether the output synthesized for `minor` holds what `holds` says; throws when it holds neither that nor `before`. */
  readonly found: (minor: number) => boolean;
}

const hello: MiniClusterProps = { size: 4, containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }] };

function synth(minor: number, props: Partial<MiniClusterProps> = {}): Obj[] {
  const chart = new Chart(Testing.app(), 'versions', { namespace: 'default' });
  new MiniCluster(chart, 'flux-sample', { ...hello, ...props, kubernetesVersion: `1.${minor}` });
  return Testing.synth(chart);
}

const brokerJob = (docs: Obj[]): Obj => docs.find((d) => d.kind === 'Job' && d.metadata.name === 'flux-sample')!;

/** One of two states, or an error naming what the output held instead. */
function either(minor: number, what: string, on: boolean, off: boolean, held: unknown): boolean {
  if (on === off) throw new Error(`Kubernetes 1.${minor}: the output holds neither what the row says from its version on nor what it says before (${what}: ${JSON.stringify(held)})`);
  return on;
}

// A Record: a feature added to KubernetesFeatures fails to compile until it has its row.
const ROWS: Record<KubernetesFeature, Row> = {
  imageVolumes: {
    holds: 'the Flux view as an image volume (`volumes[].image`) when `flux.container.source` is `FluxViewSource.IMAGE_VOLUME`',
    before: 'that source is refused at synth time; the view is copied (`COPY_TO_DISK`, the default, or `COPY_TO_MEMORY`)',
    found: (minor) => {
      let docs: Obj[];
      try {
        docs = synth(minor, { flux: { container: { source: FluxViewSource.IMAGE_VOLUME } } });
      } catch (e) {
        return either(minor, 'synth error', false, /flux\.container\.source/.test(String(e)), String(e));
      }
      const volumes = brokerJob(docs).spec.template.spec.volumes;
      return either(minor, 'volumes', volumes.some((v: Obj) => v.image), false, volumes);
    },
  },
  successPolicy: {
    holds: '`successPolicy` on index 0 (workers reaped when the lead ends)',
    before: 'workers stop when Flux shuts down; their restart loop is bounded (10 restarts)',
    found: (minor) => {
      const docs = synth(minor);
      const policy = brokerJob(docs).spec.successPolicy;
      const script = docs.find((d) => d.kind === 'ConfigMap' && d.data?.['entrypoint.sh'])!.data['entrypoint.sh'];
      const restarts = /\nworker_max_restarts='(\d+)'\n/.exec(script)?.[1];
      return either(minor, 'successPolicy and worker_max_restarts',
        JSON.stringify(policy) === JSON.stringify({ rules: [{ succeededIndexes: '0' }] }) && restarts === '0', policy === undefined && restarts === '10', [policy, restarts]);
    },
  },
  podReplacementPolicy: {
    holds: '`restartPolicy: Never`, `podFailurePolicy`, `podReplacementPolicy: Failed`, `backoffLimit: 3`; never `backoffLimitPerIndex` '
      + 'or `maxFailedIndexes` ([why](reliability.md#deleting-the-namespace))',
    before: '`restartPolicy: OnFailure` and `backoffLimit: 100`, as the operator',
    found: (minor) => {
      const spec = brokerJob(synth(minor)).spec;
      const { restartPolicy } = spec.template.spec;
      const lifecycle = { restartPolicy, podFailurePolicy: !!spec.podFailurePolicy, podReplacementPolicy: spec.podReplacementPolicy, backoffLimit: spec.backoffLimit,
        backoffLimitPerIndex: spec.backoffLimitPerIndex, maxFailedIndexes: spec.maxFailedIndexes };
      const on = JSON.stringify(lifecycle) === JSON.stringify({ restartPolicy: 'Never', podFailurePolicy: true, podReplacementPolicy: 'Failed', backoffLimit: 3 });
      const off = JSON.stringify(lifecycle) === JSON.stringify({ restartPolicy: 'OnFailure', podFailurePolicy: false, backoffLimit: 100 });
      return either(minor, 'the Job lifecycle', on, off, lifecycle);
    },
  },
  nativeSidecars: {
    holds: 'native sidecar (init container with `restartPolicy: Always`) for the handshake',
    before: 'a plain init container',
    found: (minor) => {
      const init: Obj[] = brokerJob(synth(minor)).spec.template.spec.initContainers;
      const handshake = init.filter((c) => /handshake/.test(c.name));
      return either(minor, 'handshake init containers', handshake.length === 1 && handshake[0].restartPolicy === 'Always',
        handshake.length === 1 && handshake[0].restartPolicy === undefined, handshake.map((c) => [c.name, c.restartPolicy]));
    },
  },
  completionIndexLabel: {
    holds: `\`Service/<name>-rendezvous\` selecting the pod label \`${COMPLETION_INDEX_LABEL}: "0"\` (the handshake's rendezvous)`,
    before: 'no rendezvous Service: the handshake polls DNS',
    found: (minor) => {
      const services = synth(minor).filter((d) => d.kind === 'Service');
      const rendezvous = services.find((s) => s.spec.selector?.[COMPLETION_INDEX_LABEL] === '0');
      return either(minor, 'Services', rendezvous?.metadata.name === 'flux-sample-rendezvous', rendezvous === undefined, services.map((s) => s.metadata.name));
    },
  },
};

const FEATURES = Object.keys(ROWS) as KubernetesFeature[];
/** Every minor up to two past the newest feature. */
const MINORS = Array.from({ length: Math.max(...FEATURES.map(featureSince)) + 3 - MIN_KUBERNETES_MINOR }, (_, i) => MIN_KUBERNETES_MINOR + i);

/** The table docs/objects.md must hold: newest feature first. */
function generatedTable(): string[] {
  const sorted = [...FEATURES].sort((a, b) => featureSince(b) - featureSince(a));
  return [
    '| The output holds | From | Before that version |',
    '|---|---|---|',
    ...sorted.map((f) => `| ${ROWS[f].holds} | 1.${featureSince(f)} | ${ROWS[f].before} |`),
  ];
}

/** The first table under the section heading. */
function documentedTable(markdown: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(SECTION);
  if (start < 0) throw new Error(`docs/objects.md has no heading '${SECTION}'`);
  const first = lines.findIndex((l, i) => i > start && l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > first && !l.startsWith('|'));
  return lines.slice(first, end < 0 ? undefined : end);
}

describe('Kubernetes versions table (docs/objects.md)', () => {
  test('GIVEN kubernetesFeatures WHEN a feature is on from a minor THEN it stays on in every later minor (featureSince relies on it)', () => {
    for (const f of FEATURES) {
      expect(MINORS.filter((m) => kubernetesFeatures(`1.${m}`)[f])).toEqual(MINORS.filter((m) => m >= featureSince(f)));
    }
  });

  test('GIVEN every minor from the floor on WHEN hello world is synthesized for it THEN it holds each row\'s objects exactly from the row\'s version, and what the row says before it', () => {
    for (const f of FEATURES) {
      expect([f, MINORS.filter((m) => ROWS[f].found(m))]).toEqual([f, MINORS.filter((m) => kubernetesFeatures(`1.${m}`)[f])]);
    }
  });

  test('GIVEN docs/objects.md WHEN its table is read THEN it is the table generated from kubernetesFeatures, row by row', () => {
    const documented = documentedTable(fs.readFileSync(OBJECTS_MD, 'utf8'));
    const generated = generatedTable();
    const i = generated.findIndex((line, k) => line !== documented[k]);
    if (i >= 0 || documented.length !== generated.length) {
      throw new Error(`docs/objects.md "${SECTION.slice(3)}": row ${i < 0 ? generated.length + 1 : i + 1} differs `
        + `(documented: ${documented[i < 0 ? generated.length : i] ?? 'nothing'}); the table must be:\n${generated.join('\n')}`);
    }
  });
});
