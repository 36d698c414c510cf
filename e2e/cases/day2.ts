/**
 * The day-2 commands (docs/day2.md) against a real cluster, as a user runs them: `check -f` before
 * apply, then `wait`, `status`, `flux`, `logs` and `scale` on elastic interactive clusters (grown, and shrunk), and
 * `wait` failing fast on a cluster whose image cannot be pulled. They need an API server and
 * `kubectl exec`: podemu has neither.
 */
import { Day2Step, E2eCase, MANIFESTS_FILE } from '../case';
import { synthCluster } from './synth';

const NO_API_SERVER = 'the day-2 commands need an API server and exec: podemu has neither (its README: "No API server: ... no `kubectl exec`")';

/** What is wrong with `status -o json` of a cluster that should run `size` brokers, all connected. */
export function statusShows(size: number, limits?: { min: number; max: number }): (doc: any) => string[] {
  return (doc) => {
    const problems: string[] = [];
    if (doc.state !== 'Up') problems.push(`state ${doc.state}, expected Up`);
    if (doc.brokers?.up !== size || doc.brokers?.expected !== size) problems.push(`brokers ${doc.brokers?.up}/${doc.brokers?.expected}, expected ${size}/${size}`);
    if (doc.size?.current !== size) problems.push(`size.current ${doc.size?.current}, expected ${size}`);
    if (limits && (doc.elastic !== true || doc.size?.min !== limits.min || doc.size?.max !== limits.max)) {
      problems.push(`elastic ${doc.elastic} ${doc.size?.min}..${doc.size?.max}, expected elastic ${limits.min}..${limits.max}`);
    }
    const ranks: any[] = doc.ranks ?? [];
    for (let rank = 0; rank < size; rank++) {
      const r = ranks.find((x) => x.rank === rank);
      if (!r || !r.ready || r.phase !== 'Running' || r.flux !== 'running') problems.push(`rank ${rank}: ${r ? `${r.phase}, ready ${r.ready}, flux ${r.flux}` : 'no pod'}, expected Running, Ready, flux running`);
    }
    for (const r of ranks.filter((x) => x.rank >= size && (x.phase === 'Running' || x.phase === 'Pending'))) problems.push(`rank ${r.rank} (${r.pod}) still ${r.phase} at size ${size}`);
    if ((doc.problems ?? []).length) problems.push(`problems: ${doc.problems.join('; ')}`);
    return problems;
  };
}

/** `flux resource list` of a cluster of `max` hosts with ranks 0..up-1 up: that many free, the rest down. */
function resourceList(name: string, up: number, max: number): Day2Step {
  const range = (from: number, to: number) => `${name}-\\[${from}-${to}\\]`;
  return {
    what: `flux resource list: ${up} nodes free${up < max ? `, ${max - up} down` : ''}`,
    args: ['flux', name, '--', 'resource', 'list'],
    stdout: [
      new RegExp(`^\\s*free\\s+${up}\\s+\\d+\\s+0 ${range(0, up - 1)}$`, 'm'),
      ...(up < max ? [new RegExp(`^\\s*down\\s+${max - up}\\s+\\d+\\s+0 ${range(up, max - 1)}$`, 'm')] : []),
    ],
    // A broker that just connected (or left) is up (or down) in the resource set a moment later.
    retry: true,
    timeoutSeconds: 60,
  };
}

/** `flux run -N<n> hostname` through the plugin: every one of the n hosts prints its name, once. */
function runOnEvery(name: string, n: number): Day2Step {
  return {
    what: `flux run -N${n} hostname prints the ${n} hosts`,
    args: ['flux', name, '--', 'run', `-N${n}`, 'hostname'],
    stdout: [
      new RegExp(`^(?:${name}-[0-${n - 1}]\\n){${n}}$`),
      ...Array.from({ length: n }, (_, i) => new RegExp(`^${name}-${i}$`, 'm')),
    ],
  };
}

function statusJson(name: string, size: number, limits: { min: number; max: number }, retry = false): Day2Step {
  return { what: `status -o json: Up, ${size}/${size} brokers, ranks 0..${size - 1} Ready, elastic ${limits.min}..${limits.max}`, args: ['status', name, '-o', 'json'], json: statusShows(size, limits), retry, timeoutSeconds: retry ? 60 : undefined };
}

/** `scale` to `to`, then what status and Flux say of it. */
function scaleTo(name: string, from: number, to: number, limits: { min: number; max: number }): Day2Step[] {
  return [
    { what: `scale ${from} -> ${to}`, args: ['scale', name, '--size', String(to), '--timeout', '3m'], stdout: [new RegExp(`parallelism and completions ${from} -> ${to}`), new RegExp(`: ${to} brokers up$`, 'm')] },
    statusJson(name, to, limits),
    resourceList(name, to, limits.max),
    runOnEvery(name, to),
  ];
}

function waitUp(name: string): Day2Step {
  return { what: 'wait --for up', args: ['wait', name, '--for', 'up', '--timeout', '3m'], stdout: [new RegExp(`^MiniCluster ${name} is up$`, 'm')] };
}

const ELASTIC = 'flux-day2';
const SHRINK = 'flux-shrink';
const NO_PULL = 'flux-no-pull';
const SHRINK_LIMITS = { min: 2, max: 4 };

export function day2Cases(): E2eCase[] {
  return [
    {
      id: 'day-2: kubectl minicluster check, wait, status, flux, logs and scale up an elastic cluster',
      note: 'an interactive cluster of 2 brokers, maxSize 4, grown to 4 with kubectl minicluster scale',
      synth: synthCluster('day2', 'default', ELASTIC, {
        size: 2,
        maxSize: 4,
        interactive: true,
        containers: [{ image: 'ubuntu:noble' }],
      }),
      podemu: { skip: NO_API_SERVER },
      kube: { extraSeconds: 120 },
      day2: {
        largestSize: 4,
        beforeApply: [
          { what: 'check -f: the output would run', args: ['check', '-f', MANIFESTS_FILE], stdout: [new RegExp(`/Job/${ELASTIC} would run on https?://`)] },
        ],
        afterApply: [
          waitUp(ELASTIC),
          statusJson(ELASTIC, 2, { min: 2, max: 4 }),
          { what: 'status: Up, 2/2 brokers', args: ['status', ELASTIC], stdout: [/\): Up$/m, /^Brokers up: 2\/2 {3}Size: elastic 2\.\.4$/m] },
          resourceList(ELASTIC, 2, 4),
          runOnEvery(ELASTIC, 2),
          { what: "logs: the lead's Flux container", args: ['logs', ELASTIC], stdout: [new RegExp(`^entrypoint: rank 0 on ${ELASTIC}-0, running as uid 0$`, 'm')] },
          { what: 'scale above maxSize is refused (exit 7)', args: ['scale', ELASTIC, '--size', '5'], exit: 7, stderr: [/above its maxSize, 4/] },
          ...scaleTo(ELASTIC, 2, 4, { min: 2, max: 4 }),
        ],
      },
      expect: { result: 'Interrupted' },
    },
    {
      id: 'day-2: kubectl minicluster scale down an elastic cluster, three times',
      note: 'an interactive cluster of 4 brokers, minSize 2, shrunk to 2 with kubectl minicluster scale three times (grown back to 4 between): each time the Job controller deletes the pods of ranks 2 and 3. '
        + 'The released ranks end with 0; the Job controller matches the podFailurePolicy against every Failed pod of the Job, one whose index the shrink removed included '
        + '(getFailJobMessage, Kubernetes 1.36.3): a stopped one would end with 75, which its Ignore rule takes',
      synth: synthCluster('shrink', 'default', SHRINK, {
        size: 4,
        minSize: 2,
        maxSize: 4,
        interactive: true,
        logging: { quiet: true },
        containers: [{ image: 'ubuntu:noble' }],
      }),
      podemu: { skip: NO_API_SERVER },
      kube: { extraSeconds: 120 },
      day2: {
        // Shrunk three times (grown again between): each shrink ends the pods of ranks 2 and 3.
        afterApply: [
          waitUp(SHRINK),
          // Up is minSize (2) brokers connected: ranks 2 and 3 may connect a moment later.
          statusJson(SHRINK, 4, SHRINK_LIMITS, true),
          ...scaleTo(SHRINK, 4, 2, SHRINK_LIMITS),
          ...scaleTo(SHRINK, 2, 4, SHRINK_LIMITS),
          ...scaleTo(SHRINK, 4, 2, SHRINK_LIMITS),
          ...scaleTo(SHRINK, 2, 4, SHRINK_LIMITS),
          ...scaleTo(SHRINK, 4, 2, SHRINK_LIMITS),
        ],
      },
      expect: { result: 'Interrupted' },
    },
    {
      id: 'day-2: kubectl minicluster wait fails fast on an image that cannot be pulled',
      note: 'the application image is on a registry that cannot exist (registry.invalid): wait exits 11 without waiting for its timeout',
      synth: synthCluster('no-pull', 'default', NO_PULL, {
        size: 2,
        interactive: true,
        logging: { quiet: true },
        containers: [{ image: 'registry.invalid/no-such-image:1' }],
      }),
      podemu: { skip: NO_API_SERVER },
      day2: {
        afterApply: [
          { what: 'wait for a cluster that does not exist (exit 3)', args: ['wait', 'no-such-cluster', '--for', 'up', '--timeout', '10s'], exit: 3 },
          { what: 'wait --for up exits 11, naming the image', args: ['wait', NO_PULL, '--for', 'up', '--timeout', '3m'], exit: 11, stderr: [/cannot be up: .*(ImagePullBackOff|ErrImagePull)/, /registry\.invalid\/no-such-image:1/] },
          {
            what: 'status -o json: not up, the pull named',
            args: ['status', NO_PULL, '-o', 'json'],
            json: (doc) => [
              ...(doc.state === 'Up' || doc.brokers?.up !== 0 ? [`state ${doc.state} with ${doc.brokers?.up} brokers up, expected none`] : []),
              ...((doc.problems ?? []).some((p: string) => /registry\.invalid\/no-such-image:1/.test(p)) ? [] : [`no problem names the image: ${JSON.stringify(doc.problems)}`]),
            ],
          },
        ],
      },
      expect: { result: 'Interrupted', noBrokers: true },
    },
  ];
}
