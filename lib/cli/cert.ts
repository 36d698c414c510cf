/**
 * `cdk8s-minicluster cert`: a fresh CURVE certificate on stdout or in a 0600 file, as certificate
 * text or as a Secret manifest. Printing it is the point: the user asked for a private key.
 */
import { Command } from 'commander';
import * as fs from 'fs';
import { stringify } from 'yaml';
import { createCurveCert, curveCertLabels, curveCertMetadataProblems, curveCertSecret } from '../cert';
import { DNS1123_LABEL, DNS1123_SUBDOMAIN } from '../core/k8s-formats';

interface CertOptions {
  readonly name?: string;
  readonly secret?: string;
  readonly namespace?: string;
  readonly cluster?: string;
  readonly output?: string;
  readonly force?: boolean;
}

const DEFAULT_CERT_NAME = 'flux';

const EXAMPLES = `
Examples:
  # certificate text, for flux.curveCert or a file you manage yourself
  $ cdk8s-minicluster cert --cluster demo -o curve.cert

  # a Secret for the MiniCluster "demo" in namespace "hpc", created once (create never replaces)
  $ cdk8s-minicluster cert --secret demo-curve --namespace hpc --cluster demo | kubectl create -f -

  # the same manifest in a file (mode 0600), e.g. to encrypt with SOPS before committing
  $ cdk8s-minicluster cert --secret demo-curve --namespace hpc --cluster demo -o demo-curve.yaml
`;

export function certCommand(): Command {
  return new Command('cert')
    .description('print a new Flux CURVE certificate (it contains a private key), or a Secret manifest holding one')
    .option('--name <name>', `value of the certificate's "name" metadata entry (default: the --cluster value, else "${DEFAULT_CERT_NAME}")`)
    .option('--secret <name>', 'print a Kubernetes Secret manifest (YAML) with the certificate under key curve.cert')
    .option('--namespace <namespace>', 'metadata.namespace of the Secret (needs --secret)')
    .option('--cluster <name>', 'MiniCluster name: names the certificate and labels the Secret')
    .option('-o, --output <file>', 'write to <file>, created with mode 0600, instead of stdout')
    .option('--force', 'overwrite <file> if it exists (a new certificate replaces the old one)')
    .addHelpText('after', EXAMPLES)
    .action(function (this: Command, options: CertOptions) {
      const problems = optionProblems(options);
      if (problems.length > 0) this.error(`error: invalid options:\n${problems.map((p) => `  - ${p}`).join('\n')}`, { exitCode: 1 });
      const text = render(options);
      if (options.output === undefined) process.stdout.write(text);
      else writePrivateFile(this, options.output, text, options.force === true);
    });
}

function optionProblems(options: CertOptions): string[] {
  const problems: string[] = [];
  if (options.secret === undefined && options.namespace !== undefined) problems.push('--namespace needs --secret');
  if (options.secret !== undefined && !(DNS1123_SUBDOMAIN.test(options.secret) && options.secret.length <= 253)) {
    problems.push(`--secret '${options.secret}' must be a DNS-1123 subdomain (lower-case letters, digits, '-' and '.')`);
  }
  for (const [flag, value] of [['--namespace', options.namespace], ['--cluster', options.cluster]]) {
    if (value !== undefined && !(DNS1123_LABEL.test(value) && value.length <= 63)) {
      problems.push(`${flag} '${value}' must be a DNS-1123 label (lower-case letters, digits and '-', at most 63)`);
    }
  }
  if (options.force && options.output === undefined) problems.push('--force needs -o/--output');
  problems.push(...curveCertMetadataProblems({ name: certName(options) }).map((p) => `--${p}`));
  return problems;
}

function render(options: CertOptions): string {
  const certificate = createCurveCert({ name: certName(options) });
  if (options.secret === undefined) return certificate;
  const labels = options.cluster === undefined ? undefined : curveCertLabels(options.cluster);
  return stringify(curveCertSecret({ secretName: options.secret, namespace: options.namespace, labels, certificate }));
}

function certName(options: CertOptions): string {
  return options.name ?? options.cluster ?? DEFAULT_CERT_NAME;
}

function writePrivateFile(command: Command, file: string, text: string, force: boolean): void {
  let fd: number;
  try {
    // 'wx' never replaces an existing certificate by accident; the mode applies on creation.
    fd = fs.openSync(file, force ? 'w' : 'wx', 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'EEXIST' ? 'it exists (use --force to replace it with a new certificate)' : (e as Error).message;
    command.error(`error: cannot write ${file}: ${why}`, { exitCode: 1 });
  }
  try {
    fs.fchmodSync(fd, 0o600); // an existing file (--force) keeps its old mode otherwise
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
}
