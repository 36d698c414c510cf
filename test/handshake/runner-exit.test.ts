import * as fs from 'fs';
import * as path from 'path';
import { HANDSHAKE_READY_FILE } from '../../lib/core/handshake-contract';
import { prepareRunnerExitDir, watchRunnerExit } from '../../lib/runtime/handshake/runner-exit';
import { TestCluster, programSuite } from './support/cluster';

programSuite('a sidecar handshake ends with the Flux runner', () => {
  let cluster: TestCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  test('the runner\'s exit file ends a ready sidecar with code 0, and a restarted sidecar at once', async () => {
    // GIVEN a ready 2-pod cluster whose sidecars watch an exit file each
    cluster = await TestCluster.create({ size: 2 });
    const exitFile = (i: number): string => path.join(cluster!.dir, `runner-${i}`, 'exited');
    for (const i of [0, 1]) fs.mkdirSync(path.dirname(exitFile(i)), { recursive: true });
    const pods = await Promise.all([0, 1].map((i) => cluster!.startPod(i, { extraArgs: [`--runner-exit-file=${exitFile(i)}`] })));
    await Promise.all(pods.map((p) => p.waitForEvent('ready')));
    expect(pods[0].file(HANDSHAKE_READY_FILE)).toBeDefined();
    // WHEN rank 1's runner exits (its entrypoint's EXIT trap creates the file)
    fs.writeFileSync(exitFile(1), '');
    // THEN rank 1's sidecar exits 0 and says why; rank 0's, whose runner still runs, keeps serving
    expect(await pods[1].exited).toBe(0);
    expect(pods[1].lines.find((l) => l.event === 'runner-exited')).toMatchObject({ level: 'info', file: exitFile(1) });
    expect(pods[0].proc.exitCode).toBeNull();
    // AND a sidecar the kubelet restarts after its runner ended exits again at once, before any handshake
    const again = await cluster.startPod(1, { extraArgs: [`--runner-exit-file=${exitFile(1)}`] });
    expect(await again.exited).toBe(0);
    expect(again.lines.some((l) => l.event === 'ready')).toBe(false);
  });
});

describe('prepareRunnerExitDir', () => {
  test('makes the exit file\'s directory writable by every user (the runner may run as another), and never throws', () => {
    const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'runner-dir-'));
    prepareRunnerExitDir(path.join(dir, 'runner', 'exited'));
    expect(fs.statSync(path.join(dir, 'runner')).mode & 0o777).toBe(0o777);
    fs.writeFileSync(path.join(dir, 'file'), '');
    expect(() => prepareRunnerExitDir(path.join(dir, 'file', 'runner', 'exited'))).not.toThrow();
    expect(() => prepareRunnerExitDir(path.join(dir, 'file', 'exited'))).not.toThrow();
    fs.rmSync(dir, { recursive: true });
  });
});

describe('watchRunnerExit', () => {
  test('calls back once when the file appears, and never after being stopped', async () => {
    // GIVEN two watched files in an empty directory
    const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'runner-exit-'));
    const calls: string[] = [];
    watchRunnerExit(path.join(dir, 'a'), () => calls.push('a'), 10);
    const stop = watchRunnerExit(path.join(dir, 'b'), () => calls.push('b'), 10);
    // WHEN b's watch is stopped, then both files appear
    stop();
    fs.writeFileSync(path.join(dir, 'a'), '');
    fs.writeFileSync(path.join(dir, 'b'), '');
    await new Promise((r) => setTimeout(r, 100));
    // THEN only a's callback ran, once
    expect(calls).toEqual(['a']);
    fs.rmSync(dir, { recursive: true });
  });

  test('the directory watch calls back as the file appears, long before the fallback poll', async () => {
    // GIVEN a watch whose poll would come only after a minute
    const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'runner-exit-'));
    let called = 0;
    const stop = watchRunnerExit(path.join(dir, 'exited'), () => called++, 60_000);
    // WHEN another file, then the runner's, appear
    fs.writeFileSync(path.join(dir, 'other'), '');
    await new Promise((r) => setTimeout(r, 100));
    expect(called).toBe(0);
    fs.writeFileSync(path.join(dir, 'exited'), '');
    // THEN the callback has run once, by the watch
    for (let i = 0; i < 50 && called === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(called).toBe(1);
    stop();
    fs.rmSync(dir, { recursive: true });
  });
});
