/** The server's version against the output's target version and the Job fields it uses. */
import { KUBERNETES_VERSION_ANNOTATION } from '../../../core/day2-contract';
import type { Finding } from '../findings';
import { cannotTell, CheckContext, jobFinding, Rule } from './context';
import { JOB_FEATURES } from './job-features';

function serverVersion(ctx: CheckContext, rule: string): { minor: number; gitVersion: string } | Finding {
  const v = ctx.facts.version;
  if (!v.ok) return cannotTell(rule, "the server's version (GET /version)", v.why);
  if (!v.value) return cannotTell(rule, "the server's version", 'GET /version gave no version');
  return v.value;
}

export const SERVER_VERSION: Rule = {
  id: 'server-version',
  checks: `the server's version (GET /version) is not older than the target Kubernetes version the output was synthesized for (the Job's annotation ${KUBERNETES_VERSION_ANNOTATION})`,
  run: (ctx) => {
    const server = serverVersion(ctx, 'server-version');
    if ('rule' in server) return [server];
    return ctx.manifest.brokerJobs.filter((j) => j.targetMinor !== null && server.minor < j.targetMinor).map((j) => jobFinding('server-version', 'error', j,
      `the server is ${server.gitVersion}, older than Kubernetes 1.${j.targetMinor}, the target this Job was synthesized for (${KUBERNETES_VERSION_ANNOTATION})`,
      `synthesize with kubernetesVersion: '1.${server.minor}', or run it on a cluster of Kubernetes 1.${j.targetMinor} or newer`));
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
