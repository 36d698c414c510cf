import * as fs from 'fs';
import * as path from 'path';
import { renderScripts } from '../../lib/scripts/render';
import { Sandbox, sampleModel } from './harness';
import { ROOT, testIf } from '../support/requires';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = new Sandbox();
});
afterEach(() => {
  sandbox.remove();
});

describe('flux-init.sh', () => {
  const runInit = (scripts: Record<string, string>) => sandbox.runInit(scripts, { env: { FLUX_OPT_DIR: sandbox.image } });

  test("copies the ConfigMap's broker.toml key byte for byte and writes the hostlist, once, even when run twice", () => {
    // GIVEN a broker.toml with $, backticks and quotes (see harness brokerToml), in the mounted ConfigMap
    const model = sampleModel(sandbox);
    const scripts = renderScripts(model);
    // WHEN the init container runs, then restarts in the same pod
    expect(runInit(scripts).status).toBe(0);
    const second = runInit(scripts);
    expect(second.status).toBe(0);
    // THEN broker.toml is the ConfigMap's key exactly (read through the kubelet's symlinks), and the
    // files hold one copy of their content
    const config = `${sandbox.mount}/config`;
    const copied = fs.readFileSync(`${config}/etc/flux/config/broker.toml`, 'utf8');
    expect(copied).toBe(scripts['broker.toml']);
    expect(copied).toBe(fs.readFileSync(path.join(sandbox.scripts, 'broker.toml'), 'utf8'));
    expect(copied).toBe(model.brokerToml);
    expect(fs.readFileSync(`${config}/etc/flux/system/hostlist`, 'utf8')).toBe('flux-sample-[0-3]\n');
    // AND the runner, possibly another user, can create its files next to them
    expect(fs.statSync(config).mode & 0o7777).toBe(0o1777);
    expect(fs.statSync(`${config}/etc/flux/system`).mode & 0o7777).toBe(0o1777);
    expect(fs.statSync(`${config}/etc/flux/config/broker.toml`).mode & 0o777).toBe(0o644);
    expect(second.stdout).toBe(
      `flux-init: wrote ${config}/etc/flux/config/broker.toml and ${config}/etc/flux/system/hostlist (flux-sample-[0-3])\n` +
        'flux-init: the application image brings Flux: the view is not copied\nflux-init: done\n',
    );
  });

  test('the text of broker.toml is in the ConfigMap once: the init script holds its path, not its text', () => {
    const model = sampleModel(sandbox);
    const scripts = renderScripts(model);
    expect(Object.values(scripts).filter((text) => text.includes(model.brokerToml))).toEqual([model.brokerToml]);
    expect(scripts['flux-init.sh']).not.toContain('allow-guest-user');
  });

  test('fails clearly, writing nothing, when the broker.toml key is not mounted', () => {
    // GIVEN a ConfigMap mounted without its broker.toml key
    const scripts = renderScripts(sampleModel(sandbox));
    sandbox.mountConfigMap({ 'flux-init.sh': scripts['flux-init.sh'] });
    // WHEN the init container runs
    const result = sandbox.run('flux-init.sh', scripts['flux-init.sh']);
    // THEN it names the file and the key
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`flux-init: error: cannot read ${sandbox.scripts}/broker.toml (the broker.toml key of the entrypoint ConfigMap)\n`);
    expect(fs.existsSync(`${sandbox.mount}/config/etc/flux/config/broker.toml`)).toBe(false);
  });

  test('with the view as an image volume it copies nothing and links <mountPath>/view to /opt/views/view, also when run twice', () => {
    // GIVEN the view image's /opt (FLUX_OPT_DIR), which this mode must not read
    const scripts = renderScripts(sampleModel(sandbox, { viewDisabled: false, viewImageVolume: true }));
    // WHEN the init container runs, then restarts in the same pod
    expect(runInit(scripts).status).toBe(0);
    const second = runInit(scripts);
    // THEN the view is a link to where the image volume mounts the view in the Flux containers
    expect(second.status).toBe(0);
    expect(fs.readlinkSync(`${sandbox.mount}/view`)).toBe('/opt/views/view');
    // AND nothing is copied into the software volume (the harness mounts it, empty, as a pod would)
    expect(fs.readdirSync(`${sandbox.mount}/software`)).toEqual([]);
    expect(second.stdout).toContain(`flux-init: linked ${sandbox.mount}/view to /opt/views/view (the flux view image volume: nothing to copy)\n`);
  });

  test('copies the resolved view and the software tree to the mount, keeping modification times', () => {
    // GIVEN an install tree whose Python source is older than now (its bytecode records that time)
    const source = `${sandbox.image}/software/linux-x86_64/flux-core-0.88.0/lib/python3.11/site-packages/flux/__init__.py`;
    const built = new Date('2026-08-05T12:00:00Z');
    fs.utimesSync(source, built, built);
    // WHEN the init container runs
    expect(runInit(renderScripts(sampleModel(sandbox, { viewDisabled: false }))).status).toBe(0);
    // THEN the view's own symlinks are kept: they point into the software tree
    expect(fs.readlinkSync(`${sandbox.mount}/view/bin`)).toBe(`${sandbox.image}/software/linux-x86_64/flux-core-0.88.0/bin`);
    expect(fs.existsSync(`${sandbox.mount}/view/etc/flux/rc1.d`)).toBe(true);
    expect(fs.readFileSync(`${sandbox.mount}/software/linux-x86_64/flux-core-0.88.0/bin/flux`, 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    // AND the copy keeps the source's time, so the shipped bytecode stays valid
    const copy = source.replace(`${sandbox.image}/software`, `${sandbox.mount}/software`);
    expect(fs.statSync(copy).mtime.toISOString()).toBe(built.toISOString());
    // AND the modes (an executable stays one)
    expect(fs.statSync(`${sandbox.mount}/software/linux-x86_64/flux-core-0.88.0/bin/flux`).mode & 0o777).toBe(0o755);
    expect(fs.statSync(copy).mode & 0o777).toBe(0o644);
  });

  testIf(ROOT, 'as a non-root user it copies into volumes whose root it does not own, keeping times', () => {
    // GIVEN volume roots owned by root, writable by all (an emptyDir), and an old source file
    const source = `${sandbox.image}/software/linux-x86_64/flux-core-0.88.0/bin/flux`;
    const built = new Date('2026-08-05T12:00:00Z');
    fs.utimesSync(source, built, built);
    // WHEN the init container runs as uid 1000
    const result = sandbox.runInit(renderScripts(sampleModel(sandbox, { viewDisabled: false, quiet: true })), { env: { FLUX_OPT_DIR: sandbox.image }, uid: 1000 });
    // THEN it succeeds, and the copy has the source's time and belongs to that user
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const copy = fs.statSync(`${sandbox.opt}/software/linux-x86_64/flux-core-0.88.0/bin/flux`);
    expect(copy.mtime.toISOString()).toBe(built.toISOString());
    expect(copy.uid).toBe(1000);
  });

  test('fails clearly when the image is not a flux view image', () => {
    const result = sandbox.runInit(renderScripts(sampleModel(sandbox, { viewDisabled: false })), { env: { FLUX_OPT_DIR: sandbox.opt } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('is this a flux view image?');
  });

  test('with the view disabled only the configs are written', () => {
    expect(runInit(renderScripts(sampleModel(sandbox, { viewDisabled: true, quiet: true }))).stdout).toBe('');
    // (the sandbox always mounts the software volume there; the pod has none without the view)
    expect(fs.readdirSync(sandbox.mount).filter((n) => n !== 'software')).toEqual(['config']);
    expect(fs.readdirSync(path.join(sandbox.mount, 'software'))).toEqual([]);
  });
});

describe('start-<name>.sh', () => {
  const sidecarModel = (command: string | undefined, extra: Partial<Parameters<typeof sampleModel>[1]> = {}) =>
    sampleModel(sandbox, {
      sidecars: [{ name: 'flux-queue', command, commands: { init: 'echo init', servicePre: 'echo servicePre', post: 'echo post' } }],
      ...extra,
    });

  test('sources flux-view.sh once it exists, so fluxsocket and the environment are right, then runs the command', () => {
    // GIVEN the runner has written flux-view.sh
    // (the operator example's ${fluxsocket}, quoted here because the sandbox's mount path has a space)
    const model = sidecarModel('sleep 0 && flux proxy "${fluxsocket}" flux jobs -a; echo "GREETING=$GREETING"', {
      fluxEnvironment: [['GREETING', 'hi there']],
      quiet: true,
    });
    const scripts = renderScripts(model);
    expect(sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], { hostname: 'flux-sample-1' }).status).toBe(0);
    // WHEN the sidecar's wrapper runs
    const result = sandbox.run('start.sh', scripts['start-flux-queue.sh'], { env: { FAKE_FLUX_EXIT: '0' } });
    // THEN the hooks and the command ran in order, in the Flux environment
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('init\nservicePre\nGREETING=hi there\npost\n');
    const proxy = sandbox.fluxCalls().find((c) => c.argv[0] === 'proxy');
    expect(proxy?.argv).toEqual(['proxy', `local://${sandbox.mount}/config/run/flux/local`, 'flux', 'jobs', '-a']);
  });

  test("exits with the command's exit code, after post", () => {
    const scripts = renderScripts(sidecarModel('exit_with() { return "$1"; }; exit_with 7', { quiet: true }));
    fs.writeFileSync(`${sandbox.mount}/flux-view.sh`, '');
    const result = sandbox.run('start.sh', scripts['start-flux-queue.sh']);
    expect(result.status).toBe(7);
    expect(result.stdout).toBe('init\nservicePre\npost\n');
  });

  test("a failing post step is reported; the sidecar's status stays its command's", () => {
    // GIVEN a sidecar whose command succeeds and whose post step fails
    const model = sidecarModel('true', { quiet: true });
    const scripts = renderScripts({ ...model, sidecars: [{ ...model.sidecars[0], commands: { post: 'exit_with() { return "$1"; }; exit_with 6' } }] });
    fs.writeFileSync(`${sandbox.mount}/flux-view.sh`, '');
    // WHEN it runs
    const result = sandbox.run('start.sh', scripts['start-flux-queue.sh']);
    // THEN it says which step failed with which code, and exits with its command's status
    expect(result.stderr).toBe('start-flux-queue: error: commands.post failed with exit code 6\n');
    expect(result.status).toBe(0);
  });

  test('waits for flux-view.sh only for a bounded time, then runs without it', () => {
    const scripts = renderScripts(sidecarModel('echo "socket=$fluxsocket"', { quiet: true }));
    const result = sandbox.run('start.sh', scripts['start-flux-queue.sh'], { env: { FLUX_VIEW_WAIT_SECONDS: '1' } });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe(
      `start-flux-queue: warning: ${sandbox.mount}/flux-view.sh did not appear within 1s: running without the Flux environment\n`,
    );
    expect(result.stdout).toBe(`init\nservicePre\nsocket=local://${sandbox.mount}/config/run/flux/local\npost\n`);
  });

  test('a sidecar without a command runs its hooks and exits 0', () => {
    const scripts = renderScripts(sidecarModel(undefined, { quiet: true }));
    fs.writeFileSync(`${sandbox.mount}/flux-view.sh`, '');
    const result = sandbox.run('start.sh', scripts['start-flux-queue.sh']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('init\nservicePre\npost\n');
    expect(path.basename(sandbox.mount)).toBe('flux view');
  });
});
