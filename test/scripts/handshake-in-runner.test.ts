/**
 * The hosts handshake run by the runner's entrypoint itself (handshake.inRunner), as real processes:
 * the entrypoint finds node and its dynamic loader in a directory laid out as the handshake image's
 * volume, starts it in the background, starts it again after a crash, and fails as the handshake
 * does. The "loader" here is a bash script standing in for the program: what it is run with is
 * what the entrypoint would run node with.
 */
import * as fs from 'fs';
import * as path from 'path';
import { HANDSHAKE_EXIT_CONFIG } from '../../lib/core/handshake-contract';
import { ScriptModel } from '../../lib/scripts/model';
import { renderScripts } from '../../lib/scripts/render';
import { Sandbox, sampleModel } from './harness';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = new Sandbox();
});
afterEach(() => {
  sandbox.remove();
});

const IMAGE = 'docker.io/library/node:22.11.0-alpine3.20';

/**
 * The stand-in program. HANDSHAKE_FAKE says what each run does, one word per run (the last repeats):
 * `ready` writes parent.env and ready, then waits for the runner's exit file and exits 0; `crash`
 * kills itself (SIGKILL, as an OOM kill); `fail` writes `failed` (code 82) and exits 82.
 */
const FAKE_PROGRAM = `#!/bin/bash
out=''; exit_file=''
for a in "$@"; do
  case $a in --out-dir=*) out=\${a#--out-dir=} ;; --runner-exit-file=*) exit_file=\${a#--runner-exit-file=} ;; esac
done
printf '%s\\n' "$*" >> "$HANDSHAKE_CALLS"
n=$(wc -l < "$HANDSHAKE_CALLS")
read -r -a plan <<< "$HANDSHAKE_FAKE"
step=\${plan[n - 1]:-\${plan[-1]}}
echo '{"event":"starting"}'
case $step in
  crash) kill -KILL $$ ;;
  fail)
    printf 'HANDSHAKE_EXIT_CODE=82\\nHANDSHAKE_MESSAGE=certificate mismatch with rank 0\\n' > "$out/failed"
    exit 82 ;;
  ready)
    mkdir -p "$(dirname "$exit_file")"
    printf 'FLUX_PARENT_RANK=0\\nFLUX_PARENT_HOST=flux-sample-0\\nFLUX_PARENT_IP=10.1.2.3\\nFLUX_PARENT_PORT=8050\\n' > "$out/parent.env"
    : > "$out/ready"
    echo '{"event":"ready"}'
    while [ ! -e "$exit_file" ]; do sleep 0.05; done
    echo '{"event":"runner-exited"}'
    exit 0 ;;
esac
`;

/** An image volume at `<sandbox>/<name>` with `files` (the fake program at each) and `links`. */
function image(name: string, files: string[], links: Record<string, string> = {}, dirs: string[] = []): string {
  const root = path.join(sandbox.root, name);
  for (const d of dirs) fs.mkdirSync(path.join(root, d), { recursive: true });
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), FAKE_PROGRAM, { mode: 0o755 });
  }
  for (const [link, target] of Object.entries(links)) {
    fs.mkdirSync(path.dirname(path.join(root, link)), { recursive: true });
    fs.symlinkSync(target, path.join(root, link));
  }
  return root;
}

/** Alpine's layout: the musl loader in lib, node in usr/local/bin. */
const musl = () => image('alpine', ['lib/ld-musl-x86_64.so.1', 'usr/local/bin/node'], {}, ['usr/lib']);

function model(nodeRoot: string, overrides: Partial<ScriptModel> = {}): ScriptModel {
  const exitFile = `${sandbox.handshake}/runner/exited`;
  return sampleModel(sandbox, {
    handshake: {
      dir: sandbox.handshake,
      exitFile,
      inRunner: { nodeRoot, image: IMAGE, args: ['--lite-mode', '/prog/handshake.js', `--out-dir=${sandbox.handshake}`, `--runner-exit-file=${exitFile}`] },
    },
    ...overrides,
  });
}

function runWorker(m: ScriptModel, plan: string) {
  const scripts = renderScripts(m);
  expect(sandbox.runInit(scripts).status).toBe(0);
  const calls = path.join(sandbox.root, 'handshake-calls');
  fs.writeFileSync(calls, '');
  const r = sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], {
    hostname: 'flux-sample-1',
    env: { HANDSHAKE_WAIT_SECONDS: '20', HANDSHAKE_FAKE: plan, HANDSHAKE_CALLS: calls },
  });
  return { ...r, handshakeCalls: fs.readFileSync(calls, 'utf8').split('\n').filter((l) => l !== '') };
}

describe('entrypoint.sh running the hosts handshake itself (handshake.inRunner)', () => {
  test('GIVEN an Alpine image WHEN a worker starts THEN it runs node through the musl loader with the image\'s libraries, and the broker connects to the parent it found', () => {
    const root = musl();
    const r = runWorker(model(root), 'ready');
    expect(r.status).toBe(0);
    // THEN the program ran once, with node's arguments after the loader's
    expect(r.handshakeCalls).toEqual([
      `--library-path ${root}/lib:${root}/usr/lib ${root}/usr/local/bin/node --lite-mode /prog/handshake.js --out-dir=${sandbox.handshake} --runner-exit-file=${sandbox.handshake}/runner/exited`,
    ]);
    expect(r.stdout).toContain(`entrypoint: hosts handshake: node of ${IMAGE} (/usr/local/bin/node)`);
    // AND the worker's broker got the parent's address from the handshake
    const [start] = sandbox.brokerCalls();
    expect(start.brokerToml).toContain('connect = "tcp://10.1.2.3:8050"');
    // AND the handshake ended with the runner: its exit file exists
    expect(fs.existsSync(`${sandbox.handshake}/runner/exited`)).toBe(true);
  });

  test('GIVEN a glibc image whose lib64 loader is an absolute link WHEN a worker starts THEN it runs the image\'s own loader, never this container\'s', () => {
    // GIVEN Debian's layout: lib -> usr/lib, the loader in usr/lib/x86_64-linux-gnu, and
    // usr/lib64/ld-linux-x86-64.so.2 an absolute link, which in the runner points at its own libc
    const root = image('debian', ['usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2', 'usr/bin/node'], {
      'lib': 'usr/lib',
      'usr/lib64/ld-linux-x86-64.so.2': '/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2',
    });
    const r = runWorker(model(root), 'ready');
    expect(r.status).toBe(0);
    const [call] = r.handshakeCalls;
    // THEN the loader found inside the image runs node, with each library directory once
    expect(call).toBe(`--library-path ${root}/usr/lib:${root}/usr/lib64:${root}/usr/lib/x86_64-linux-gnu ${root}/usr/bin/node --lite-mode /prog/handshake.js `
      + `--out-dir=${sandbox.handshake} --runner-exit-file=${sandbox.handshake}/runner/exited`);
  });

  test('GIVEN images with and without links on the way WHEN a worker finds node THEN readlink runs only for the paths that pass a link', () => {
    // GIVEN a readlink that records each call, then does the real one
    const real = ['/usr/bin/readlink', '/bin/readlink'].find((p) => fs.existsSync(p))!;
    const log = path.join(sandbox.root, 'readlink-calls');
    fs.writeFileSync(path.join(sandbox.bin, 'readlink'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec ${real} "$@"\n`, { mode: 0o755 });
    const imageCalls = (root: string) => fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.includes(root));
    // WHEN a worker starts on Alpine's layout (no links)
    fs.writeFileSync(log, '');
    const alpine = musl();
    expect(runWorker(model(alpine), 'ready').status).toBe(0);
    // THEN no readlink process resolved a path of the image: each is itself
    expect(imageCalls(alpine)).toEqual([]);
    // WHEN a worker starts on Debian's (lib -> usr/lib, an absolute loader link in usr/lib64)
    fs.writeFileSync(log, '');
    const debian = image('debian-links', ['usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2', 'usr/bin/node'], {
      'lib': 'usr/lib',
      'usr/lib64/ld-linux-x86-64.so.2': '/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2',
    });
    const r = runWorker(model(debian), 'ready');
    expect(r.status).toBe(0);
    // THEN readlink resolved just the paths through a link, and the same loader and node were found
    // (the loader in usr/lib/x86_64-linux-gnu is found first, so the usr/lib64 link is never looked at)
    expect(imageCalls(debian).sort()).toEqual([`-f -- ${debian}/lib`, `-f -- ${debian}/lib/x86_64-linux-gnu`]);
    expect(r.handshakeCalls[0]).toBe(`--library-path ${debian}/usr/lib:${debian}/usr/lib64:${debian}/usr/lib/x86_64-linux-gnu ${debian}/usr/bin/node --lite-mode /prog/handshake.js `
      + `--out-dir=${sandbox.handshake} --runner-exit-file=${sandbox.handshake}/runner/exited`);
  });

  test('GIVEN an image without node WHEN a worker starts THEN it exits with the handshake\'s configuration code, naming the image and the way out, and starts no broker', () => {
    const root = image('busybox', ['lib/ld-musl-x86_64.so.1']);
    const r = runWorker(model(root), 'ready');
    expect(r.status).toBe(HANDSHAKE_EXIT_CONFIG);
    expect(r.stderr).toContain(`entrypoint: error: the hosts handshake failed (exit code ${HANDSHAKE_EXIT_CONFIG}): the handshake image volume at ${root} (${IMAGE}) has no node`);
    expect(r.stderr).toContain('an API server before 1.35 drops image volumes');
    expect(r.stderr).toContain('Or set handshake.inRunner to false');
    expect(r.handshakeCalls).toEqual([]);
    expect(sandbox.brokerCalls()).toEqual([]);
  });

  test('GIVEN a handshake that crashes once WHEN a worker starts THEN the entrypoint starts it again, says so, and the broker starts', () => {
    const r = runWorker(model(musl()), 'crash ready');
    expect(r.status).toBe(0);
    expect(r.handshakeCalls).toHaveLength(2);
    expect(r.stderr).toMatch(/entrypoint: warning: the hosts handshake ended with exit code 137: starting it again in 1s \(restart 1\)/);
    expect(sandbox.brokerCalls()).toHaveLength(1);
  });

  test('GIVEN a handshake that fails WHEN a worker starts THEN the runner exits with its code and message, and it is not started again', () => {
    const r = runWorker(model(musl()), 'fail');
    expect(r.status).toBe(82);
    expect(r.stderr).toContain('entrypoint: error: the hosts handshake failed (exit code 82): certificate mismatch with rank 0');
    expect(r.handshakeCalls).toHaveLength(1);
    expect(sandbox.brokerCalls()).toEqual([]);
  });

  test.each([
    [false, 'stderr'],
    [true, 'a file in the handshake\'s directory'],
  ])('GIVEN quiet %s WHEN a worker runs THEN the handshake\'s log goes to %s, never to stdout', (quiet) => {
    const r = runWorker(model(musl(), { quiet }), 'ready');
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('"event"');
    const log = `${sandbox.handshake}/handshake.log`;
    if (quiet) {
      expect(r.stderr).not.toContain('"event"');
      expect(fs.readFileSync(log, 'utf8')).toBe('{"event":"starting"}\n{"event":"ready"}\n{"event":"runner-exited"}\n');
    } else {
      expect(r.stderr).toContain('{"event":"ready"}');
      expect(fs.existsSync(log)).toBe(false);
    }
  });
});
