/**
 * Pod volumes: ValidateVolumes and validateVolumeSource of pkg/apis/core/validation/validation.go,
 * with the per-source checks for the sources a MiniCluster or a converted Flux Operator resource
 * can carry (emptyDir, hostPath, secret, configMap, persistentVolumeClaim, csi, nfs, downwardAPI,
 * projected, ephemeral, image); other sources are counted for the one-source rule only.
 */
import { FieldErrors, PathSegment, asArray, asObject, asString, isInt, isObject } from './field-errors';
import { compareQuantities, dns1123Label, dns1123Subdomain, parseQuantity } from './formats';
import { validateLabelName } from './meta';

/** Volume sources in validateVolumeSource's order (the later of two is the one reported). */
const SOURCES = [
  'emptyDir', 'hostPath', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'flocker', 'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'quobyte', 'downwardAPI', 'fc', 'flexVolume', 'configMap',
  'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'storageos', 'projected', 'scaleIO',
  'csi', 'ephemeral', 'image',
];
/** validatePullPolicy's values (containers' imagePullPolicy, image volumes' pullPolicy). */
export const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const FILE_MODE_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';
const HOST_PATH_TYPES = ['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'];
const VOLUME_DOWNWARD_API_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];

/** The pod's valid volumes by name, as ValidateVolumes returns them for the mount checks. */
export type Volumes = Map<string, Record<string, any>>;

/** ValidateVolumes. */
export function validateVolumes(e: FieldErrors, volumes: unknown, path: PathSegment[]): Volumes {
  const valid: Volumes = new Map();
  asArray(volumes).forEach((raw, i) => {
    const vol = asObject(raw);
    const at = [...path, i];
    const own = new FieldErrors();
    validateVolumeSource(own, vol, at);
    const name = asString(vol.name);
    if (name === '') own.required([...at, 'name'], '', 'ValidateVolumes');
    else own.invalidEach([...at, 'name'], name, dns1123Label(name), 'ValidateVolumes');
    if (valid.has(name)) own.duplicate([...at, 'name'], name, 'ValidateVolumes');
    if (own.list.length === 0) valid.set(name, vol);
    else e.list.push(...own.list);
  });
  return valid;
}

/** validateVolumeSource: exactly one source, then that source's rules. */
function validateVolumeSource(e: FieldErrors, vol: Record<string, any>, path: PathSegment[]): void {
  let count = 0;
  for (const source of SOURCES) {
    if (!isObject(vol[source])) continue;
    if (count > 0) {
      e.forbidden([...path, source], 'may not specify more than 1 volume type', 'validateVolumeSource');
      continue;
    }
    count++;
    const check = SOURCE_RULES[source];
    if (check) check(e, vol[source], [...path, source]);
  }
  if (count === 0) e.required(path, 'must specify a volume type', 'validateVolumeSource');
}

const SOURCE_RULES: Record<string, (e: FieldErrors, s: Record<string, any>, path: PathSegment[]) => void> = {
  emptyDir: (e, s, path) => {
    const limit = parseQuantity(s.sizeLimit);
    if (limit && compareQuantities(limit, { num: 0n, den: 1n }) < 0) {
      e.forbidden([...path, 'sizeLimit'], 'SizeLimit field must be a valid resource quantity', 'validateVolumeSource');
    }
  },
  // validateImageVolumeSource (a Pod's: the reference is required; a template's may be empty)
  image: (e, s, path) => {
    if (asString(s.reference) === '') e.required([...path, 'reference'], '', 'validateImageVolumeSource');
    if (typeof s.pullPolicy === 'string' && !PULL_POLICIES.includes(s.pullPolicy)) {
      e.notSupported([...path, 'pullPolicy'], s.pullPolicy, PULL_POLICIES, 'validatePullPolicy');
    }
  },
  // validateHostPathVolumeSource
  hostPath: (e, s, path) => {
    const p = asString(s.path);
    if (p === '') {
      e.required([...path, 'path'], '', 'validateHostPathVolumeSource');
      return;
    }
    validatePathNoBacksteps(e, p, [...path, 'path']);
    if (typeof s.type === 'string' && !HOST_PATH_TYPES.includes(s.type)) e.notSupported([...path, 'type'], s.type, HOST_PATH_TYPES, 'validateHostPathType');
  },
  // validateSecretVolumeSource
  secret: (e, s, path) => {
    if (asString(s.secretName) === '') e.required([...path, 'secretName'], '', 'validateSecretVolumeSource');
    validateFileMode(e, s.defaultMode, [...path, 'defaultMode'], 'validateSecretVolumeSource');
    asArray(s.items).forEach((kp, i) => validateKeyToPath(e, asObject(kp), [...path, 'items', i]));
  },
  // validateConfigMapVolumeSource
  configMap: (e, s, path) => {
    if (asString(s.name) === '') e.required([...path, 'name'], '', 'validateConfigMapVolumeSource');
    validateFileMode(e, s.defaultMode, [...path, 'defaultMode'], 'validateConfigMapVolumeSource');
    asArray(s.items).forEach((kp, i) => validateKeyToPath(e, asObject(kp), [...path, 'items', i]));
  },
  // validatePersistentClaimVolumeSource
  persistentVolumeClaim: (e, s, path) => {
    if (asString(s.claimName) === '') e.required([...path, 'claimName'], '', 'validatePersistentClaimVolumeSource');
  },
  // validateCSIVolumeSource / ValidateCSIDriverName
  csi: (e, s, path) => {
    const driver = asString(s.driver);
    if (driver === '') e.required([...path, 'driver'], '', 'ValidateCSIDriverName');
    if (driver.length > 63) e.tooLong([...path, 'driver'], 63, 'ValidateCSIDriverName');
    e.invalidEach([...path, 'driver'], driver, dns1123Subdomain(driver.toLowerCase()), 'ValidateCSIDriverName');
    const ref = s.nodePublishSecretRef;
    if (isObject(ref)) {
      if (asString(ref.name) === '') e.required([...path, 'nodePublishSecretRef', 'name'], '', 'validateCSIVolumeSource');
      else e.invalidEach([...path, 'name'], ref.name, dns1123Subdomain(ref.name), 'validateCSIVolumeSource');
    }
  },
  // validateNFSVolumeSource
  nfs: (e, s, path) => {
    if (asString(s.server) === '') e.required([...path, 'server'], '', 'validateNFSVolumeSource');
    const p = asString(s.path);
    if (p === '') e.required([...path, 'path'], '', 'validateNFSVolumeSource');
    if (!p.startsWith('/')) e.invalid([...path, 'path'], p, 'must be an absolute path', 'validateNFSVolumeSource');
  },
  // validateDownwardAPIVolumeSource
  downwardAPI: (e, s, path) => {
    validateFileMode(e, s.defaultMode, [...path, 'defaultMode'], 'validateDownwardAPIVolumeSource');
    asArray(s.items).forEach((f) => validateDownwardAPIVolumeFile(e, asObject(f), path));
  },
  // validateProjectedVolumeSource / validateProjectionSources
  projected: (e, s, path) => {
    validateFileMode(e, s.defaultMode, [...path, 'defaultMode'], 'validateProjectedVolumeSource');
    const paths = new Set<string>();
    const claim = (p: string, conflict: unknown) => {
      if (p === '') return;
      if (paths.has(p)) e.invalid(path, conflict, 'conflicting duplicate paths', 'validateProjectionSources');
      paths.add(p);
    };
    asArray(s.sources).forEach((raw, i) => {
      const src = asObject(raw);
      const at = [...path, 'sources', i];
      const kinds = ['secret', 'configMap', 'downwardAPI', 'serviceAccountToken', 'clusterTrustBundle'].filter((k) => isObject(src[k]));
      for (const kind of ['secret', 'configMap'] as const) {
        if (!isObject(src[kind])) continue;
        if (asString(src[kind].name) === '') e.required([...at, kind, 'name'], '', 'validateProjectionSources');
        asArray(src[kind].items).forEach((kp, j) => {
          validateKeyToPath(e, asObject(kp), [...at, kind, 'items', j]);
          claim(asString(asObject(kp).path), src[kind].name);
        });
      }
      if (isObject(src.downwardAPI)) {
        for (const f of asArray(src.downwardAPI.items)) {
          validateDownwardAPIVolumeFile(e, asObject(f), [...at, 'downwardAPI']);
          claim(asString(asObject(f).path), asString(asObject(f).path));
        }
      }
      if (isObject(src.serviceAccountToken)) {
        const t = src.serviceAccountToken;
        const seconds = isInt(t.expirationSeconds) ? t.expirationSeconds : 3600; // SetDefaults_ServiceAccountTokenProjection
        if (seconds < 600) e.invalid([...at, 'serviceAccountToken', 'expirationSeconds'], seconds, 'may not specify a duration less than 10 minutes', 'validateProjectionSources');
        if (seconds > 2 ** 32) e.invalid([...at, 'serviceAccountToken', 'expirationSeconds'], seconds, 'may not specify a duration larger than 2^32 seconds', 'validateProjectionSources');
        if (asString(t.path) === '') e.required([...path, 'path'], '', 'validateProjectionSources');
        else validateLocalNonReservedPath(e, t.path, [...path, 'path']);
      }
      if (kinds.length > 1) e.forbidden(at, 'may not specify more than 1 volume type per source', 'validateProjectionSources');
    });
  },
  // validateEphemeralVolumeSource (the claim template's spec is left to the PVC rules)
  ephemeral: (e, s, path) => {
    if (!isObject(s.volumeClaimTemplate)) e.required([...path, 'volumeClaimTemplate'], '', 'validateEphemeralVolumeSource');
  },
};

/** The defaultMode / mode range shared by secret, configMap, downwardAPI and projected volumes. */
function validateFileMode(e: FieldErrors, mode: unknown, path: PathSegment[], rule: string): void {
  if (isInt(mode) && (mode > 0o777 || mode < 0)) e.invalid(path, mode, FILE_MODE_MSG, rule);
}

/** validateKeyToPath. */
function validateKeyToPath(e: FieldErrors, kp: Record<string, any>, path: PathSegment[]): void {
  if (asString(kp.key) === '') e.required([...path, 'key'], '', 'validateKeyToPath');
  const p = asString(kp.path);
  if (p === '') e.required([...path, 'path'], '', 'validateKeyToPath');
  validateLocalNonReservedPath(e, p, [...path, 'path']);
  validateFileMode(e, kp.mode, [...path, 'mode'], 'validateKeyToPath');
}

/** validateDownwardAPIVolumeFile (fieldRef paths of volumes; resourceFieldRef needs a container). */
function validateDownwardAPIVolumeFile(e: FieldErrors, file: Record<string, any>, path: PathSegment[]): void {
  const p = asString(file.path);
  if (p === '') e.required([...path, 'path'], '', 'validateDownwardAPIVolumeFile');
  validateLocalNonReservedPath(e, p, [...path, 'path']);
  if (isObject(file.fieldRef)) {
    validateObjectFieldSelector(e, file.fieldRef, VOLUME_DOWNWARD_API_PATHS, [...path, 'fieldRef']);
    if (isObject(file.resourceFieldRef)) e.invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously', 'validateDownwardAPIVolumeFile');
  } else if (isObject(file.resourceFieldRef)) {
    if (asString(file.resourceFieldRef.containerName) === '') e.required([...path, 'resourceFieldRef', 'containerName'], '', 'validateContainerResourceFieldSelector');
  } else {
    e.required(path, 'one of fieldRef and resourceFieldRef is required', 'validateDownwardAPIVolumeFile');
  }
  validateFileMode(e, file.mode, [...path, 'mode'], 'validateDownwardAPIVolumeFile');
}

/** Paths ConvertDownwardAPIFieldLabel accepts for Pods (subscripts are allowed on annotations and labels only). */
const DOWNWARD_API_FIELD_LABELS = [
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs',
  'status.podIP', 'status.podIPs', 'spec.host',
];

/** validateObjectFieldSelector (env and volume fieldRef), `allowed` being the context's expressions. */
export function validateObjectFieldSelector(e: FieldErrors, ref: Record<string, any>, allowed: readonly string[], path: PathSegment[]): void {
  const apiVersion = typeof ref.apiVersion === 'string' && ref.apiVersion !== '' ? ref.apiVersion : 'v1'; // SetDefaults_ObjectFieldSelector
  const fieldPath = asString(ref.fieldPath);
  if (fieldPath === '') {
    e.required([...path, 'fieldPath'], '', 'validateObjectFieldSelector');
    return;
  }
  const sub = /^(.+?)\['(.+)'\]$/.exec(fieldPath);
  if (apiVersion !== 'v1') {
    e.invalid([...path, 'fieldPath'], fieldPath, `error converting fieldPath: unsupported pod version: ${apiVersion}`, 'validateObjectFieldSelector');
    return;
  }
  if (sub) {
    if (sub[1] === 'metadata.annotations') validateQualified(e, sub[2].toLowerCase(), path);
    else if (sub[1] === 'metadata.labels') validateQualified(e, sub[2], path);
    else e.invalid([...path, 'fieldPath'], fieldPath, `error converting fieldPath: field label does not support subscript: ${fieldPath}`, 'validateObjectFieldSelector');
    return;
  }
  if (!DOWNWARD_API_FIELD_LABELS.includes(fieldPath)) {
    e.invalid([...path, 'fieldPath'], fieldPath, `error converting fieldPath: field label not supported: ${fieldPath}`, 'validateObjectFieldSelector');
    return;
  }
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  if (!allowed.includes(internal)) e.notSupported([...path, 'fieldPath'], internal, [...allowed].sort(), 'validateObjectFieldSelector');
}

/** ValidateQualifiedName on a subscript: same messages as a label key. */
function validateQualified(e: FieldErrors, key: string, path: PathSegment[]): void {
  validateLabelName(e, key, path);
}

/** validatePathNoBacksteps. */
export function validatePathNoBacksteps(e: FieldErrors, p: string, path: PathSegment[]): void {
  if (p.split('/').includes('..')) e.invalid(path, p, "must not contain '..'", 'validatePathNoBacksteps');
}

/** validateLocalDescendingPath: relative, no '..' element. */
export function validateLocalDescendingPath(e: FieldErrors, p: string, path: PathSegment[]): void {
  if (p.startsWith('/')) e.invalid(path, p, 'must be a relative path', 'validateLocalDescendingPath');
  validatePathNoBacksteps(e, p, path);
}

/** ValidateLocalNonReservedPath: relative, no '..' element, not starting with '..'. */
function validateLocalNonReservedPath(e: FieldErrors, p: string, path: PathSegment[]): void {
  validateLocalDescendingPath(e, p, path);
  if (p.startsWith('..') && !p.startsWith('../')) e.invalid(path, p, "must not start with '..'", 'ValidateLocalNonReservedPath');
}
