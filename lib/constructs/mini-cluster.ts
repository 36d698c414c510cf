import { kueueJobAnnotations } from './private/kueue';
import { ApiObject, App, Chart, Lazy, Names } from 'cdk8s';
import { Construct } from 'constructs';
import type { Container } from 'kubernetes-types-1.30/core/v1';
import { brokerOptions } from '../core/broker-options';
import { hostname } from '../core/hostlist';
import { curveCertLabels, curveCertSecret } from '../cert/secret-manifest';
import { CertificateSourceKind } from './certificate';
import { CurveCertJob } from './curve-cert-job';
import { FluxBrokerConfig } from './flux-broker-config';
import { MiniClusterProps } from './mini-cluster-props';
import { appContainers, entrypointConfigMapName, fluxViewCheckContainer, fluxViewInitContainer, podVolumes, sidecarContainers, viewCheckFailureRule } from './private/containers';
import { jobSpec } from './private/job-spec';
import { commonLabels, podLabels, sortKeys, CLUSTER_LABEL } from './private/labels';
import { ResolvedMiniCluster, resolveMiniCluster } from './private/resolve';
import { scriptModel } from './private/script-model';
import { withReferenceNames } from './private/references';
import { formatViolations, validateMiniClusterProps } from './private/validate-mini-cluster-props';
import { miniClusterFromCustomResource } from '../operator/from-custom-resource';
import { addGitOpsAnnotations, jobLabels, runJobName, withSuspend } from './private/gitops';
import { apiServerPolicyManifest, networkPolicyManifest } from './private/network-policy';
import { podSecuritySettings, securePodTemplate } from './private/pod-security';
import { renderScripts } from '../scripts/render';
import { HANDSHAKE_PROGRAM, HandshakeLifecycle, rendezvousServiceName } from '../core/handshake-contract';
import { HandshakeParts, handshakeEnabled, handshakeParts, rendezvousService } from './private/handshake';
import { CERTGEN_PROGRAM, sharedRuntimeProgram } from './private/runtime-programs';
import { AUTOSCALE_PROGRAM, AutoscalePodParts, autoscalePodParts, autoscalerRbac, resolveAutoscale } from './private/autoscale';
import { day2Annotations } from '../core/day2-contract';
import { fluxPaths } from '../core/paths';


/**
 * A Flux Framework MiniCluster: an Indexed Job of `size` brokers (pods `<name>-<index>`), a
 * headless Service as their subdomain, and a ConfigMap of entrypoint scripts. The lead broker
 * (index 0) runs the command once every broker is up; the Job completes when it finishes.
 *
 * The runtime programs (the hosts handshake, the certificate generator) are in ConfigMaps shared by
 * every MiniCluster of the same namespace in the chart, named `<chart>-minicluster-<program>-<hash>`.
 */
export class MiniCluster extends Construct {
  /** Name of the cluster (`props.name`): the Job's name without a GitOps run suffix. */
  public readonly clusterName: string;
  /** Name of the Job (and the pods' hostname prefix): the cluster name, plus the run suffix if any. */
  public readonly jobName: string;
  /** Name of the headless Service (the pods' subdomain). */
  public readonly serviceName: string;
  /**
   * Namespace of every object.
   * @jsii suppress JSII5018 C# capitalizes members (`Namespace`): not a keyword there
   */
  public readonly namespace: string;
  /** Name of the ConfigMap holding the entrypoint scripts. */
  public readonly entrypointConfigMapName: string;
  /** Name of the Secret holding the CURVE certificate. */
  public readonly certificateSecretName: string;
  /** The broker.toml of every broker. */
  public readonly brokerConfig: FluxBrokerConfig;
  /** Number of brokers. */
  public readonly size: number;
  /** Largest size the cluster may be scaled to. */
  public readonly maxSize: number;
  /** The RFC 29 hostlist of all maxSize hosts, e.g. `flux-sample-[0-3]`. */
  public readonly hostlist: string;
  /** The pod label selector that matches exactly this cluster's pods. */
  public readonly selector: { [key: string]: string };

  /** The Job that generates the certificate, with CertificateSource.generatedInCluster(). */
  public readonly certificateJob?: CurveCertJob;

  /**
   * The Indexed Job, as an escape hatch: `cluster.job.addJsonPatch(JsonPatch.add(...))` changes the
   * synthesized manifest (paths as in the YAML). A content-hashed Job name does not cover patches.
   */
  public readonly job: ApiObject;
  /** The headless Service (the pods' subdomain), as an escape hatch. */
  public readonly service: ApiObject;
  /** The handshake's rendezvous Service, when the handshake runs in rendezvous mode; an escape hatch. */
  public readonly rendezvousService?: ApiObject;
  /** The entrypoint ConfigMap (broker.toml and the scripts), as an escape hatch. */
  public readonly entrypoint: ApiObject;

  /** The autoscaler's ServiceAccount (also its Role and RoleBinding), with `autoscale`. */
  public readonly autoscalerServiceAccountName?: string;

  private readonly resolved: ResolvedMiniCluster;
  private readonly handshake?: HandshakeParts;
  private readonly autoscaler?: AutoscalePodParts;

  constructor(scope: Construct, id: string, givenProps: MiniClusterProps) {
    super(scope, id);
    // Object references (a cdk8s-plus Secret, ...) become the name props they stand for.
    const { props, violations: referenceViolations } = withReferenceNames(givenProps);
    const name = props.name ?? id;
    const namespace = props.namespace ?? Chart.of(this).namespace ?? 'default';
    const violations = [...referenceViolations, ...validateMiniClusterProps(props, { name, namespace })];
    if (violations.length > 0) throw new Error(formatViolations(name, violations));

    // Everything tied to one run (Job, pods, entrypoint ConfigMap) takes the run's Job name; the
    // Service, the certificate Secret and its Job keep the cluster name (see private/gitops.ts).
    const jobName = runJobName(name, props.gitOps, () => MiniCluster.fingerprint(Names.toDnsLabel(Chart.of(this)), id, props, name, namespace));
    const r = { ...resolveMiniCluster(props, jobName, namespace), serviceName: props.network?.headlessName ?? name };
    this.resolved = r;
    this.clusterName = name;
    this.jobName = jobName;
    this.namespace = namespace;
    this.serviceName = r.serviceName;
    this.size = r.size;
    this.maxSize = r.maxSize;
    this.entrypointConfigMapName = entrypointConfigMapName(jobName);
    this.certificateSecretName = r.certificate.secretNameFor(name);
    this.selector = { [CLUSTER_LABEL]: jobName };

    try {
      this.brokerConfig = new FluxBrokerConfig(this, 'BrokerConfig', {
        clusterName: jobName,
        namespace,
        serviceName: r.serviceName,
        hostCount: r.maxSize,
        clusterDomain: r.clusterDomain,
        bindInterface: r.bindInterface,
        port: r.brokerPort,
        mountPath: r.mountPath,
        queuePolicy: r.queuePolicy,
        override: props.flux?.brokerConfig,
      });
    } catch (e) {
      throw new Error(formatViolations(name, [{ path: 'flux.brokerConfig', value: '(toml)', rule: (e as Error).message }]));
    }
    this.hostlist = this.brokerConfig.hostlist;

    const handshakeProgram = handshakeEnabled(r) ? sharedRuntimeProgram(this, HANDSHAKE_PROGRAM, namespace) : undefined;
    this.handshake = handshakeProgram && handshakeParts(r, handshakeProgram.name);
    const autoscale = resolveAutoscale(r);
    const autoscaleProgram = autoscale ? sharedRuntimeProgram(this, AUTOSCALE_PROGRAM, namespace) : undefined;
    this.autoscaler = autoscale && autoscaleProgram && autoscalePodParts(r, autoscale, autoscaleProgram.name, autoscaleProgram.key);
    this.autoscalerServiceAccountName = this.autoscaler?.serviceAccountName;
    this.certificateJob = this.certificate();
    this.service = this.headlessService();
    this.rendezvousService = this.rendezvousServiceObject();
    this.entrypoint = this.entrypointConfigMap();
    this.job = this.jobObject();
    // The pods mount the program: list its ConfigMap before the Job.
    if (handshakeProgram) this.job.node.addDependency(handshakeProgram.configMap);
    if (autoscaleProgram) {
      // Its RBAC and program exist before the pods that use them.
      const rbac = autoscalerRbac(jobName, namespace, sortKeys(commonLabels(name, 'autoscaler')))
        .map((o) => new ApiObject(this, `Autoscaler${o.kind}`, o));
      this.job.node.addDependency(autoscaleProgram.configMap, ...rbac);
    }
  }

  /**
   * The MiniCluster of a Flux Operator MiniCluster resource (`flux-framework.org/v1alpha2`, as parsed
   * YAML), with the CRD's and the operator's defaults; throws one error listing every problem.
   * See docs/operator-parity.md.
   */
  public static fromCustomResource(scope: Construct, id: string, resource: any): MiniCluster {
    return miniClusterFromCustomResource(scope, id, resource);
  }

  /** The short hostname of broker `index` (`<name>-<index>`). */
  public hostname(index: number): string {
    if (!Number.isInteger(index) || index < 0 || index >= this.maxSize) {
      throw new Error(`hostname index ${index} is outside 0..${this.maxSize - 1}`);
    }
    return hostname(this.jobName, index);
  }

  /** The DNS name of broker `index` through the headless Service. */
  public fqdn(index: number): string {
    return `${this.hostname(index)}.${this.serviceName}.${this.namespace}.svc.${this.resolved.clusterDomain}`;
  }

  private metadata(name: string, component: string, extra: Record<string, string> = {}) {
    return { name, namespace: this.namespace, labels: sortKeys({ ...extra, ...commonLabels(this.clusterName, component) }) };
  }

  /**
   * The documents of this cluster under its plain name: what a content-hashed Job name hashes. The
   * chart has the real chart's name, which is part of the shared program ConfigMaps' names.
   */
  private static fingerprint(chartName: string, id: string, props: MiniClusterProps, name: string, namespace: string): any[] {
    const chart = new Chart(new App(), chartName, { namespace });
    new MiniCluster(chart, id, { ...props, name, namespace, gitOps: { ...props.gitOps, hashJobName: false, runId: undefined } });
    return chart.toJson();
  }

  private certificate(): CurveCertJob | undefined {
    const source = this.resolved.certificate;
    if (source.kind === CertificateSourceKind.GENERATED_IN_CLUSTER) {
      return new CurveCertJob(this, 'CurveCert', {
        clusterName: this.clusterName,
        namespace: this.namespace,
        secretName: this.certificateSecretName,
        image: source.generated?.image,
        ttlSecondsAfterFinished: source.generated?.ttlSecondsAfterFinished,
      });
    } else if (source.kind === CertificateSourceKind.INSECURE_INLINE) {
      new ApiObject(this, 'InlineCertificate', curveCertSecret({
        secretName: this.certificateSecretName,
        namespace: this.namespace,
        labels: curveCertLabels(this.clusterName),
        certificate: source.inlineCertificate!,
      }) as any);
    }
    return undefined;
  }

  private rendezvousServiceObject(): ApiObject | undefined {
    if (!this.handshake) return undefined;
    const service = rendezvousService(this.handshake, this.metadata(rendezvousServiceName(this.jobName), 'rendezvous-service'));
    return service ? new ApiObject(this, 'RendezvousService', service as any) : undefined;
  }

  private headlessService(): ApiObject {
    const r = this.resolved;
    return new ApiObject(this, 'Service', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: this.metadata(r.serviceName, 'headless-service'),
      spec: {
        clusterIP: 'None',
        // Per-pod DNS records from the moment a pod has an IP, not only once it is Ready.
        publishNotReadyAddresses: true,
        selector: this.selector,
        ports: [{ name: 'flux', port: r.brokerPort, targetPort: r.brokerPort, protocol: 'TCP' }],
      },
    });
  }

  private entrypointConfigMap(): ApiObject {
    return new ApiObject(this, 'Entrypoint', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: this.metadata(this.entrypointConfigMapName, 'entrypoint'),
      // Lazy so tables added to brokerConfig after construction are rendered.
      data: Lazy.any({ produce: () => this.entrypointData() }),
    });
  }

  private entrypointData(): Record<string, string> {
    const toml = this.brokerConfig.toToml();
    const hs = this.handshake;
    const handshake = hs
      ? { dir: hs.wiring.outDir, waitSeconds: hs.scriptWaitSeconds, resolveParent: hs.lifecycle === HandshakeLifecycle.INIT, exitFile: hs.runnerExitFile, inRunner: hs.inRunner }
      : undefined;
    // broker.toml and the scripts that copy it, one key each.
    return sortKeys(renderScripts(scriptModel(this.resolved, toml, this.brokerConfig.tableNames, this.brokerOptions(), handshake)));
  }

  private brokerOptions(): string[] {
    const r = this.resolved;
    return brokerOptions({
      mountPath: r.mountPath,
      topology: r.topology,
      connectTimeout: r.connectTimeout,
      logLevel: r.logLevel,
      quiet: r.quiet,
      zeromq: r.zeromq,
      interactive: r.interactive,
      disableSocket: r.props.flux?.disableSocket ?? false,
      size: r.size,
      maxSize: r.maxSize,
      minSize: r.minSize,
    });
  }

  private jobObject(): ApiObject {
    const r = this.resolved;
    const hs = this.handshake;
    const as = this.autoscaler;
    const runnerMounts = [...(hs ? hs.runnerMounts : []), ...(as ? [as.runnerMount] : [])];
    const containers = appContainers(r).map((c) => (c.name !== r.name ? c : {
      ...c,
      ...(hs ? { readinessProbe: hs.runnerReadinessProbe } : {}),
      ...(runnerMounts.length ? { volumeMounts: [...c.volumeMounts ?? [], ...runnerMounts] } : {}),
      ...(hs?.runnerPorts.length ? { ports: [...c.ports ?? [], ...hs.runnerPorts] } : {}),
      ...(hs?.runnerRequests && !c.resources?.requests ? { resources: { ...c.resources, requests: hs.runnerRequests } } : {}),
      ...(hs?.runnerEnv.length ? { env: [...c.env ?? [], ...hs.runnerEnv.filter((e) => !(c.env ?? []).some((u) => u.name === e.name))] } : {}),
    }));
    const spec = securePodTemplate(jobSpec(r, {
      // With the image volume nothing is copied: the runner writes the config itself (flux-init.sh),
      // and checks the volume first for a flux-views image (any other image: an init container does,
      // before the runner's subPath mounts of it), failing the Job at once if it holds no view.
      initContainers: [...initContainers(viewContainer(r), hs), ...sidecarContainers(r), ...(as ? [as.container] : [])],
      containers,
      volumes: [...podVolumes(r, this.certificateSecretName), ...(hs ? hs.volumes : []), ...(as ? as.volumes : [])],
      serviceAccountName: as?.serviceAccountName,
      failureRules: [...(hs ? [hs.failureRule] : []), ...(r.viewImageVolume ? [viewCheckFailureRule(r)] : [])],
      labels: { ...podLabels(this.jobName, r.props.pod?.labels), 'app.kubernetes.io/instance': this.clusterName },
    }), podSecuritySettings(r.props));
    const job = new ApiObject(this, 'Job', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: this.metadata(this.jobName, 'job', jobLabels(r.props)),
      spec: withSuspend(spec, r.props),
    });
    // What `cdk8s-minicluster status|scale|flux` reads back from the running Job (docs/day2.md).
    const annotations = day2Annotations({ size: r.size, minSize: r.minSize ?? r.size, maxSize: r.maxSize, fluxView: fluxPaths(r.mountPath).viewScript, kubernetesVersion: `1.${r.features.minor}` });
    for (const [key, value] of Object.entries({ ...annotations, ...kueueJobAnnotations(r.props, r) })) job.metadata.addAnnotation(key, value);
    const certificateObjects = [this.certificateJob ?? this.node.tryFindChild('InlineCertificate')]
      .flatMap((c) => (c ? c.node.findAll() : [])).filter((c): c is ApiObject => c instanceof ApiObject);
    // The certificate Job's program: the same shared object its Job already found.
    const certificateProgram = this.certificateJob ? sharedRuntimeProgram(this, CERTGEN_PROGRAM, this.namespace).configMap : undefined;
    addGitOpsAnnotations({ job, certificateObjects, certificateProgram }, r.props.gitOps);
    const policy = r.props.networkPolicy;
    if (policy) {
      const common = { ...this.metadata(this.jobName, 'network-policy'), selector: this.selector, options: policy };
      new ApiObject(this, 'NetworkPolicy', networkPolicyManifest({ ...common, pod: spec.template.spec!, brokerPort: r.brokerPort }) as any);
      // The autoscaler on the lead patches the Job: without this, the cluster's own policy cut it off.
      // With open egress there is nothing to add (and an Egress policy would close the lead's).
      const callsApi = this.autoscaler !== undefined || policy.apiServerCidrs !== undefined;
      if (callsApi && !(policy.allowAllEgress ?? false)) new ApiObject(this, 'ApiServerNetworkPolicy', apiServerPolicyManifest(common) as any);
    }
    return job;
  }
}

/** The flux view init container: the view's copy, the image volume's check, or none (viewCheckInRunner). */
function viewContainer(r: ResolvedMiniCluster): Container | undefined {
  if (!r.viewImageVolume) return fluxViewInitContainer(r);
  return r.viewCheckInRunner ? undefined : fluxViewCheckContainer(r);
}

/**
 * A native sidecar handshake goes first: it starts at once and handshakes while the view is copied
 * (or, with the image volume, checked). A plain init container handshake runs after the copy, since
 * each init container waits for the last.
 * The user's sidecars follow (jobObject): they need nothing from the handshake and start before Flux.
 */
function initContainers(view: Container | undefined, hs: HandshakeParts | undefined): Container[] {
  const views = view ? [view] : [];
  if (!hs?.container) return views;
  return hs.lifecycle === HandshakeLifecycle.SIDECAR ? [hs.container, ...views] : [...views, hs.container];
}
