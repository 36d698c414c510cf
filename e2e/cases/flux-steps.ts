/** Commands a user runs in a running cluster's lead pod (`kubectl exec`), as the docs give them. */
import { shellQuote } from '../../lib/scripts/shell-quote';
import { ExecStep } from '../case';

/**
 * The interactive example's own instructions, as `kubectl exec` into index 0 would run them.
 * `flux proxy` joins its arguments into one `$SHELL -c` string, so the command goes as one word.
 */
export function inLeadInstance(command: string): string {
  return `. /mnt/flux/flux-view.sh && flux proxy "$fluxsocket" ${shellQuote(command)}`;
}

/** docs/production.md: wait until `n` nodes are up (Fluxion refuses larger jobs at once), then run on all. */
export function waitForNodes(n: number, host: string): ExecStep {
  return {
    what: `wait until ${n} nodes are up, then flux run -N${n} hostname`,
    script: inLeadInstance(`until [ "$(flux resource list --states=up -no {nnodes})" -ge ${n} ]; do sleep 1; done; flux run -N${n} hostname | sort`),
    output: [new RegExp(Array.from({ length: n }, (_, i) => `^${host}-${i}$`).join('\\n'), 'm')],
    timeoutSeconds: 180,
  };
}

/**
 * An elastic cluster's job for `n` nodes, submitted while fewer are up: it waits in the queue (the
 * elastic default, queue policy easy) and runs once they joined; with fcfs Fluxion would refuse it.
 */
export function jobForNodesNotUpYet(n: number, host: string): ExecStep {
  return {
    what: `flux submit -N${n} hostname while fewer nodes are up, then its output`,
    // (first the lead's own node: the broker answers a moment before Flux lists its node as up)
    script: inLeadInstance('until [ "$(flux resource list --states=up -no {nnodes})" -ge 1 ]; do sleep 0.2; done; '
      + `up=$(flux resource list --states=up -no {nnodes}); id=$(flux submit -N${n} hostname); echo "up at submit: $up"; flux job attach $id | sort`),
    output: [new RegExp(`^up at submit: [1-${n - 1}]$`, 'm'), new RegExp(Array.from({ length: n }, (_, i) => `^${host}-${i}$`).join('\\n'), 'm')],
    timeoutSeconds: 180,
  };
}
