/**
 * The hosts-handshake program: `node handshake.js --name=… --size=… …` (see
 * lib/core/handshake-contract.ts and docs/handshake.md). Exits 0 after success in init-container
 * mode; keeps serving peers in sidecar mode until SIGTERM; any failure exits with its own code.
 */
import {
  DEFAULT_TERMINATION_LOG, HANDSHAKE_EXIT_CONFIG, HANDSHAKE_EXIT_INTERNAL, HANDSHAKE_OPT_TERMINATION_LOG, HandshakeLifecycle,
} from '../../core/handshake-contract';
import { parseConfig } from './config';
import { HandshakeFailure } from './failure';
import { Handshake } from './handshake';
import { Logger } from './log';
import { writeTerminationMessage } from './outputs';
import { watchRunnerExit } from './runner-exit';

function main(): void {
  const sink = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const { config, errors } = parseConfig(process.argv.slice(2), process.env);
  if (!config) {
    new Logger(sink).error('invalid-configuration', { errors });
    // The configuration is invalid, so find the termination log the way parseConfig would.
    const flag = process.argv.find((a) => a.startsWith(`${HANDSHAKE_OPT_TERMINATION_LOG.flag}=`))?.split('=')[1];
    const terminationLog = flag ?? process.env[HANDSHAKE_OPT_TERMINATION_LOG.env] ?? DEFAULT_TERMINATION_LOG;
    writeTerminationMessage(terminationLog, `exit ${HANDSHAKE_EXIT_CONFIG}: invalid configuration: ${errors.join('; ')}`);
    process.exitCode = HANDSHAKE_EXIT_CONFIG;
    return;
  }
  const log = new Logger(sink, { rank: config.index });
  const handshake = new Handshake(config, log);
  const stop = (signal: string): void => {
    log.info('stopping', { signal });
    handshake.stop();
    process.exit(handshake.isReady ? 0 : 143);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  if (config.lifecycle === HandshakeLifecycle.SIDECAR && config.runnerExitFile !== undefined) {
    // The runner is gone (its pod is ending, or this sidecar was restarted after it ended): so is
    // what the handshake serves. Exit 0, as on SIGTERM after success: the kubelet ignores a
    // sidecar's exit code once the main containers have ended.
    watchRunnerExit(config.runnerExitFile, () => {
      log.info('runner-exited', { file: config.runnerExitFile });
      handshake.stop();
      process.exit(0);
    });
  }
  handshake.start().then(() => {
    if (config.lifecycle === HandshakeLifecycle.INIT) {
      // Let the last acknowledgements reach the peers before closing.
      setTimeout(() => {
        handshake.stop();
        process.exit(0);
      }, 200);
    }
  }, (e: unknown) => {
    process.exit(e instanceof HandshakeFailure ? e.exitCode : HANDSHAKE_EXIT_INTERNAL);
  });
}

main();
