/** The server's version against the output's target version and the Job fields it uses. */
import { KUBERNETES_VERSION_ANNOTATION } from '../../../core/day2-contract';
import { featureSince, KubernetesFeature } from '../../../core/kubernetes-version';
import type { Finding } from '../findings';
import { cannotTell, CheckContext, jobFinding, Rule } from './context';
import { JOB_FEATURES } from './job-features';

function serverVersion(ctx: CheckContext, rule: string): { minor: number; gitVersion: string } | Finding {
  const v = ctx.facts.version;
  if (!v.ok) return cannotTell(rule, "the server's version (GET /version)", v.why);
  if (!v.value) return cannotTell(rule, "the server's version", 'GET /version gave no version');
  return v.value;
}

/**
 * Minors a target may lag the server without a warning: clusters are upgraded one minor at a time,
 * so YAML kept in Git for the minor before the cluster's is the ordinary state between upgrades.
 */
const TOLERATED_LAG = 1;

/** How the version messages name each feature of the table (a Record: a new feature needs its name). */
const FEATURE_NAMES: Record<KubernetesFeature, string> = {
  completionIndexLabel: 'the handshake rendezvous on the job-completion-index pod label',
  nativeSidecars: 'the handshake as a native sidecar',
  podReplacementPolicy: 'restartPolicy Never with podFailurePolicy and podReplacementPolicy Failed',
  successPolicy: "successPolicy (the lead's exit completes the Job)",
  imageVolumes: 'the Flux view as an image volume (flux.container.source IMAGE_VOLUME)',
};

/** The features a target of minor `to` has and one of minor `from` has not, oldest first (kubernetesFeatures). */
function featuresGained(from: number, to: number): string {
  return (Object.keys(FEATURE_NAMES) as KubernetesFeature[])
    .map((f) => ({ f, since: featureSince(f) }))
    .filter((x) => x.since > from && x.since <= to)
    .sort((a, b) => a.since - b.since)
    .map((x) => `${FEATURE_NAMES[x.f]}, 1.${x.since}`)
    .join('; ');
}

export const SERVER_VERSION: Rule = {
  id: 'server-version',
  checks: `the target Kubernetes version the output was synthesized for (the Job's annotation ${KUBERNETES_VERSION_ANNOTATION}) against the server's version (GET /version): `
    + `a warning when the target is newer than the server (each field the server drops or refuses is a job-feature error) or older by more than ${TOLERATED_LAG} minor`,
  run: (ctx) => {
    const server = serverVersion(ctx, 'server-version');
    if ('rule' in server) return [server];
    const out: Finding[] = [];
    // A Job without the annotation (not synthesized by this library, or edited) has no target to hold against the server.
    for (const j of ctx.manifest.brokerJobs.filter((x) => x.targetMinor !== null)) {
      const target = j.targetMinor!;
      const was = `Kubernetes 1.${target}, the target this Job was synthesized for (${KUBERNETES_VERSION_ANNOTATION})`;
      if (server.minor < target) {
        const gained = featuresGained(server.minor, target);
        out.push(jobFinding('server-version', 'warning', j,
          `the server is ${server.gitVersion}, older than ${was}: `
          + `${gained ? `the output may use what 1.${server.minor} lacks (${gained}); ` : ''}each field the server drops or refuses is a job-feature error`,
          `synthesize with kubernetesVersion: '1.${server.minor}' (the cluster's minor), or run it on a cluster of Kubernetes 1.${target} or newer`));
      } else if (server.minor - target > TOLERATED_LAG) {
        const gained = featuresGained(target, server.minor);
        out.push(jobFinding('server-version', 'warning', j,
          `the server is ${server.gitVersion}, ${server.minor - target} minors newer than ${was}: the YAML was made for an older cluster (as when a cluster is upgraded and its YAML is not synthesized again)`
          + `${gained ? ` and leaves out what the library can make for 1.${server.minor} (${gained})` : ''}`,
          `synthesize with kubernetesVersion: '1.${server.minor}' (the cluster's minor)`));
      }
    }
    return out;
  },
};

export const JOB_FEATURE: Rule = {
  id: 'job-feature',
  checks: `each Job and pod field the output uses that the server's version drops or refuses (${JOB_FEATURES.map((f) => `${f.name} ${'>='} 1.${f.since}`).join(', ')})`,
  run: (ctx) => {
    const server = serverVersion(ctx, 'job-feature');
    if ('rule' in server) return [];
    const out: Finding[] = [];
    for (const j of ctx.manifest.brokerJobs) {
      for (const f of JOB_FEATURES.filter((x) => server.minor < x.since)) {
        const paths = f.uses(j.job);
        if (paths.length === 0) continue;
        const fix = f.fix ?? `synthesize with kubernetesVersion: '1.${server.minor}' (the library then leaves ${f.name} out), or run it on Kubernetes 1.${f.since} or newer`;
        out.push(jobFinding('job-feature', 'error', j, `uses ${f.name} (${paths.join(', ')}), which Kubernetes ${server.gitVersion} does not take (${f.gate}): ${f.effect}`, fix));
      }
    }
    return out;
  },
};
