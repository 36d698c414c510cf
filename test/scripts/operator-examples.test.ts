/**
 * The Flux Operator's end-to-end examples (../shared/data/flux-operator, not part of the project),
 * rendered and run with the fake flux in one-node mode: in quiet mode the lead's output must be
 * exactly the operator's expected log. Skipped, visibly, when the data folder is absent.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { LeadMode } from '../../lib/scripts/model';
import { renderScripts } from '../../lib/scripts/render';
import { Sandbox, sampleModel } from './harness';
import { OPERATOR_DATA, describeWithOperatorData } from '../operator/support/operator-data';
import { expectCleanShellScripts, testWithShellcheck } from '../support/shell-check';

const dataDir = OPERATOR_DATA && path.join(OPERATOR_DATA, 'tests');

interface OperatorContainer {
  name?: string;
  command?: string;
  runFlux?: boolean;
  batch?: boolean;
  launcher?: boolean;
  noWrapEntrypoint?: boolean;
  commands?: Record<string, string>;
}

/** The script model of an operator example, mapped the way the operator's wait.sh used its fields. */
function modelOf(sandbox: Sandbox | undefined, example: string) {
  const spec = parse(fs.readFileSync(path.join(dataDir!, example, 'minicluster.yaml'), 'utf8')).spec;
  const containers = spec.containers as OperatorContainer[];
  const runner = containers.find((c) => c.runFlux) ?? containers[0];
  const size = spec.size ?? 1;
  const tasks = spec.tasks ?? 1;
  const nodeSpec = tasks >= size ? `-N ${size} -n${tasks}` : `-n${tasks}`;
  return sampleModel(sandbox, {
    maxSize: size,
    quiet: spec.logging?.quiet ?? false,
    strict: spec.logging?.strict ?? false,
    timed: spec.logging?.timed ?? false,
    leadMode: runner.command === undefined ? LeadMode.INTERACTIVE : runner.batch ? LeadMode.BATCH : runner.launcher ? LeadMode.LAUNCHER : LeadMode.SUBMIT,
    command: runner.command,
    commands: { ...runner.commands },
    submitFlags: nodeSpec,
    workingDir: sandbox?.work,
    sidecars: containers
      .filter((c) => c !== runner && !c.noWrapEntrypoint)
      .map((c) => ({ name: c.name!, command: c.command, commands: { ...c.commands } })),
  });
}

describeWithOperatorData('operator examples', () => {
  testWithShellcheck('every example renders to clean shell', () => {
    const scripts: Record<string, string> = {};
    for (const example of fs.readdirSync(dataDir!).filter((d) => fs.existsSync(path.join(dataDir!, d, 'minicluster.yaml')))) {
      for (const [key, text] of Object.entries(renderScripts(modelOf(undefined, example)))) {
        if (key.endsWith('.sh')) scripts[`${example}/${key}`] = text;
      }
    }
    expect(Object.keys(scripts).length).toBeGreaterThan(30);
    expectCleanShellScripts(scripts);
  });

  test.each(['hello-world', 'post'])('%s: the quiet lead prints exactly test.out.correct', (example) => {
    const sandbox = new Sandbox();
    try {
      const scripts = renderScripts(modelOf(sandbox, example));
      expect(sandbox.runInit(scripts).status).toBe(0);
      const result = sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], { env: { FAKE_FLUX_RUN: '1' } });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      // The operator's logs come through a TTY (CRLF line ends).
      const expected = fs.readFileSync(path.join(dataDir!, example, 'test.out.correct'), 'utf8').replace(/\r/g, '');
      expect(result.stdout).toBe(expected);
    } finally {
      sandbox.remove();
    }
  });
});
