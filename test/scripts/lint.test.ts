import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { LeadMode, ScriptModel } from '../../lib/scripts/model';
import { renderScripts } from '../../lib/scripts/render';
import { templateDirectory } from '../../lib/scripts/template';
import { brokerOptions, Sandbox, sampleModel } from './harness';
import { expectCleanShellScripts, testWithShellcheck } from '../support/shell-check';

/** User text with every shell metacharacter the quoting must survive. */
const NASTY = `echo "it's" '$HOME' \`date\` $(id -u) \\$x "a\\"b"\n  printf '%s\\n' "tab\there" # comment`;

/** Variants that together cover every option of the scripts. */
function variants(mode: LeadMode): Record<string, Partial<ScriptModel>> {
  const command = mode === LeadMode.INTERACTIVE ? undefined : NASTY;
  return {
    everything: {
      command,
      quiet: true,
      strict: true,
      timed: true,
      viewDisabled: false,
      archivePath: '/data/archive.sqlite',
      handshake: { dir: '/mnt/handshake', resolveParent: true, parentWatchSeconds: 7 },
      autoscale: { dir: '/mnt/flux autoscale', periodSeconds: 3 },
      elastic: true,
      completeWorkers: true,
      workerRejoins: true,
      workerMaxRestarts: 3,
      workerRestartDelaySeconds: 15,
      wrap: 'strace,-e,network',
      commands: { init: NASTY, pre: NASTY, brokerPre: NASTY, workerPre: NASTY, post: NASTY, prefix: 'fusion "x y"' },
      fluxEnvironment: [['A', NASTY], ['B_2', "'"]],
      sidecars: [
        { name: 'nasty', command: NASTY, commands: { init: NASTY, servicePre: NASTY, post: NASTY } },
        { name: 'plain', commands: {} },
      ],
    },
    nothing: { command, viewDisabled: true, simpleScheduler: true },
    script: {
      command: undefined,
      script: mode === LeadMode.INTERACTIVE ? undefined : `#!/bin/bash\n${NASTY}\n`,
      strict: true,
      viewDisabled: false,
      viewImageVolume: true,
      viewCheckInRunner: true,
      viewImage: "registry.example/it's/view:1",
      pythonPath: "/opt/py'thon",
      batchRaw: true,
      workingDir: '/work dir',
      maxSize: 1,
      sidecars: [{ name: 'strict', command: 'true', commands: {} }],
    },
    huge: {
      command,
      maxSize: 16384,
      brokerOptions: [...brokerOptions('/mnt/flux'), '-Sbroker.quorum=16384'],
      handshake: {
        dir: '/mnt/handshake',
        exitFile: '/mnt/handshake/runner/exited',
        inRunner: { nodeRoot: "/mnt/node's image", image: "registry.example/it's/node:22", args: ['--lite-mode', '/p/handshake.js', `--x=${NASTY}`] },
      },
      timed: true,
    },
  };
}

describe('rendered scripts are clean shell', () => {
  testWithShellcheck('every lead mode and option: bash -n and shellcheck -S warning pass', () => {
    const scripts: Record<string, string> = {};
    for (const mode of Object.values(LeadMode)) {
      for (const [variant, overrides] of Object.entries(variants(mode))) {
        for (const [key, text] of Object.entries(renderScripts(sampleModel(undefined, { leadMode: mode, ...overrides })))) {
          // broker.toml is TOML, not shell.
          if (key.endsWith('.sh')) scripts[`${mode}/${variant}/${key}`] = text;
        }
      }
    }
    expect(Object.keys(scripts).length).toBeGreaterThanOrEqual(4 * 4 * 2);
    expectCleanShellScripts(scripts);
  });

  testWithShellcheck('the files the entrypoint writes at run time (flux-view.sh, flux-connect.sh) are clean too', () => {
    const sandbox = new Sandbox();
    try {
      const written: Record<string, string> = {};
      for (const [name, overrides] of Object.entries({
        view: { viewDisabled: false, fluxEnvironment: [['A', NASTY]] as [string, string][] },
        python: { viewDisabled: false, pythonPath: "/opt/py'thon" },
        imageVolume: { viewDisabled: false, viewImageVolume: true },
        disabled: { viewDisabled: true },
      })) {
        const scripts = renderScripts(sampleModel(sandbox, overrides));
        expect(sandbox.runInit(scripts, { env: { FLUX_OPT_DIR: sandbox.image } }).status).toBe(0);
        expect(sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], { hostname: 'flux-sample-1' }).status).toBe(0);
        for (const file of ['flux-view.sh', 'flux-connect.sh']) {
          written[`${name}/${file}`] = fs.readFileSync(path.join(sandbox.mount, file), 'utf8');
        }
      }
      expectCleanShellScripts(written);
    } finally {
      sandbox.remove();
    }
  });

  test('the templates themselves are valid bash (placeholders are plain words)', () => {
    const dir = templateDirectory();
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.sh'))) {
      const check = spawnSync('bash', ['-n', path.join(dir, file)], { encoding: 'utf8' });
      expect({ file, stderr: check.stderr }).toEqual({ file, stderr: '' });
    }
  });
});
