/**
 * The bundled runtime programs (handshake.js, certgen.js) in ConfigMaps shared by every MiniCluster
 * and CurveCertJob of one namespace in one chart.
 *
 * Why per chart and namespace: a pod mounts ConfigMaps of its own namespace only, and a chart is one
 * file that is applied on its own, so each chart carries its own copy. The chart's name is part of
 * the ConfigMap's name, so two charts never claim the same object (kustomize refuses duplicate
 * objects across files, and a GitOps tool pruning one chart would delete another's program).
 *
 * Why a content hash in the name: an upgrade of the library is a new ConfigMap beside the old one,
 * so running pods keep theirs and the GitOps tool prunes the old one; the hash comes from the
 * program text only, so the same library gives byte-identical output. The ConfigMap is immutable:
 * the kubelet does not watch it, and nobody edits it in place.
 */
import { createHash } from 'crypto';
import { ApiObject, Chart, Names } from 'cdk8s';
import { Construct } from 'constructs';
import { runtimeBundle } from '../../core/runtime-bundle';
import { sortKeys } from './labels';

/** The certificate generator's program name (lib/runtime/certgen). */
export const CERTGEN_PROGRAM = 'certgen';
/** `app.kubernetes.io/component` of the shared program ConfigMaps. */
export const RUNTIME_PROGRAM_COMPONENT = 'runtime-program';
/** Hex digits of the content hash in the ConfigMap's name. */
const HASH_LENGTH = 8;

/** A runtime program's shared ConfigMap. */
export interface SharedRuntimeProgram {
  readonly configMap: ApiObject;
  /** The ConfigMap's name. */
  readonly name: string;
  /** Its only key, `<program>.js`: the file name in the mounting container. */
  readonly key: string;
}

/**
 * The ConfigMap holding runtime program `program` (lib/runtime/<program>) for `namespace` in the
 * chart of `scope`: created by the first caller, the same object for every later one.
 */
export function sharedRuntimeProgram(scope: Construct, program: string, namespace: string): SharedRuntimeProgram {
  const chart = Chart.of(scope);
  const source = runtimeBundle(program);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, HASH_LENGTH);
  const key = `${program}.js`;
  // The hash is in the id too: two copies of the library in one app are two programs.
  const id = `cdk8s-minicluster.${program}.${namespace}.${hash}`;
  const existing = chart.node.tryFindChild(id);
  if (existing) return { configMap: existing as ApiObject, name: (existing as ApiObject).name, key };
  const name = runtimeProgramConfigMapName(chart, program, hash);
  const configMap = new ApiObject(chart, id, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace,
      labels: sortKeys({
        'app.kubernetes.io/component': RUNTIME_PROGRAM_COMPONENT,
        'app.kubernetes.io/managed-by': 'cdk8s-minicluster',
        'app.kubernetes.io/name': 'minicluster',
      }),
    },
    immutable: true,
    data: { [key]: source },
  });
  return { configMap, name, key };
}

/** `<chart>-minicluster-<program>-<hash>`: unique per chart, renamed by any change of the program. */
function runtimeProgramConfigMapName(chart: Chart, program: string, hash: string): string {
  return `${Names.toDnsLabel(chart)}-minicluster-${program}-${hash}`;
}

/** Whether a synthesized object is one of the shared program ConfigMaps. */
export function isRuntimeProgramConfigMap(doc: any): boolean {
  return doc?.kind === 'ConfigMap' && doc.metadata?.labels?.['app.kubernetes.io/component'] === RUNTIME_PROGRAM_COMPONENT;
}
