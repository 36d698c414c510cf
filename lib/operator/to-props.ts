/**
 * Converts a Flux Operator MiniCluster resource (flux-framework.org/v1alpha2, as parsed YAML) into
 * MiniCluster props, applying the CRD defaults and the operator's own zero-value defaults, so that
 * an operator user gets the same cluster. Every field is mapped, rejected or warned about
 * (CRD_FIELDS); all problems are reported at once, each with its field path.
 */
import { App } from 'cdk8s';
import { curveCertProblems } from '../cert';
import { CertificateSource } from '../constructs/certificate';
import { FluxBrokerConfig } from '../constructs/flux-broker-config';
import { MiniClusterProps } from '../constructs/mini-cluster-props';
import { validateMiniClusterProps } from '../constructs/private/validate-mini-cluster-props';
import { featuresIfValid } from '../core/kubernetes-version';
import {
  ContainerSecurityContext, ContainerVolume, ImagePullPolicy, MiniClusterContainer,
} from '../constructs/props/container';
import { AutoscaleOptions } from '../constructs/props/autoscale';
import { FluxOptions, FluxViewSource } from '../constructs/props/flux';
import { PodOptions, PodRestartPolicy } from '../constructs/props/pod';
import { brokerConfigLayoutProblems } from './broker-config-layout';
import { checkResource } from './check-resource';
import { operatorPodSecurity } from './pod-security';
import { MINICLUSTER_API_VERSION, MINICLUSTER_KIND } from './crd-fields';
import { PathSegment, Problem, formatPath, formatProblems, problemLine } from './problems';

/** Options of the conversion: what a resource cannot say about itself. */
export interface CustomResourceOptions {
  /**
   * Namespace of a resource without metadata.namespace.
   * @default - the chart's namespace, else `default`
   * @jsii suppress JSII5018 C# capitalizes members (`Namespace`): not a keyword there
   */
  readonly namespace?: string;
  /** MiniClusterProps.kubernetesVersion. @default DEFAULT_KUBERNETES_VERSION */
  readonly kubernetesVersion?: string;
  /** MiniClusterProps.ttlSecondsAfterFinished (the replacement of `spec.cleanup`). @default - kept */
  readonly ttlSecondsAfterFinished?: number;
  /**
   * Names of containers (beside the Flux runner) to run as native sidecars (MiniClusterContainer.sidecar):
   * servers such as nginx, which never exit and so would keep the pods and the Job from completing.
   * A MiniCluster resource cannot say this itself. @default - none
   */
  readonly sidecars?: string[];
  /**
   * Copy the Flux view into memory (FluxViewOptions.inMemory): faster pod starts, counted as the
   * pods' memory. A MiniCluster resource cannot say this itself. @default false
   */
  readonly viewInMemory?: boolean;
  /**
   * Where the pods' Flux install comes from (FluxViewOptions.source): copied to disk or memory, or
   * mounted from the view image as an image volume (Kubernetes 1.35 or newer). A MiniCluster
   * resource cannot say this itself. @default - FluxViewSource.COPY_TO_MEMORY with viewInMemory, else FluxViewSource.COPY_TO_DISK
   */
  readonly viewSource?: FluxViewSource;
  /**
   * Autoscale the cluster from Flux's queue (MiniClusterProps.autoscale); only for an elastic
   * resource (maxSize above size). A MiniCluster resource cannot say this itself.
   * @default - no autoscaler
   */
  readonly autoscale?: AutoscaleOptions;
}

/** A converted MiniCluster resource. */
export interface ConvertedMiniCluster {
  /** metadata.name */
  readonly name: string;
  /**
   * metadata.namespace, else the namespace option.
   * @default - unset: the chart's namespace, else `default`
   * @jsii suppress JSII5018 C# capitalizes members (`Namespace`): not a keyword there
   */
  readonly namespace?: string;
  /** The equivalent MiniCluster props (name and namespace included). */
  readonly props: MiniClusterProps;
  /** Fields that have no effect here or behave differently than in the operator, as `path = value: note`. */
  readonly warnings: string[];
}

/** Result of convertCustomResource: the conversion, or every problem. */
export interface CustomResourceConversion {
  /** Set when there are no problems. @default - unset when there are problems */
  readonly converted?: ConvertedMiniCluster;
  /** Every problem: fields that cannot be converted, with the reason. */
  readonly problems: Problem[];
  /** Fields converted, but with a difference from what the operator did (not errors). */
  readonly warnings: Problem[];
}

const V1ALPHA1 = 'flux-framework.org/v1alpha1';
const API_GROUP = 'flux-framework.org/';
/** ObjectMeta fields a resource may carry (server-set ones included, for `kubectl get -o yaml` output). */
const METADATA_FIELDS = ['name', 'namespace', 'labels', 'annotations', 'generateName', 'uid', 'resourceVersion', 'generation',
  'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'finalizers', 'ownerReferences', 'managedFields', 'selfLink'];

/**
 * Converts a MiniCluster resource into props; throws one error listing every problem.
 * @param resource a parsed `flux-framework.org/v1alpha2` MiniCluster (e.g. from `yaml.parse`)
 * @jsii ignore other languages: OperatorConverter.toProps (jsii publishes no free functions)
 */
export function propsFromCustomResource(resource: unknown, options: CustomResourceOptions = {}): ConvertedMiniCluster {
  const { converted, problems } = convertCustomResource(resource, options);
  if (!converted) throw new Error(formatProblems(resourceName(resource), problems));
  return converted;
}

/**
 * Converts a MiniCluster resource into props, returning the problems instead of throwing.
 * @jsii ignore other languages: OperatorConverter.convert
 */
export function convertCustomResource(resource: unknown, options: CustomResourceOptions = {}): CustomResourceConversion {
  const identity = identityProblems(resource);
  if (identity.fatal) return { problems: identity.problems, warnings: [] };
  const checked = checkResource(resource);
  const problems = [...identity.problems, ...checked.problems];
  const warnings = [...checked.warnings];
  const raw = resource as Record<string, any>;
  const meta = metadataOf(raw, problems);
  const spec: Record<string, any> = checked.value.spec ?? {};
  if (raw.spec === undefined || raw.spec === null) problems.push(at(['spec'], undefined, 'required'));

  const ctx = new Context(raw, meta.name, problems, warnings);
  const props = operatorPodSecurity(ctx.props(spec, meta, options), (path, value, note) => warnings.push(ctx.fromPropPath(path, value, note)));
  const found = new Set(problems.map((p) => p.path));
  for (const v of validateMiniClusterProps(props, { name: meta.name, namespace: props.namespace ?? 'default' })) {
    const p = ctx.fromPropPath(v.path, v.value, v.rule);
    // Already reported, or inside a list whose indexes moved (its invalid items are reported).
    if (!found.has(p.path) && !checked.shiftedLists.some((list) => p.path.startsWith(`${list}[`))) problems.push(p);
  }
  if (problems.length === 0 && props.flux?.brokerConfig !== undefined) problems.push(...ctx.brokerConfigProblems(props));
  if (problems.length > 0) return { problems, warnings };
  return {
    converted: {
      name: meta.name,
      namespace: props.namespace,
      props,
      warnings: warnings.map(problemLine),
    },
    problems: [],
    warnings,
  };
}

/** apiVersion and kind: a resource of another kind is not checked further (its fields would be noise). */
function identityProblems(resource: unknown): { problems: Problem[]; fatal: boolean } {
  if (typeof resource !== 'object' || resource === null || Array.isArray(resource)) {
    return { problems: checkResource(resource).problems, fatal: true };
  }
  const { apiVersion, kind } = resource as Record<string, unknown>;
  if (kind !== MINICLUSTER_KIND) {
    const what = `kind ${JSON.stringify(kind ?? null)}${typeof apiVersion === 'string' ? ` (apiVersion ${apiVersion})` : ''}`;
    return {
      problems: [at(['kind'], kind, `must be ${MINICLUSTER_KIND} (apiVersion ${MINICLUSTER_API_VERSION}): only Flux Operator MiniCluster resources are converted, not ${what}`)],
      fatal: true,
    };
  }
  const problems: Problem[] = [];
  let fatal = false;
  if (apiVersion === V1ALPHA1) {
    problems.push(at(['apiVersion'], apiVersion,
      `v1alpha1 is not supported (the operator replaced it with ${MINICLUSTER_API_VERSION} in 0.2.0): set apiVersion: ${MINICLUSTER_API_VERSION} `
      + 'and update the fields that changed (Flux now comes from the flux view init container, not the application image; '
      + 'multi-user, operator-created volumes and the RESTful API were removed; the other problems listed say what to change)'));
  } else if (apiVersion !== MINICLUSTER_API_VERSION) {
    problems.push(at(['apiVersion'], apiVersion, `must be ${MINICLUSTER_API_VERSION}`));
    fatal = typeof apiVersion !== 'string' || !apiVersion.startsWith(API_GROUP);
  }
  return { problems, fatal };
}

function metadataOf(raw: Record<string, any>, problems: Problem[]): { name: string; namespace?: string } {
  const meta = raw.metadata;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    if (meta === undefined || meta === null) problems.push(at(['metadata', 'name'], undefined, 'required'));
    return { name: '' };
  }
  for (const key of Object.keys(meta)) {
    if (!METADATA_FIELDS.includes(key)) problems.push(at(['metadata', key], meta[key], 'unknown field: not an ObjectMeta field'));
  }
  let name = '';
  if (typeof meta.name === 'string' && meta.name !== '') name = meta.name;
  else if (meta.name === undefined || meta.name === null || meta.name === '') {
    problems.push(at(['metadata', 'name'], meta.name ?? undefined, meta.generateName
      ? 'required: generateName is not supported (the name is every pod\'s hostname prefix and must be known when synthesizing)'
      : 'required'));
  } else problems.push(at(['metadata', 'name'], meta.name, 'must be a string'));
  let namespace: string | undefined;
  if (typeof meta.namespace === 'string' && meta.namespace !== '') namespace = meta.namespace;
  else if (meta.namespace !== undefined && meta.namespace !== null && meta.namespace !== '') {
    problems.push(at(['metadata', 'namespace'], meta.namespace, 'must be a string'));
  }
  return { name, namespace };
}

function at(segments: PathSegment[], value: unknown, rule: string): Problem {
  return { path: formatPath(segments), segments, value, rule };
}

function resourceName(resource: unknown): string {
  const name = (resource as any)?.metadata?.name;
  return typeof name === 'string' ? name : '(unnamed)';
}

/** '' means unset for the operator's optional strings (Go zero values). */
function str(v: unknown): string | undefined {
  return v === '' || v === undefined ? undefined : (v as string);
}

/** Drops undefined fields; undefined when nothing is left. */
function compact<T extends object>(obj: T): T | undefined {
  const out = Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The state of one conversion: the raw resource (for locating fields) and what was found. */
class Context {
  /** The checked `spec.flux.curveCert`. */
  public curveCert?: string;
  /** Index of the container that received spec.flux.container.imagePullSecret. */
  private pullSecretCarrier?: number;

  constructor(
    private readonly raw: Record<string, any>,
    private readonly name: string,
    private readonly problems: Problem[],
    private readonly warnings: Problem[],
  ) {}

  public props(s: Record<string, any>, meta: { name: string; namespace?: string }, options: CustomResourceOptions): MiniClusterProps {
    const containers: MiniClusterContainer[] = (s.containers ?? []).map((c: any, i: number) => this.container(c, i, s.containers.length, options.sidecars ?? [],
      featuresIfValid(options.kubernetesVersion)?.nativeSidecars !== false));
    this.viewPullSecret(s.flux?.container?.imagePullSecret, containers);
    const curveCert = str(s.flux?.curveCert);
    if (curveCert !== undefined) this.checkCurveCert(curveCert);
    return compact({
      name: meta.name,
      namespace: meta.namespace ?? options.namespace,
      containers,
      size: s.size,
      maxSize: s.maxSize || undefined,
      minSize: s.minSize || undefined,
      tasks: s.tasks,
      deadlineSeconds: s.deadlineSeconds,
      backoffLimit: s.backoffLimit || undefined,
      ttlSecondsAfterFinished: options.ttlSecondsAfterFinished,
      interactive: s.interactive,
      flux: this.flux(s.flux ?? {}, options.viewInMemory, options.viewSource),
      logging: compact({ ...s.logging }),
      network: compact({ headlessName: str(s.network?.headlessName), disableAffinity: s.network?.disableAffinity }),
      archive: str(s.archive?.path) !== undefined ? { path: s.archive.path } : undefined,
      jobLabels: s.jobLabels,
      pod: this.pod(s.pod ?? {}),
      shareProcessNamespace: s.shareProcessNamespace,
      kubernetesVersion: options.kubernetesVersion,
      autoscale: options.autoscale,
      certificate: curveCert !== undefined ? CertificateSource.insecureInline(curveCert) : undefined,
    })!;
  }

  private container(c: Record<string, any>, index: number, count: number, sidecars: string[], nativeSidecars: boolean): MiniClusterContainer {
    const isRunner = c.runFlux === true || count === 1;
    const path = ['spec', 'containers', index];
    let sidecar = !isRunner && typeof c.name === 'string' && sidecars.includes(c.name);
    if (sidecar && !nativeSidecars) {
      // Reported here, in the option's terms: MiniClusterProps' own rule would name a field the resource does not have.
      this.problems.push(at([...path, 'name'], c.name, `--sidecar ${c.name}: native sidecars need Kubernetes 1.29 or newer (--kubernetes-version)`));
      sidecar = false;
    }
    if (!isRunner && c.ports?.length) {
      this.warn([...path, 'ports'], c.ports, `no Service '${c.name ?? ''}': the operator also created a ClusterIP Service named after this container for its ports; `
        + 'not generated here (reach it on localhost from the same pod, or through the pods\' DNS names)'
        + (sidecar ? '' : `; and a server that never exits keeps its pod, and so the Job, from completing: run it as a native sidecar (synth --sidecar ${c.name ?? '<name>'})`));
    }
    const volumes = c.volumes === undefined ? undefined : Object.fromEntries(Object.entries(c.volumes as Record<string, any>)
      .map(([name, v]) => [name, this.volume(v, [...path, 'volumes', name])]));
    return compact({
      image: c.image,
      // The operator names the runner after the MiniCluster and ignores this.
      name: isRunner ? undefined : str(c.name),
      command: str(c.command),
      workingDir: str(c.workingDir),
      environment: c.environment,
      secrets: c.secrets,
      resources: compact({ ...c.resources }),
      ports: c.ports,
      volumes,
      lifecycle: compact({ postStartExec: str(c.lifeCycle?.postStartExec), preStopExec: str(c.lifeCycle?.preStopExec) }),
      commands: compact(Object.fromEntries(Object.entries(c.commands ?? {}).map(([k, v]) => [k, str(v)]))),
      launcher: c.launcher,
      batch: c.batch,
      batchRaw: c.batchRaw,
      logs: str(c.logs),
      pullAlways: c.pullAlways,
      imagePullPolicy: str(c.imagePullPolicy) as ImagePullPolicy | undefined,
      imagePullSecret: str(c.imagePullSecret),
      securityContext: securityContext(c.securityContext),
      runFlux: c.runFlux,
      noWrapEntrypoint: c.noWrapEntrypoint,
      sidecar: sidecar || undefined,
    })!;
  }

  private volume(v: Record<string, any>, path: PathSegment[]): ContainerVolume {
    const sources = ['csiDriver', 'secretName', 'hostPath', 'configMapName', 'claimName'].filter((k) => str(v[k]) !== undefined);
    if (sources.length === 0 && !v.emptyDir) {
      // Same path as the props rule, which this replaces with the operator's side of the story.
      this.problems.push(at([...path, 'claimName'], undefined, 'a volume needs a source: claimName, hostPath, configMapName, secretName, '
        + 'emptyDir or csiDriver (the operator fell back to a claim with an empty claimName, which the API server rejects); '
        + 'for scratch space use emptyDir: true'));
    }
    if (v.emptyDir && str(v.path) !== undefined && v.path !== '/dev/shm') {
      this.warn([...path, 'path'], v.path, 'mounted here; the operator ignored path and mounted emptyDir volumes at /dev/shm');
    }
    return compact({
      path: str(v.path),
      // false is the default; passed on, it would show up as readOnly: false in the volume source.
      readOnly: v.readOnly || undefined,
      hostPath: str(v.hostPath),
      configMapName: str(v.configMapName),
      items: v.items,
      claimName: str(v.claimName),
      secretName: str(v.secretName),
      emptyDir: v.emptyDir || undefined,
      emptyDirMedium: str(v.emptyDirMedium),
      emptyDirSizeLimit: str(v.emptyDirSizeLimit),
      csiDriver: str(v.csiDriver),
      csiDriverAttributes: v.csiDriverAttributes,
    }) ?? {};
  }

  /** Pull secrets are pod-wide: the view's goes on the first container without one. */
  private viewPullSecret(secret: string | undefined, containers: MiniClusterContainer[]) {
    if (str(secret) === undefined) return;
    const path = ['spec', 'flux', 'container', 'imagePullSecret'];
    if (containers.some((c) => c.imagePullSecret === secret)) return;
    const carrier = containers.findIndex((c) => c.imagePullSecret === undefined);
    if (carrier < 0) {
      this.problems.push(at(path, secret, 'every container already names another imagePullSecret and each container holds one; '
        + 'name this Secret on a container instead (pull secrets apply to the whole pod)'));
      return;
    }
    containers[carrier] = { ...containers[carrier], imagePullSecret: secret };
    this.pullSecretCarrier = carrier;
    this.warn(path, secret, "added to the pod's imagePullSecrets; the operator ignored this field and pulled the view image without it");
  }

  private flux(f: Record<string, any>, inMemory: boolean | undefined, source: FluxViewSource | undefined): FluxOptions | undefined {
    const c = f.container ?? {};
    return compact({
      container: compact({
        image: str(c.image),
        name: str(c.name),
        mountPath: str(c.mountPath),
        disable: c.disable,
        inMemory: inMemory || undefined,
        source,
        workingDir: str(c.workingDir),
        pythonPath: str(c.pythonPath),
        resources: compact({ ...c.resources }),
        pullAlways: c.pullAlways,
        securityContext: securityContext(c.securityContext),
      }),
      submitCommand: str(f.submitCommand),
      wrap: str(f.wrap),
      connectTimeout: f.connectTimeout,
      optionFlags: str(f.optionFlags),
      topology: str(f.topology),
      completeWorkers: f.completeWorkers,
      logLevel: f.logLevel,
      scheduler: compact({ simple: f.scheduler?.simple, queuePolicy: str(f.scheduler?.queuePolicy) }),
      environment: f.environment,
      brokerConfig: str(f.brokerConfig),
      disableSocket: f.disableSocket,
    });
  }

  private pod(p: Record<string, any>): PodOptions | undefined {
    const restart = str(p.restartPolicy);
    const policies: string[] = Object.values(PodRestartPolicy);
    if (restart !== undefined && !policies.includes(restart)) {
      this.problems.push(at(['spec', 'pod', 'restartPolicy'], restart, `must be ${policies.join(' or ')} (a Job's pods cannot restart Always)`));
    }
    return compact({
      labels: p.labels,
      annotations: p.annotations,
      serviceAccountName: str(p.serviceAccountName),
      automountServiceAccountToken: p.automountServiceAccountToken,
      nodeSelector: p.nodeSelector,
      nodeAffinity: p.nodeAffinity,
      tolerations: p.tolerations?.map((t: any) => compact({ key: str(t.key), operator: str(t.operator), value: str(t.value), effect: str(t.effect) }) ?? {}),
      schedulerName: str(p.schedulerName),
      runtimeClassName: str(p.runtimeClassName),
      dnsPolicy: str(p.dnsPolicy),
      hostIPC: p.hostIPC,
      hostPID: p.hostPID,
      fsGroup: p.securityContext?.fsGroup,
      restartPolicy: restart !== undefined && policies.includes(restart) ? restart as PodRestartPolicy : undefined,
    });
  }

  private checkCurveCert(text: string) {
    for (const rule of curveCertProblems(text)) {
      // Never echo the value: it holds a secret key.
      this.problems.push(at(['spec', 'flux', 'curveCert'], '(certificate)', rule));
    }
    this.curveCert = text;
  }

  /** The broker config must load in Flux and fit this cluster's layout (only checked once all else is valid). */
  public brokerConfigProblems(props: MiniClusterProps): Problem[] {
    const path = ['spec', 'flux', 'brokerConfig'];
    const text = props.flux!.brokerConfig!;
    const rules: string[] = [];
    try {
      new FluxBrokerConfig(new App(), 'check', {
        clusterName: this.name, namespace: props.namespace ?? 'default', hostCount: props.maxSize ?? props.size ?? 1, override: text,
      });
    } catch (e) {
      rules.push(...(e as Error).message.split('\n').slice(1).map((l) => l.replace(/^\s*- /, '')).filter((l) => l !== ''));
      if (rules.length === 0) rules.push((e as Error).message);
    }
    rules.push(...brokerConfigLayoutProblems(text, {
      mountPath: props.flux?.container?.mountPath ?? '/mnt/flux',
      serviceName: props.network?.headlessName ?? this.name,
      namespace: props.namespace ?? 'default',
    }));
    return rules.map((rule) => at(path, '(toml)', rule));
  }

  /** A props validation path, as the resource field it came from. */
  public fromPropPath(propPath: string, value: unknown, rule: string): Problem {
    const carrier = this.pullSecretCarrier;
    let path: string;
    if (propPath === 'name' || propPath === 'namespace') path = `metadata.${propPath}`;
    else if (propPath === 'kubernetesVersion' || propPath === 'ttlSecondsAfterFinished') return { path: `(option ${propPath})`, segments: [], value, rule };
    else if (propPath === 'flux.container.inMemory') return { path: '(option --view-in-memory)', segments: [], value, rule };
    else if (propPath === 'flux.container.source') return { path: '(option --view-source)', segments: [], value, rule };
    else if (propPath.startsWith('autoscale')) return { path: `(option --${propPath.replace(/^autoscale\.?/, 'autoscale-').replace(/-$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)})`, segments: [], value, rule };
    else if (propPath === 'pod.fsGroup') path = 'spec.pod.securityContext.fsGroup';
    else if (propPath === 'certificate.inlineCertificate') path = 'spec.flux.curveCert';
    else if (carrier !== undefined && propPath === `containers[${carrier}].imagePullSecret`) path = 'spec.flux.container.imagePullSecret';
    else path = `spec.${propPath.replace(/^(containers\[\d+\])\.lifecycle\b/, '$1.lifeCycle')}`;
    return { path, segments: locate(this.raw, path), value, rule };
  }

  private warn(segments: PathSegment[], value: unknown, rule: string) {
    this.warnings.push(at(segments, value, rule));
  }
}

function securityContext(sc: Record<string, any> | undefined): ContainerSecurityContext | undefined {
  if (!sc) return undefined;
  return compact({
    privileged: sc.privileged,
    runAsUser: sc.runAsUser,
    runAsGroup: sc.runAsGroup,
    runAsNonRoot: sc.runAsNonRoot,
    allowPrivilegeEscalation: sc.allowPrivilegeEscalation,
    readOnlyRootFilesystem: sc.readOnlyRootFilesystem,
    capabilities: compact({ add: sc.capabilities?.add, drop: sc.capabilities?.drop }),
  });
}

/**
 * The segments of `path` inside `raw`, as far as they exist. Keys may contain dots (label keys), so
 * at each level the longest key that matches is taken.
 */
export function locate(raw: unknown, path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let node: any = raw;
  let rest = path;
  while (rest !== '' && node !== null && typeof node === 'object') {
    if (Array.isArray(node)) {
      const m = /^\[(\d+)\]\.?/.exec(rest);
      if (!m || Number(m[1]) >= node.length) break;
      segments.push(Number(m[1]));
      node = node[Number(m[1])];
      rest = rest.slice(m[0].length);
      continue;
    }
    const key = Object.keys(node).filter((k) => rest === k || rest.startsWith(`${k}.`) || rest.startsWith(`${k}[`))
      .sort((a, b) => b.length - a.length)[0];
    if (key === undefined) break;
    segments.push(key);
    node = node[key];
    rest = rest.slice(key.length).replace(/^\./, '');
  }
  return segments;
}
