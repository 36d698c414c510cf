/**
 * `cdk8s-minicluster synth`: Flux Operator MiniCluster resources in, static Kubernetes manifests out,
 * with no operator in the cluster. Everything is converted and synthesized in memory first: if any
 * input is invalid, nothing is written.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Command } from 'commander';
import { InputOptions, inputOptionProblems, loadInputs, reportAndFail, withInputOptions } from '../operator/command-input';
import { outputFiles, toYamlStream } from '../operator/synth-resources';

interface SynthOptions extends InputOptions {
  readonly output: string;
  readonly stdout?: boolean;
  readonly split?: boolean;
  readonly kustomize?: boolean;
}

const DEFAULT_OUTPUT = 'dist';

const EXAMPLES = `
Each MiniCluster becomes an Indexed Job, a headless Service and the entrypoint ConfigMap (plus the
certificate objects and the runtime programs' ConfigMaps, in each cluster's file). Fields the
operator ignores or that cannot work without it are errors that say why; run
"cdk8s-minicluster validate" to see every problem without writing anything.

Examples:
  # one file per cluster in dist/ (dist/flux-sample.yaml)
  $ cdk8s-minicluster synth -f minicluster.yaml

  # several inputs, one file per object and a kustomization.yaml, for Kubernetes 1.29
  $ cdk8s-minicluster synth -f lammps.yaml -f hello.yaml -o manifests --split --kustomize --kubernetes-version 1.29

  # from stdin to stdout, straight into the cluster
  $ cat minicluster.yaml | cdk8s-minicluster synth -f - --stdout | kubectl apply -f -
`;

export function synthCommand(): Command {
  return withInputOptions(new Command('synth'))
    .description('convert Flux Operator MiniCluster resources (flux-framework.org/v1alpha2) into static Kubernetes manifests')
    .option('-o, --output <dir>', 'directory to write the manifests to', DEFAULT_OUTPUT)
    .option('--stdout', 'print all manifests to stdout as one YAML stream instead of writing files')
    .option('--split', 'one file per Kubernetes object (<cluster>/<kind>-<name>.yaml) instead of one per cluster')
    .option('--kustomize', 'also write kustomization.yaml listing every file')
    .option('--ttl-seconds-after-finished <seconds>', "delete each finished Job and its pods after this many seconds (replaces the operator's spec.cleanup)")
    .addHelpText('after', EXAMPLES)
    .action(function (this: Command, options: SynthOptions) {
      const problems = inputOptionProblems(options);
      if (options.stdout) {
        if (this.getOptionValueSource('output') === 'cli') problems.push('--stdout and -o/--output exclude each other');
        if (options.split) problems.push('--split needs files: it cannot be used with --stdout');
        if (options.kustomize) problems.push('--kustomize needs files: it cannot be used with --stdout');
      }
      if (problems.length > 0) this.error(`error: invalid options:\n${problems.map((p) => `  - ${p}`).join('\n')}`, { exitCode: 1 });

      const result = loadInputs(options);
      reportAndFail(this, 'nothing was written', result.problems, result.warnings);
      if (options.stdout) {
        process.stdout.write(toYamlStream(result.clusters));
        return;
      }
      const files = outputFiles(result.clusters, { split: options.split, kustomize: options.kustomize });
      try {
        for (const file of files) {
          const target = path.join(options.output, file.path);
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, file.content);
          process.stdout.write(`${target}\n`);
        }
      } catch (e) {
        this.error(`error: cannot write to ${options.output}: ${(e as Error).message}`, { exitCode: 1 });
      }
    });
}
