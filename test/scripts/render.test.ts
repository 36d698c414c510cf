import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as fc from 'fast-check';
import { LeadMode, ScriptModel } from '../../lib/scripts/model';
import { renderScripts } from '../../lib/scripts/render';
import { shellQuote, shellWords } from '../../lib/scripts/shell-quote';
import { renderTemplateText } from '../../lib/scripts/template';
import { brokerOptions, brokerToml, sampleModel } from './harness';
import { testIf } from '../support/requires';

describe('renderScripts', () => {
  test('returns exactly broker.toml, the init, entrypoint, the lead program wrapper and one start script per sidecar', () => {
    const model = sampleModel(undefined, {
      sidecars: [
        { name: 'nginx', command: 'nginx -g "daemon off;"', commands: {} },
        { name: 'flux-queue', commands: { servicePre: 'true' } },
      ],
    });
    expect(Object.keys(renderScripts(model))).toEqual(['broker.toml', 'flux-init.sh', 'entrypoint.sh', 'start-nginx.sh', 'start-flux-queue.sh', 'lead-program.sh']);
    // AND an interactive lead has no program to wrap; worker-rc.sh comes with verified plans only
    const interactive = renderScripts(sampleModel(undefined, { leadMode: LeadMode.INTERACTIVE, command: undefined }));
    expect(Object.keys(interactive)).not.toContain('lead-program.sh');
    expect(Object.keys(interactive)).not.toContain('worker-rc.sh');
    const withPlans = renderScripts(sampleModel(undefined, { workerRcPlans: [{ name: 'p', fingerprint: '1-2', after: { kvs: [] } }] }));
    expect(Object.keys(withPlans)).toContain('worker-rc.sh');
  });

  test('is deterministic', () => {
    const model = sampleModel(undefined, { handshake: { dir: '/mnt/handshake' }, leadMode: LeadMode.BATCH });
    expect(renderScripts(model)).toEqual(renderScripts(JSON.parse(JSON.stringify(model))));
  });

  test('script size does not depend on the cluster size', () => {
    // GIVEN the same cluster at 4 and at 16384 pods (numbers aside, nothing may differ)
    const at = (size: number) =>
      renderScripts(sampleModel(undefined, {
        maxSize: size,
        brokerOptions: [...brokerOptions('/mnt/flux'), `-Sbroker.quorum=${size}`],
        handshake: { dir: '/mnt/handshake' },
        sidecars: [{ name: 'side', commands: {} }],
      }));
    const small = at(4);
    const large = at(16384);
    const withoutNumbers = (text: string) => text.replace(/\d+/g, 'N');
    for (const key of Object.keys(small)) {
      expect(withoutNumbers(large[key])).toBe(withoutNumbers(small[key]));
      // 4 -> 16384 and 3 -> 16383: four more characters per number that holds a size
      expect(large[key].length - small[key].length).toBeLessThanOrEqual(4 * 8);
    }
  });

  test('the certificate is never printed or traced', () => {
    const model = sampleModel(undefined, { strict: true, sidecars: [{ name: 's', commands: {} }] });
    const scripts = renderScripts(model);
    for (const text of Object.values(scripts)) {
      expect(text).not.toMatch(/set -[a-zA-Z]*x|xtrace/);
      expect(text).not.toMatch(/\b(cat|ls|head|tail|less|more|echo)\b[^\n]*(certificate|curve)/);
    }
    // The init script never touches it; only the entrypoint copies it, with cp.
    expect(scripts['flux-init.sh']).not.toContain(model.certificatePath);
    const uses = scripts['entrypoint.sh'].split('\n').filter((l) => l.includes('"$certificate_source"'));
    expect(uses).toEqual([
      'if [ ! -r "$certificate_source" ]; then',
      'if ! (umask 077 && private_dir "${certificate_file%/*}" && replace_file 600 "$certificate_file" cp -- "$certificate_source"); then',
    ]);
  });

  test("broker.toml is its own key, copied once with > (never appended) from the mounted ConfigMap's key", () => {
    const model = sampleModel();
    const scripts = renderScripts(model);
    expect(scripts['broker.toml']).toBe(model.brokerToml);
    const init = scripts['flux-init.sh'];
    expect(init).not.toContain('>>');
    expect(init.split('\n').filter((l) => /broker\.toml/.test(l) && /[^&]>[^&]/.test(l))).toEqual([
      'cat -- "$broker_toml_source" > "$config_dir/broker.toml" || fail "cannot write $config_dir/broker.toml"',
    ]);
    expect(init).toContain(`broker_toml_source=${shellQuote('/flux_operator/broker.toml')}\n`);
  });

  test('every path follows mountPath: no /mnt/flux when the mount is elsewhere', () => {
    const mountPath = '/var/flux-view';
    const model = sampleModel(undefined, {
      mountPath,
      brokerToml: brokerToml(mountPath, 'flux-sample-[0-3]'),
      brokerOptions: brokerOptions(mountPath),
      viewDisabled: false,
      handshake: { dir: '/handshake' },
      sidecars: [{ name: 'side', commands: {} }],
    });
    for (const [key, text] of Object.entries(renderScripts(model))) {
      expect({ key, hasDefault: text.includes('/mnt/flux') }).toEqual({ key, hasDefault: false });
      // (the lead's program wrapper names no path at all)
      if (key !== 'lead-program.sh') expect(text).toContain(mountPath);
    }
  });

  test('rejects a model the scripts cannot honour, naming every field, value and rule at once', () => {
    const model: ScriptModel = {
      ...sampleModel(),
      leadHostname: 'flux-sample-1',
      mountPath: 'relative/path',
      workerMaxRestarts: -1,
      workerRestartDelaySeconds: 1.5,
      fluxEnvironment: [['BAD-NAME', 'x']],
      script: 'echo',
      sidecars: [{ name: 'Bad_Name', commands: {} }, { name: 'a', commands: {} }, { name: 'a', commands: {} }],
      handshake: { dir: '/hs' },
      brokerToml: 'hosts = [{ host = "flux-sample-[0-3]" }]\n',
    };
    expect(() => renderScripts(model)).toThrow(
      [
        'invalid ScriptModel:',
        `  - leadHostname = "flux-sample-1": must be 'flux-sample-0' (the hostname of index 0)`,
        '  - mountPath = "relative/path": must be an absolute path without a trailing slash',
        '  - script = "echo": cannot be set together with command',
        '  - workerMaxRestarts = -1: must be an integer >= 0 (0 = unbounded)',
        '  - workerRestartDelaySeconds = 1.5: must be an integer >= 0',
        '  - fluxEnvironment = "BAD-NAME": names must be shell variable names',
        '  - sidecars[].name = "Bad_Name": must be a DNS label',
        '  - sidecars[].name = "a": must be unique',
        `  - brokerToml = "0 lines 'hosts = [ { host = \\"flux-sample-[0-3]\\" } ]'": must contain that hosts line exactly once for the hosts handshake`,
      ].join('\n'),
    );
  });

  test.each([
    [{ leadMode: LeadMode.SUBMIT, command: undefined }, 'command = undefined: leadMode submit needs a command or a script'],
    [{ leadMode: LeadMode.INTERACTIVE }, 'leadMode = "interactive": interactive mode runs no command or script'],
    [{ handshake: { dir: '/hs' }, hostlist: 'flux-sample-[0-2],other-0' }, 'hostlist = "flux-sample-[0-2],other-0": must be flux-sample-[0-3] for the hosts handshake to split it'],
    [{ workerRcPlans: [{ name: 'p', fingerprint: '1-2', after: { 'kvs': ['Content;'] } }] }, 'workerRcPlans.after = "Content;": must be a Flux module name'],
    [{ workerRcPlans: [{ name: 'p', fingerprint: '1-2', after: { kvs: ['content'] } }] }, 'workerRcPlans.after = {"kvs":["content"]}: must name only modules of the plan, in an order without loops'],
    [{ workerRcPlans: [{ name: 'p', fingerprint: '1-2', after: { kvs: ['content'], content: ['kvs'] } }] }, 'workerRcPlans.after = {"kvs":["content"],"content":["kvs"]}: must name only modules of the plan, in an order without loops'],
  ] as [Partial<ScriptModel>, string][])('rejects %j', (overrides, message) => {
    expect(() => renderScripts(sampleModel(undefined, overrides))).toThrow(message);
  });

  const compiled = path.join(__dirname, '..', '..', 'build', 'lib', 'scripts', 'render.js');
  testIf({ met: fs.existsSync(compiled), why: `${compiled} is not built (npm test builds it)` }, 'the compiled renderer finds the templates from build/ too', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const built = require(compiled) as { renderScripts: typeof renderScripts };
    const model = sampleModel(undefined, { sidecars: [{ name: 's', commands: {} }] });
    expect(built.renderScripts(model)).toEqual(renderScripts(model));
  });
});

describe('shellQuote', () => {
  test('any text survives a round trip through bash', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }).map((s) => s.replace(/\0/g, '')), { minLength: 1, maxLength: 30 }), (texts) => {
        // GIVEN texts printed by bash from their quoted form, NUL-separated
        const out = spawnSync('bash', ['-c', `printf '%s\\0' ${shellWords(texts)}`], { encoding: 'utf8' });
        // THEN bash prints them back unchanged
        expect(out.stdout.split('\0').slice(0, -1)).toEqual(texts);
      }),
      { numRuns: 40 },
    );
  });

  test("quotes as single-quoted words, escaping single quotes as '\\''", () => {
    expect(shellQuote("it's $HOME")).toBe("'it'\\''s $HOME'");
    expect(shellQuote('')).toBe("''");
    expect(shellWords(['a b', 'c'])).toBe("'a b' 'c'");
  });
});

describe('template language', () => {
  const context = { values: { NAME: "o'k", LIST: ['a', 'b c'] }, flags: { ON: true, OFF: false }, lines: { CODE: ['x=@@NAME@@'] } };

  test('quotes values, keeps or drops blocks, inserts code lines as is', () => {
    const template = [
      'name=@@NAME@@',
      'list=( @@LIST@@ )',
      '#@@IF ON@@',
      'on',
      '#@@UNLESS ON@@',
      'never',
      '#@@END ON@@',
      '#@@END ON@@',
      '#@@IF OFF@@',
      'off',
      '#@@END OFF@@',
      '#@@LINES CODE@@',
    ].join('\n');
    expect(renderTemplateText('t', template, context)).toBe("name='o'\\''k'\nlist=( 'a' 'b c' )\non\nx=@@NAME@@");
  });

  test.each([
    ['#@@IF NOPE@@\n#@@END NOPE@@', 'template t: unknown flag NOPE'],
    ['#@@IF ON@@\n#@@END OFF@@', 'template t: #@@END OFF@@ closes ON'],
    ['#@@IF ON@@', 'template t: unclosed block ON'],
    ['@@MISSING@@', 'template t: no value for @@MISSING@@'],
    ['#@@IF ON @@', "template t: malformed directive in line '#@@IF ON @@'"],
    ['#@@LINES NONE@@', 'template t: no lines for NONE'],
  ])('rejects %j', (template, message) => {
    expect(() => renderTemplateText('t', template, context)).toThrow(message);
  });
});
