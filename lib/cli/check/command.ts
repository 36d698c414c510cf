/**
 * `check -f FILE...`: holds synthesized YAML against the cluster it would be applied to, before it
 * is applied, and names every reason it would not run, each with its fix. Reads only (GET, LIST).
 */
import { queuesOf } from './rules/kueue';
import { Command } from 'commander';
import { Day2Error } from '../day2/errors';
import { connect, KubeOptions } from '../day2/kube';
import { connectionOptions, outputOption, withConnectionOptions } from '../day2/options';
import { readFacts } from './facts';
import { CHECK_EXIT } from './findings';
import { readManifest } from './manifest';
import { checkReport, reportText } from './report';
import { RULES } from './rules';
import { externalUses, namespacesOf } from './rules/references';

const HELP = `
Reads only (GET and LIST: /version, nodes, the output's namespaces, each Secret, ConfigMap,
PersistentVolumeClaim and ServiceAccount it uses by name, and Service kube-dns in kube-system).
What a read is forbidden is reported as "cannot tell". Checks:
${RULES.map((r) => `  ${r.id}: ${r.checks}`).join('\n')}

Exits ${CHECK_EXIT.RUNS} when it would run, ${CHECK_EXIT.WOULD_NOT_RUN} when not, ${CHECK_EXIT.USAGE} on bad options or files or when the API server cannot be used.

Examples:
  $ kubectl minicluster check -f dist/hello-world.k8s.yaml
  $ cdk8s-minicluster check -f dist/ -o json
`;

interface CheckOptions extends KubeOptions {
  readonly filename: string[];
  readonly output: 'text' | 'json';
}

export function checkCommand(program: string): Command {
  return withConnectionOptions(new Command('check'))
    .description('before apply: name every reason synthesized YAML would not run on the cluster, each with its fix')
    .requiredOption('-f, --filename <file...>', "the synthesized YAML (files, directories of .yaml files, or '-' for stdin)")
    .addOption(outputOption())
    .addHelpText('after', HELP)
    // Its own exit codes: a usage error is 2 here, as 1 means "would not run".
    .exitOverride((e) => process.exit(e.exitCode === 0 ? 0 : CHECK_EXIT.USAGE))
    .action(async (options: CheckOptions) => {
      let code: number;
      try {
        const kube = connect(connectionOptions(options));
        const manifest = readManifest(options.filename, kube.namespace);
        const facts = await readFacts(kube, namespacesOf(manifest), externalUses(manifest), queuesOf(manifest.brokerJobs));
        const report = checkReport(manifest, facts);
        process.stdout.write(options.output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : reportText(report));
        code = report.result === 'Runs' ? CHECK_EXIT.RUNS : CHECK_EXIT.WOULD_NOT_RUN;
      } catch (e) {
        const err = e as Error;
        process.stderr.write(`${program}: error: ${err instanceof Day2Error ? err.message : err.stack ?? err.message}\n`);
        code = CHECK_EXIT.USAGE;
      }
      await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
      process.exit(code);
    });
}
