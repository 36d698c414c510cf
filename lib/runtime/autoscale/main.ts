/**
 * The autoscaler (`autoscale` prop): a native sidecar of every pod of an autoscaled MiniCluster,
 * acting on index 0 only (docs/production.md "Autoscaling"). Every periodSeconds it reads the
 * Flux agent's snapshot, decides, and patches its own Job; API failures are logged and retried at
 * the next step. Other indexes run nothing (the container's command never starts node there).
 */
import { Autoscaler } from './autoscaler';
import { ConfigError, readConfig } from './config';
import { jobApi } from './job-api';

function main(): void {
  const say = (line: string) => process.stdout.write(`autoscaler: ${line}\n`);
  let config;
  try {
    config = readConfig(process.env);
  } catch (e) {
    process.stderr.write(`autoscaler: error: ${e instanceof ConfigError ? '' : 'unexpected: '}${(e as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  process.once('SIGTERM', () => process.exit(0));
  process.once('SIGINT', () => process.exit(0));
  if (config.index !== 0) {
    // Started on another index anyway: stay idle, as a sidecar must not end.
    say(`index ${config.index}: only index 0 decides; idle`);
    setInterval(() => undefined, 1 << 30);
    return;
  }
  say(`job ${config.namespace}/${config.jobName}: sizes ${config.minSize}..${config.maxSize}, idle ${config.idleSeconds} s, every ${config.periodSeconds} s`);
  const autoscaler = new Autoscaler(config, jobApi(config), say);
  let lastError = '';
  const loop = async (): Promise<void> => {
    try {
      await autoscaler.step();
      lastError = '';
    } catch (e) {
      const message = (e as Error).message;
      if (message !== lastError) say(`error (retrying every ${config.periodSeconds} s): ${message}`);
      lastError = message;
    }
    setTimeout(() => void loop(), config.periodSeconds * 1000);
  };
  void loop();
}

main();
