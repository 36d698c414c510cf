/**
 * The check of the flux view image volume (flux-view-check.sh, the flux view init container with
 * flux.container.source image-volume), run as a real `/bin/sh` process against directories laid
 * out as the volume a runtime mounts: empty (a runtime without image volumes), a flux view image,
 * and images of other layouts.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { renderScripts, VIEW_CHECK_EXIT_CODE, VIEW_CHECK_SCRIPT_KEY } from '../../lib/scripts/render';
import { Sandbox, sampleModel } from './harness';
import { SHELLCHECK_INSTALLED, testWithShellcheck } from '../support/shell-check';

const IMAGE = 'ghcr.io/converged-computing/flux-view-ubuntu:tag-noble';
const WAYS_OUT = 'Ways out: run the pods on nodes whose container runtime mounts image volumes (containerd 2.1 or newer, CRI-O 1.33 or newer: kubectl get nodes -o wide) with a flux view image; '
  + 'or synthesize with flux.container.source copy-to-disk or copy-to-memory (cdk8s-minicluster synth --view-source copy-to-disk), which copy the view into the pod instead.';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'view-check-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A directory `name` in the test's directory with `links` (path -> target) and files made in it. */
function volume(name: string, dirs: string[] = [], links: Record<string, string> = {}, files: string[] = []): string {
  const root = path.join(dir, name);
  fs.mkdirSync(root, { recursive: true });
  for (const d of dirs) fs.mkdirSync(path.join(root, d), { recursive: true });
  for (const f of files) fs.writeFileSync(path.join(root, f), '#!/bin/sh\n', { mode: 0o755 });
  for (const [link, target] of Object.entries(links)) fs.symlinkSync(target, path.join(root, link));
  return root;
}

/**
 * A flux view image as converged-computing/flux-views lays it out (and podemu emulates it): Spack's
 * install tree in opt/software, the view opt/views/._view/<hash> whose files are absolute symlinks
 * into it, opt/views/view -> the view (absolute), opt/view -> opt/views/view.
 */
function fluxViewImage(name: string, viewLink = '/opt/views/._view/abc123'): string {
  const software = 'opt/software/linux-x86_64/flux-core-0.88.0';
  return volume(name, [`${software}/bin`, 'opt/views/._view/abc123/bin'], {
    'opt/views/._view/abc123/bin/flux': `/${software}/bin/flux`,
    'opt/views/view': viewLink,
    'opt/view': '/opt/views/view',
  }, [`${software}/bin/flux`]);
}

/** Runs the rendered check against volume `root`; the termination message goes to a file of the test. */
function check(root: string, options: { quiet?: boolean; node?: string; terminationLog?: string } = {}) {
  const script = path.join(dir, VIEW_CHECK_SCRIPT_KEY);
  const scripts = renderScripts(sampleModel(undefined, { viewDisabled: false, viewImageVolume: true, viewImage: IMAGE, quiet: options.quiet ?? false }));
  fs.writeFileSync(script, scripts[VIEW_CHECK_SCRIPT_KEY]);
  const terminationLog = options.terminationLog ?? path.join(dir, 'termination-log');
  const env: Record<string, string> = { PATH: '/usr/bin:/bin', FLUX_VIEW_IMAGE_ROOT: root, FLUX_TERMINATION_LOG: terminationLog };
  if (options.node) env.NODE_NAME = options.node;
  const r = spawnSync('/bin/sh', [script], { env, encoding: 'utf8', timeout: 30000 });
  const message = fs.existsSync(terminationLog) ? fs.readFileSync(terminationLog, 'utf8') : undefined;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, message };
}

describe('flux-view-check.sh', () => {
  test('GIVEN an empty volume (a runtime without image volumes) WHEN the check runs THEN it names the image, the node, the cause and both ways out, and exits with the code the Job fails on', () => {
    // WHEN
    const r = check(volume('empty'), { node: 'node-7' });
    // THEN
    const message = `flux-view-check: the flux view image volume ${IMAGE} is empty on node node-7: this node's container runtime does not mount image volumes (it mounted an empty directory). ${WAYS_OUT}\n`;
    expect(r).toEqual({ status: VIEW_CHECK_EXIT_CODE, stdout: '', stderr: message, message });
    expect(VIEW_CHECK_EXIT_CODE).toBe(78);
    // AND the message fits a termination message (the kubelet keeps 4096 bytes)
    expect(Buffer.byteLength(message)).toBeLessThan(4096);
  });

  test('GIVEN no volume at all (an API server before 1.35, gate off, dropped it and its mount) WHEN the check runs THEN it blames the dropped volume, not the runtime, and exits with the code the Job fails on', () => {
    const r = check(path.join(dir, 'not-mounted'), { node: 'node-7' });
    expect(r.status).toBe(VIEW_CHECK_EXIT_CODE);
    expect(r.message).toBe(`flux-view-check: the pod has no flux view image volume at ${path.join(dir, 'not-mounted')} on node node-7: the API server dropped the image volume ${IMAGE} and its mounts, as Kubernetes before 1.35 does with its ImageVolume gate off (the default). `
      + 'Ways out: run on Kubernetes 1.35 or newer (or turn the ImageVolume gate on); or synthesize for this version with flux.container.source copy-to-disk or copy-to-memory (cdk8s-minicluster synth --view-source copy-to-disk), which copy the view into the pod instead.\n');
    expect(r.stderr).toBe(r.message);
    expect(r.message).not.toMatch(/container runtime/);
  });

  test('GIVEN a flux view image WHEN the check runs THEN it passes, says so and writes no termination message', () => {
    const r = check(fluxViewImage('view'));
    expect(r).toEqual({
      status: 0,
      stdout: `flux-view-check: the image volume ${IMAGE} has opt/software and the view /opt/views/._view/abc123 with bin/flux\n`,
      stderr: '',
      message: undefined,
    });
  });

  test('GIVEN a flux view image whose view link is relative, and quiet logging THEN it passes without a word', () => {
    expect(check(fluxViewImage('relative', '._view/abc123'), { quiet: true })).toEqual({ status: 0, stdout: '', stderr: '', message: undefined });
  });

  test.each([
    ['an image with only /opt/view (another layout)', () => volume('other', ['opt/view/bin'], {}, ['opt/view/bin/flux']), 'opt/software, opt/views, opt/views/view'],
    ['a view without bin/flux', () => volume('noflux', ['opt/software/x', 'opt/views/._view/h/bin'], { 'opt/views/view': '/opt/views/._view/h' }), 'opt/views/view/bin/flux'],
    ['a view link that leads nowhere', () => volume('dangling', ['opt/software/x', 'opt/views'], { 'opt/views/view': '/opt/views/._view/gone' }), 'opt/views/view'],
    ['opt/software as a symlink (the runtime refuses a subPath through it)', () => volume('linked', ['opt/tree', 'opt/views/._view/h/bin'], { 'opt/software': '/opt/tree', 'opt/views/view': '._view/h' }, ['opt/views/._view/h/bin/flux']), 'opt/software'],
  ])('GIVEN %s WHEN the check runs THEN it names what is missing and both ways out', (_, make, missing) => {
    const r = check(make());
    const message = `flux-view-check: the flux view image volume ${IMAGE} lacks ${missing}: it is not a flux view image of the layout the Flux containers mount (opt/software, and opt/views/view with bin/flux). ${WAYS_OUT}\n`;
    expect(r).toEqual({ status: VIEW_CHECK_EXIT_CODE, stdout: '', stderr: message, message });
  });

  test('GIVEN a termination message file it cannot write THEN it still fails with the message on stderr', () => {
    const r = check(volume('empty'), { terminationLog: path.join(dir, 'no', 'such', 'dir', 'log') });
    expect(r.status).toBe(VIEW_CHECK_EXIT_CODE);
    expect(r.message).toBeUndefined();
    expect(r.stderr).toMatch(/^flux-view-check: the flux view image volume \S+ is empty: this node's container runtime does not mount image volumes/);
  });

  testWithShellcheck('the rendered script is POSIX sh: shellcheck --shell=sh finds nothing (the /bin/sh of the application image may be dash or busybox)', () => {
    expect(SHELLCHECK_INSTALLED).toBe(true);
    const text = renderScripts(sampleModel(undefined, { viewDisabled: false, viewImageVolume: true, viewImage: IMAGE }))[VIEW_CHECK_SCRIPT_KEY];
    const r = spawnSync('shellcheck', ['--norc', '--shell=sh', '--severity=style', '-'], { input: text, env: process.env, encoding: 'utf8' });
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 0, stdout: '' });
  });
});

describe('flux-view-check.sh run first by the runner (a flux-views image: no init container)', () => {
  let sandbox: Sandbox;
  beforeEach(() => {
    sandbox = new Sandbox();
  });
  afterEach(() => {
    sandbox.remove();
  });

  /** The runner's entrypoint with the ConfigMap mounted, the view image volume at `root`. */
  function runner(root: string, env: Record<string, string> = {}) {
    const scripts = renderScripts(sampleModel(sandbox, { viewDisabled: false, viewImageVolume: true, viewCheckInRunner: true, viewImage: IMAGE }));
    sandbox.mountConfigMap(scripts);
    const terminationLog = path.join(dir, 'runner-termination-log');
    const r = sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], { env: { FLUX_VIEW_IMAGE_ROOT: root, FLUX_TERMINATION_LOG: terminationLog, ...env } });
    return { ...r, message: fs.existsSync(terminationLog) ? fs.readFileSync(terminationLog, 'utf8') : undefined };
  }

  test('GIVEN an API server that dropped the volume WHEN the runner starts THEN it exits 78 naming the cause, before flux-init.sh and Flux', () => {
    // WHEN the pod has no image volume at all (before 1.35 the API server drops it and its mounts)
    const r = runner(path.join(dir, 'not-mounted'));
    // THEN the runner ends with the code the Job's podFailurePolicy fails the Job on, saying why
    expect(r.status).toBe(VIEW_CHECK_EXIT_CODE);
    expect(r.message).toMatch(/^flux-view-check: the pod has no flux view image volume at \S+: the API server dropped the image volume \S+ and its mounts/);
    expect(r.stderr).toBe(r.message);
    // AND nothing after the check ran: no config written, no Flux command
    expect(r.stdout).not.toContain('flux-init:');
    expect(fs.existsSync(`${sandbox.mount}/config`)).toBe(false);
    expect(sandbox.fluxCalls()).toEqual([]);
  });

  test('GIVEN an empty volume WHEN the runner starts THEN it exits 78 naming the runtime', () => {
    const r = runner(volume('empty'));
    expect(r.status).toBe(VIEW_CHECK_EXIT_CODE);
    expect(r.message).toMatch(/^flux-view-check: the flux view image volume \S+ is empty: this node's container runtime does not mount image volumes/);
    expect(sandbox.brokerCalls()).toEqual([]);
  });

  test('GIVEN a flux view image WHEN the runner starts THEN the check passes and the runner goes on to flux-init.sh and its broker', () => {
    // (its opt/software is what the runner's subPath mount shows at /opt/software)
    const image = fluxViewImage('image');
    const r = runner(image, { FLUX_OPT_DIR: path.join(image, 'opt') });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^flux-view-check: the image volume \S+ has opt\/software and the view \/opt\/views\/._view\/abc123 with bin\/flux\n/);
    expect(r.stdout).toContain(`flux-init: linked ${sandbox.mount}/view to /opt/views/view`);
    expect(sandbox.brokerCalls()).toHaveLength(1);
    expect(r.message).toBeUndefined();
  });
});
