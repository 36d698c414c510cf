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
