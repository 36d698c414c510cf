/**
 * The autoscaler on a real cluster (issue 28): an elastic cluster of 1 to 4 brokers grows for jobs
 * that wait for nodes, runs them, and shrinks back once idle, without a job failing. Podemu has no
 * API server, so the autoscaler cannot read or patch its Job there: the case runs only with
 * --kubeconfig.
 */
import { fluxCommandLine } from '../../lib/cli/day2/flux';
import { AUTOSCALE_DIR, AUTOSCALER_CONTAINER, DECISION_FILE, ENV } from '../../lib/core/autoscale-contract';
import { fluxPaths } from '../../lib/core/paths';
import { shellQuote } from '../../lib/scripts/shell-quote';
import { E2eCase } from '../case';
import { indexedJob } from '../manifests';
import { exampleSynth } from './examples';

/** examples/autoscale.ts: 1 to 4 brokers. */
const MAX_SIZE = 4;
/** Short, so that the case does not wait a minute for the shrink; the example keeps the default. */
const IDLE_SECONDS = 20;
/** Done-when bounds of the issue: submission to start of the 3-node job, and idle to back at the minimum. */
const START_BOUND_SECONDS = 20;
const SHRINK_BOUND_SECONDS = 60;

/** What `kubectl minicluster flux NAME -- ARGS` runs in the lead's Flux container, as a shell line. */
function dayTwoFlux(...args: string[]): string {
  return fluxCommandLine(fluxPaths('/mnt/flux').viewScript, args).map(shellQuote).join(' ');
}

const FLUX_ENV = '. /mnt/flux/flux-view.sh && export FLUX_URI="$fluxsocket"';

export function autoscaleCases(): E2eCase[] {
  return [{
    id: 'example autoscale, grown from 1 broker for -N3 and -N4 jobs, shrunk back once idle',
    note: `size 1, maxSize ${MAX_SIZE}, interactive: flux submit -N3 then -N4 through the day-2 flux command; `
      + `each job's start after its submission, every job's result, and the time from the queue's last job to 1 broker again`,
    synth: exampleSynth('autoscale'),
    patch: {
      why: `the autoscaler's idle time ${IDLE_SECONDS} s instead of the example's 60, to keep the case short`,
      apply: (docs) => {
        const sidecar = indexedJob(docs).spec.template.spec.initContainers.find((c: any) => c.name === AUTOSCALER_CONTAINER);
        sidecar.env.find((e: any) => e.name === ENV.idleSeconds).value = String(IDLE_SECONDS);
      },
    },
    podemu: { skip: 'podemu has no API server: the autoscaler cannot read or patch its Job there' },
    kube: { extraSeconds: 120 },
    expect: {
      result: 'Interrupted',
      execAfterBrokers: 1,
      maxParallelism: MAX_SIZE,
      exec: [
        {
          what: 'flux submit -N3, then -N4, while 1 broker is up; both run once the Job grew',
          script: [
            FLUX_ENV,
            'up=$(flux resource list --states=up -no {nnodes})',
            `j3=$(${dayTwoFlux('submit', '-N3', 'hostname')}) || exit 1`,
            'sleep 2',
            `j4=$(${dayTwoFlux('submit', '-N4', 'hostname')}) || exit 1`,
            'echo "up at submit: $up"',
            'for j in "$j3" "$j4"; do flux job wait-event -t 170 "$j" clean > /dev/null || exit 1; done',
            'for j in "$j3" "$j4"; do flux jobs -n -o \'{nnodes} {result} {t_submit} {t_run}\' "$j"; done'
              + ` | awk '{ s = $4 - $3; printf "-N%s %s, started %.1f s after its submission%s\\n", $1, $2, s, ($1 == 3 ? (s <= ${START_BOUND_SECONDS} ? " (at most ${START_BOUND_SECONDS} s)" : " (OVER ${START_BOUND_SECONDS} s)") : "") }'`,
          ].join('\n'),
          output: [/^up at submit: 1$/m, new RegExp(`^-N3 COMPLETED, started \\d+\\.\\d s after its submission \\(at most ${START_BOUND_SECONDS} s\\)$`, 'm'), /^-N4 COMPLETED, started \d+\.\d s after its submission$/m],
          timeoutSeconds: 200,
          measured: /^-N\d /,
        },
        {
          what: `back at 1 broker once idle ${IDLE_SECONDS} s, and no job failed`,
          script: [
            FLUX_ENV,
            "end=$(flux jobs -a -n -o '{t_inactive}' | sort -n | tail -1)",
            `until [ "$(flux resource list --states=up -no {nnodes})" = 1 ] && grep -q ' shrink ' ${AUTOSCALE_DIR}/${DECISION_FILE}; do sleep 0.5; done`,
            'now=$(date +%s.%N)',
            `awk -v a="$end" -v b="$now" 'BEGIN { s = b - a; printf "1 broker up %.1f s after the last job ended (idle time ${IDLE_SECONDS} s): %s\\n", s, (s <= ${IDLE_SECONDS + SHRINK_BOUND_SECONDS} ? "within idle + ${SHRINK_BOUND_SECONDS} s" : "LATE") }'`,
            `echo "last decision: $(cat ${AUTOSCALE_DIR}/${DECISION_FILE})"`,
            "echo \"jobs not completed: $(flux jobs -a -n -o '{result}' | grep -vc '^COMPLETED$')\"",
            // The agent repeats a decision in the lead's log at its next period (2 s): let it, before the run ends.
            'sleep 3',
          ].join('\n'),
          output: [new RegExp(`^1 broker up \\d+\\.\\d s after the last job ended \\(idle time ${IDLE_SECONDS} s\\): within idle \\+ ${SHRINK_BOUND_SECONDS} s$`, 'm'),
            /^last decision: \S+ shrink 4 -> 1: /m, /^jobs not completed: 0$/m],
          timeoutSeconds: IDLE_SECONDS + SHRINK_BOUND_SECONDS + 60,
          measured: /^1 broker up /,
        },
      ],
      // The lead's log says each resize. A worker the shrink stopped with a failure would have failed
      // the Job (its podFailurePolicy): the result would not be Interrupted.
      leadOutput: [/^autoscale-agent: autoscaler: \S+ grow 1 -> [34]: /m, /^autoscale-agent: autoscaler: \S+ shrink 4 -> 1: /m],
    },
  }];
}
