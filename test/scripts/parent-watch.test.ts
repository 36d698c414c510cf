import { STOPPED_EXIT_CODE } from '../../lib/core/runner-exit-codes';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { parse } from 'smol-toml';
import { ScriptModel } from '../../lib/scripts/model';
import { renderScripts } from '../../lib/scripts/render';
import { BLOCK_UNTIL_TERM, RunResult, Sandbox, sampleModel } from './harness';

/**
 * A test double of getent(1) for `getent ahostsv4|ahostsv6|hosts NAME`: records `DATABASE NAME`,
 * then prints the address in $FAKE_GETENT_ANSWER's file as glibc does (ahosts*: one line per socket
 * type), or fails like an unknown name (exit 2) when it is empty.
 */
const FAKE_GETENT = `#!/bin/bash
case "$1" in ahostsv4|ahostsv6|hosts) ;; *) exit 1 ;; esac
printf '%s %s\\n' "$1" "$2" >> "$FAKE_GETENT_CALLS"
# A DNS server that never answers: hang (stdio closed, so nothing waits on this process's pipes).
if [ -n "\${FAKE_GETENT_HANG:-}" ]; then echo $$ > "$FAKE_GETENT_HANG"; exec sleep 1000 </dev/null >/dev/null 2>&1; fi
answer=$(cat "$FAKE_GETENT_ANSWER" 2>/dev/null)
[ -n "$answer" ] || exit 2
if [ "$1" = hosts ]; then printf '%s       %s\\n' "$answer" "$2"; exit 0; fi
printf '%-15s STREAM %s\\n%-15s DGRAM\\n%-15s RAW\\n' "$answer" "$2" "$answer" "$answer"
`;

const FQDN = 'flux-sample-0.flux-sample.default.svc.cluster.local';

let sandbox: Sandbox;
let listeners: net.Server[] = [];
let prefix: string;
let port: number;
beforeEach(() => {
  sandbox = new Sandbox();
  fs.writeFileSync(path.join(sandbox.bin, 'getent'), FAKE_GETENT, { mode: 0o755 });
  prefix = `127.${2 + crypto.randomInt(250)}.${crypto.randomInt(250)}`;
  port = 20000 + crypto.randomInt(20000);
});
afterEach(async () => {
  await Promise.all(listeners.map((l) => new Promise((r) => l.close(r))));
  listeners = [];
  sandbox.remove();
});

/** The pinned (old) and the moved (new) address of the parent. */
const oldIp = (): string => `${prefix}.10`;
const newIp = (): string => `${prefix}.20`;

function writeParentEnv(ip: string): void {
  fs.writeFileSync(path.join(sandbox.handshake, 'parent.env'), [
    'FLUX_PARENT_RANK=0', 'FLUX_PARENT_HOST=flux-sample-0', `FLUX_PARENT_FQDN=${FQDN}`, `FLUX_PARENT_IP=${ip}`,
    `FLUX_PARENT_PORT=${port}`, `FLUX_PARENT_URI=tcp://${ip}:${port}`, '',
  ].join('\n'));
}

/** A Flux port that accepts connections at `ip` (what the watch's check needs to see). */
async function fluxPortAt(ip: string): Promise<void> {
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: ip, port }, () => resolve());
  });
  listeners.push(server);
}

function getentCalls(): string[] {
  const file = path.join(sandbox.root, 'getent-calls');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [];
}

function setDnsAnswer(ip: string): void {
  fs.writeFileSync(path.join(sandbox.root, 'getent-answer'), ip);
}

async function until(what: string, condition: () => boolean, child: { exitCode: number | null }): Promise<void> {
  for (let i = 0; i < 1200 && !condition(); i++) {
    if (child.exitCode !== null) throw new Error(`the script exited (${child.exitCode}) before ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!condition()) throw new Error(`${what} never happened`);
}

/** Starts a worker (rank 3) whose first broker runs until stopped (by TERM, or KILL with `deaf`); later brokers exit 0. */
function startWorker(model: ScriptModel, deaf = false, onStart?: string, env: Record<string, string> = {}): ReturnType<Sandbox['start']> {
  const scripts = renderScripts(model);
  expect(sandbox.runInit(scripts).status).toBe(0);
  fs.writeFileSync(path.join(sandbox.handshake, 'ready'), 'rank=3\n');
  return sandbox.start('entrypoint.sh', scripts['entrypoint.sh'], {
    hostname: 'flux-sample-3',
    onStart: onStart ?? (deaf ? 'if [ "$s" = 1 ]; then trap "" TERM; touch "$calls/blocking"; exec sleep 60; fi' : `if [ "$s" = 1 ]; then ${BLOCK_UNTIL_TERM}; fi`),
    env: {
      ...env,
      HANDSHAKE_PARENT_WATCH_SECONDS: '1',
      FAKE_GETENT_CALLS: path.join(sandbox.root, 'getent-calls'),
      FAKE_GETENT_ANSWER: path.join(sandbox.root, 'getent-answer'),
    },
  });
}

function connects(): string[] {
  return sandbox.brokerCalls().map((c) => {
    const hosts = (parse(c.brokerToml!) as { bootstrap: { hosts: { connect?: string }[] } }).bootstrap.hosts;
    return hosts.find((h) => h.connect !== undefined)!.connect!;
  });
}

function model(resolveParent: boolean, strict = false): ScriptModel {
  return sampleModel(sandbox, { strict, handshake: { dir: sandbox.handshake, resolveParent } });
}

describe('entrypoint.sh: a worker follows a TBON parent that moved while its broker runs', () => {
  test('sidecar lifecycle: parent.env names a new address, so the broker is stopped and restarts there', async () => {
    // GIVEN a worker whose broker runs, connected to its parent's first address
    writeParentEnv(oldIp());
    const { child, done } = startWorker(model(false));
    await sandbox.waitForCallFile('blocking', child);
    // WHEN the handshake sidecar verified the parent's new address and rewrote parent.env
    writeParentEnv(newIp());
    // THEN the running broker is stopped (TERM) and the worker restarts it with the new address
    const result: RunResult = await done;
    expect(result.status).toBe(0);
    expect(fs.readFileSync(path.join(sandbox.calls, 'signal'), 'utf8')).toBe('TERM\n');
    expect(connects()).toEqual([`tcp://${oldIp()}:${port}`, `tcp://${newIp()}:${port}`]);
    expect(result.stdout).toContain(`entrypoint: parent.env names a new address for the TBON parent, ${newIp()}: restarting the worker broker\n`);
    expect(result.stderr).toBe('');
    // AND without resolveParent, DNS is never asked
    expect(getentCalls()).toEqual([]);
  });

  test('init lifecycle (strict script): the parent\'s name resolves to a new address that answers and the pinned one does not: restart there', async () => {
    // GIVEN a worker pinned to the old address, which no longer answers (the parent's pod was replaced)
    writeParentEnv(oldIp());
    setDnsAnswer(oldIp());
    const { child, done } = startWorker(model(true, true));
    await sandbox.waitForCallFile('blocking', child);
    // WHEN the parent's per-pod name resolves to the new pod's address, where its Flux port answers
    await fluxPortAt(newIp());
    setDnsAnswer(newIp());
    // THEN the broker is restarted with the new address, though parent.env (the exited handshake's) is unchanged
    const result = await done;
    expect(result.status).toBe(0);
    expect(connects()).toEqual([`tcp://${oldIp()}:${port}`, `tcp://${newIp()}:${port}`]);
    expect(result.stdout).toContain(`entrypoint: the TBON parent ${FQDN} moved from ${oldIp()} to ${newIp()}: restarting the worker broker\n`);
    expect(new Set(getentCalls())).toEqual(new Set([`ahostsv4 ${FQDN}.`]));
    expect(fs.readFileSync(path.join(sandbox.handshake, 'parent.env'), 'utf8')).toContain(`FLUX_PARENT_IP=${oldIp()}\n`);
    // AND the note between the watch and the restart loop is consumed
    expect(fs.existsSync(path.join(sandbox.mount, 'config', 'rank-config', 'parent-moved'))).toBe(false);
  });

  test('a broker that ignores TERM is killed after 10 s, then restarted with the new address', async () => {
    // GIVEN a running broker that ignores TERM (cut off from its parent, it may never finish a shutdown)
    writeParentEnv(oldIp());
    const { child, done } = startWorker(model(false), true);
    await sandbox.waitForCallFile('blocking', child);
    // WHEN its parent moved
    writeParentEnv(newIp());
    // THEN it is killed, and the worker restarts with the new address
    const result = await done;
    expect(result.status).toBe(0);
    expect(connects()).toEqual([`tcp://${oldIp()}:${port}`, `tcp://${newIp()}:${port}`]);
  });

  test('init lifecycle: a broker that exits while the watch\'s DNS lookup hangs ends the worker at once, with its status', async () => {
    // GIVEN a worker whose parent lookups hang, and whose broker exits 0 once the watch is inside one
    writeParentEnv(oldIp());
    const hung = path.join(sandbox.root, 'getent-hung');
    const { child, done } = startWorker(model(true), false, `while [ ! -s '${hung}' ]; do sleep 0.05; done; exit 0`, { FAKE_GETENT_HANG: hung });
    // The entrypoint's exit, not its pipes' close: the hung lookup's shell still holds stderr, as
    // it would in a container until the container ends with its PID 1.
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await until('a hung parent lookup', () => fs.existsSync(hung), child);
      // WHEN the broker has exited
      const status = await exited;
      // THEN the entrypoint did not wait for the lookup: it ended with the broker's status while the lookup still hangs
      expect(status).toBe(0);
      expect(process.kill(Number(fs.readFileSync(hung, 'utf8')), 0)).toBe(true);
      expect(connects()).toEqual([`tcp://${oldIp()}:${port}`]);
    } finally {
      if (fs.existsSync(hung)) process.kill(Number(fs.readFileSync(hung, 'utf8')), 'SIGKILL');
      await done;
    }
  });

  test('HANDSHAKE_PARENT_WATCH_SECONDS=0 is refused: the watch would spin', () => {
    const scripts = renderScripts(model(false));
    const result = sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], { hostname: 'flux-sample-1', env: { HANDSHAKE_PARENT_WATCH_SECONDS: '0' } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("HANDSHAKE_PARENT_WATCH_SECONDS must be at least 1, got '0'");
  });

  test.each([
    ['the name still resolves to the pinned address', 'old', [] as string[]],
    ['the name resolves elsewhere but the pinned address still answers', 'new', ['old', 'new']],
    ['the name resolves elsewhere but nothing answers there', 'new', []],
    ['the name does not resolve (replaced pod not published yet)', '', ['new']],
  ])('init lifecycle: no restart when %s', async (_what, answer, answering) => {
    // GIVEN a running worker pinned to the old address
    writeParentEnv(oldIp());
    setDnsAnswer(answer === 'old' ? oldIp() : answer === 'new' ? newIp() : '');
    for (const which of answering) await fluxPortAt(which === 'old' ? oldIp() : newIp());
    const { child, done } = startWorker(model(true));
    await sandbox.waitForCallFile('blocking', child);
    // WHEN the watch has looked twice, and then the pod is stopped
    await until('two parent lookups', () => getentCalls().length >= 2, child);
    child.kill('SIGTERM');
    // THEN the first broker was never restarted
    const result = await done;
    expect(result.status).toBe(STOPPED_EXIT_CODE);
    expect(connects()).toEqual([`tcp://${oldIp()}:${port}`]);
    expect(result.stdout).not.toContain('restarting the worker broker');
  });

  test('the watch period is rendered and HANDSHAKE_PARENT_WATCH_SECONDS must be a number; the model checks it too', () => {
    const scripts = renderScripts(sampleModel(sandbox, { handshake: { dir: sandbox.handshake, parentWatchSeconds: 9 } }));
    expect(scripts['entrypoint.sh']).toContain('seconds_from_env HANDSHAKE_PARENT_WATCH_SECONDS \'9\'');
    expect(renderScripts(model(false))['entrypoint.sh']).toContain('seconds_from_env HANDSHAKE_PARENT_WATCH_SECONDS \'5\'');
    const result = sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], { hostname: 'flux-sample-1', env: { HANDSHAKE_PARENT_WATCH_SECONDS: 'often' } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("HANDSHAKE_PARENT_WATCH_SECONDS must be a whole number of seconds, got 'often'");
    expect(() => renderScripts(sampleModel(sandbox, { handshake: { dir: sandbox.handshake, parentWatchSeconds: 0 } })))
      .toThrow(/handshake.parentWatchSeconds.*0.*must be an integer >= 1/);
  });
});
