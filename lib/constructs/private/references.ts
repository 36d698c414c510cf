/**
 * Object references (props/references.ts) to the name props they stand for, before validation, so
 * that every rule and the manifests see names only. A reference and its name prop may both be set
 * only to the same name (so resolving twice is harmless).
 */
import { MiniClusterProps } from '../mini-cluster-props';
import { ContainerVolume, MiniClusterContainer, SecretKeyReference } from '../props/container';
import type { Violation } from './validate-mini-cluster-props';

/** The props with every reference turned into its name prop, and the conflicts found. */
export function withReferenceNames(props: MiniClusterProps): { props: MiniClusterProps; violations: Violation[] } {
  const violations: Violation[] = [];
  // One rule for every pair: the reference's name, unless the name prop says otherwise.
  const nameOf = (path: string, ref: { name?: unknown } | undefined, nameProp: string, name: string | undefined): string | undefined => {
    if (ref === undefined) return name;
    if (typeof ref?.name !== 'string') {
      violations.push({ path: `${path}.name`, value: ref?.name, rule: 'a reference must have a name (a string)' });
      return name;
    }
    if (name !== undefined && name !== ref.name) {
      violations.push({ path, value: ref.name, rule: `names a different object than ${nameProp} '${name}': set one of the two` });
    }
    return ref.name;
  };
  const pod = props.pod && {
    ...props.pod,
    serviceAccountName: nameOf('pod.serviceAccount', props.pod.serviceAccount, 'serviceAccountName', props.pod.serviceAccountName),
    serviceAccount: undefined,
  };
  const containers = !Array.isArray(props.containers) ? props.containers : props.containers.map((c, i): MiniClusterContainer => {
    if (!c || typeof c !== 'object') return c;
    const path = `containers[${i}]`;
    const imagePullSecret = nameOf(`${path}.imagePullSecretRef`, c.imagePullSecretRef, 'imagePullSecret', c.imagePullSecret);
    const secrets = c.secrets && Object.fromEntries(Object.entries(c.secrets).map(([env, ref]): [string, SecretKeyReference] => [env, ref && {
      ...ref, name: nameOf(`${path}.secrets.${env}.secret`, ref.secret, 'name', ref.name), secret: undefined,
    }]));
    const volumes = c.volumes && Object.fromEntries(Object.entries(c.volumes).map(([name, v]): [string, ContainerVolume] => {
      const at = `${path}.volumes.${name}`;
      return [name, v && {
        ...v,
        configMapName: nameOf(`${at}.configMap`, v.configMap, 'configMapName', v.configMapName),
        claimName: nameOf(`${at}.persistentVolumeClaim`, v.persistentVolumeClaim, 'claimName', v.claimName),
        secretName: nameOf(`${at}.secret`, v.secret, 'secretName', v.secretName),
        configMap: undefined,
        persistentVolumeClaim: undefined,
        secret: undefined,
      }];
    }));
    return {
      ...c,
      imagePullSecret,
      imagePullSecretRef: undefined,
      secrets,
      volumes,
    };
  });
  return { props: { ...props, pod, containers }, violations };
}
