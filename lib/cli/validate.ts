/**
 * `cdk8s-minicluster validate`: checks Flux Operator MiniCluster resources exactly as `synth` does
 * (conversion and synthesis, in memory) and reports every problem; it never writes anything.
 */
import { Command } from 'commander';
import { InputOptions, inputOptionProblems, loadInputs, reportAndFail, withInputOptions } from '../operator/command-input';

const EXAMPLES = `
Prints one line per valid MiniCluster on stdout, warnings (fields with no effect here, or that behave
differently than in the operator) on stderr, and exits with 1 if any input has a problem, listing
every problem with its file, document, line:column and field.

Examples:
  $ cdk8s-minicluster validate -f minicluster.yaml
  $ cdk8s-minicluster validate -f a.yaml -f b.yaml --kubernetes-version 1.29
  # a MiniCluster running under the operator (status and server-set metadata are ignored)
  $ kubectl get minicluster flux-sample -o yaml | cdk8s-minicluster validate -f -
`;

export function validateCommand(): Command {
  return withInputOptions(new Command('validate'))
    .description('check Flux Operator MiniCluster resources (flux-framework.org/v1alpha2) without writing anything')
    .addHelpText('after', EXAMPLES)
    .action(function (this: Command, options: InputOptions) {
      const problems = inputOptionProblems(options);
      if (problems.length > 0) this.error(`error: invalid options:\n${problems.map((p) => `  - ${p}`).join('\n')}`, { exitCode: 1 });
      const result = loadInputs(options);
      reportAndFail(this, 'the input is invalid', result.problems, result.warnings);
      for (const c of result.clusters) {
        process.stdout.write(`${c.source.location()}: MiniCluster ${c.namespace}/${c.name}: valid (${c.manifests.length} objects)\n`);
      }
    });
}
