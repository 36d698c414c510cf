import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'smol-toml';
import { expandHostlist } from '../../lib/core/hostlist';
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

function handshakeModel(maxSize: number): ScriptModel {
  return sampleModel(sandbox, { maxSize, handshake: { dir: sandbox.handshake } });
}

function runPod(model: ScriptModel, options: Parameters<Sandbox['run']>[2] = {}) {
  const scripts = renderScripts(model);
  expect(sandbox.runInit(scripts).status).toBe(0);
  return sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], {
    ...options,
    env: { HANDSHAKE_WAIT_SECONDS: '5', ...options.env },
  });
}

/** parent.env as the handshake writes it, from 'RANK HOST IP PORT' (missing fields are left out). */
function parentEnv(parentLine: string): string {
  const keys = ['FLUX_PARENT_RANK', 'FLUX_PARENT_HOST', 'FLUX_PARENT_IP', 'FLUX_PARENT_PORT'];
  return parentLine.split(' ').slice(0, 4).map((v, i) => `${keys[i]}=${v}\n`).join('');
}

function handshakeDone(parentLine?: string): void {
  if (parentLine !== undefined) fs.writeFileSync(path.join(sandbox.handshake, 'parent.env'), parentEnv(parentLine));
  fs.writeFileSync(path.join(sandbox.handshake, 'ready'), '');
}

type Host = { host: string; connect?: string };

/** The hosts entries of a broker.toml and the rest of it, parsed. */
function splitConfig(text: string): { hosts: Host[]; rest: Record<string, unknown> } {
  const config = parse(text) as Record<string, Record<string, unknown>>;
  const hosts = config.bootstrap.hosts as Host[];
  const rest = { ...config, bootstrap: { ...config.bootstrap, hosts: undefined } };
  return { hosts, rest };
}

describe('entrypoint.sh with the hosts handshake', () => {
  test.each([
    // [maxSize, rank, parent line, expected hosts entries]
    [8, 5, 'flux-sample-2 10.1.2.3 8050', ['flux-sample-[0-1]', 'flux-sample-2', 'flux-sample-[3-7]']],
    [8, 1, 'flux-sample-0 10.1.2.3 8050', ['flux-sample-0', 'flux-sample-[1-7]']],
    [4, 3, 'flux-sample-2 10.1.2.3 8050', ['flux-sample-[0-1]', 'flux-sample-2', 'flux-sample-3']],
    [4, 3, 'flux-sample-1 10.1.2.3 8050', ['flux-sample-0', 'flux-sample-1', 'flux-sample-[2-3]']],
    [300, 299, 'flux-sample-1 10.1.2.3 8050', ['flux-sample-0', 'flux-sample-1', 'flux-sample-[2-299]']],
  ] as const)('maxSize %i, rank %i, parent %s: the hosts entry is split around the parent, in rank order', (maxSize, rank, parentLine, expected) => {
    // GIVEN the handshake wrote this rank's parent and ready
    const parentRank = Number(/flux-sample-(\d+)/.exec(parentLine)![1]);
    handshakeDone(`${parentRank} ${parentLine}`);
    const model = handshakeModel(maxSize);
    // WHEN the worker starts
    const result = runPod(model, { hostname: `flux-sample-${rank}` });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // THEN it starts with its private config dir, whose broker.toml differs only in the hosts entries
    const [start] = sandbox.brokerCalls();
    const rankDir = `${sandbox.mount}/config/rank-config`;
    expect(start.argv.slice(0, 4)).toEqual(['start', '-o', '--config', rankDir]);
    expect(fs.statSync(rankDir).mode & 0o777).toBe(0o700);
    const shared = splitConfig(model.brokerToml);
    const rendered = splitConfig(start.brokerToml!);
    expect(rendered.rest).toEqual(shared.rest);
    expect(rendered.hosts.map((h) => h.host)).toEqual(expected);
    // AND expanding the entries gives the original host order, rank by rank
    expect(rendered.hosts.flatMap((h) => expandHostlist(h.host))).toEqual(expandHostlist(model.hostlist));
    // AND only the parent's entry has an explicit connect URI
    expect(rendered.hosts.filter((h) => h.connect !== undefined)).toEqual([
      { host: `flux-sample-${parentRank}`, connect: 'tcp://10.1.2.3:8050' },
    ]);
    // AND every other line of the file is byte-identical
    const otherLines = (text: string) => text.split('\n').filter((l) => !l.startsWith('hosts = '));
    expect(otherLines(start.brokerToml!)).toEqual(otherLines(model.brokerToml));
  });

  test('an IPv6 parent address is bracketed in the connect URI', () => {
    handshakeDone('0 flux-sample-0 fd00::1:2 8050');
    expect(runPod(handshakeModel(4), { hostname: 'flux-sample-1' }).status).toBe(0);
    const { hosts } = splitConfig(sandbox.brokerCalls()[0].brokerToml!);
    expect(hosts[0]).toEqual({ host: 'flux-sample-0', connect: 'tcp://[fd00::1:2]:8050' });
  });

  test('the lead waits for ready and starts with the shared config', () => {
    handshakeDone();
    expect(runPod(handshakeModel(4)).status).toBe(0);
    const [start] = sandbox.brokerCalls();
    expect(start.argv.slice(0, 4)).toEqual(['start', '-o', '--config', `${sandbox.mount}/config/etc/flux/config`]);
  });

  test('GIVEN a pre snippet that exports variables named as the script\'s own WHEN a worker reads the parent THEN its broker gets them as exported', () => {
    // GIVEN commands.pre exports `value` and `seconds` (the entrypoint's helpers set variables of those names)
    handshakeDone('0 flux-sample-0 10.0.0.1 8050');
    const model = sampleModel(sandbox, { maxSize: 4, handshake: { dir: sandbox.handshake }, commands: { pre: 'export value=mine seconds=ours' } });
    // WHEN a worker starts its broker
    expect(runPod(model, { hostname: 'flux-sample-1' }).status).toBe(0);
    // THEN the broker's environment has the user's values, not the parent file's
    const [start] = sandbox.brokerCalls();
    expect(splitConfig(start.brokerToml!).hosts[0].connect).toBe('tcp://10.0.0.1:8050');
    expect(start.env.value).toBe('mine');
    expect(start.env.seconds).toBe('ours');
  });

  test('a worker re-reads the parent before every restart', () => {
    // GIVEN the parent moves to a new address while the first broker runs (a restarted lead pod)
    handshakeDone('0 flux-sample-0 10.0.0.1 8050');
    const moveParent = `[ "$s" = 1 ] && printf '%s' '${parentEnv('0 flux-sample-0 10.0.0.2 8050')}' > '${sandbox.handshake}/parent.env'; true`;
    // WHEN the first broker exits 1 and the second exits 0
    const result = runPod(handshakeModel(4), { hostname: 'flux-sample-3', startCodes: '1 0', onStart: moveParent });
    // THEN the restart connects to the new address
    expect(result.status).toBe(0);
    const connects = sandbox.brokerCalls().map((c) => splitConfig(c.brokerToml!).hosts[0].connect);
    expect(connects).toEqual(['tcp://10.0.0.1:8050', 'tcp://10.0.0.2:8050']);
  });

  test('the wait for ready is bounded: a clear message and a non-zero exit, no broker', () => {
    // GIVEN the handshake never finishes
    const result = runPod(handshakeModel(4), { hostname: 'flux-sample-1', env: { HANDSHAKE_WAIT_SECONDS: '1' } });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `entrypoint: error: the hosts handshake did not write ${sandbox.handshake}/ready within 1s (HANDSHAKE_WAIT_SECONDS)\n`,
    );
    expect(sandbox.brokerCalls()).toHaveLength(0);
  });

  test('a failed handshake ends the container with its exit code and message, no broker', () => {
    // GIVEN the handshake wrote `failed` (a certificate mismatch)
    fs.writeFileSync(path.join(sandbox.handshake, 'failed'), "HANDSHAKE_EXIT_CODE=82\nHANDSHAKE_MESSAGE='rank 0 holds a different certificate'\n");
    // WHEN the pod starts
    const result = runPod(handshakeModel(4), { hostname: 'flux-sample-1' });
    // THEN
    expect(result.status).toBe(82);
    expect(result.stderr).toContain("the hosts handshake failed (exit code 82): 'rank 0 holds a different certificate'");
    expect(sandbox.brokerCalls()).toHaveLength(0);
  });

  test.each([
    ['the lead, after its program', 'flux-sample-0', 0, ''],
    ['a worker whose broker failed for good', 'flux-sample-1', 1, '1'],
  ] as const)('%s: the entrypoint leaves the exit file the handshake sidecar ends on, as it exits', (_, hostname, status, startCodes) => {
    // GIVEN a sidecar handshake that watches <dir>/exited, and a ready handshake
    handshakeDone('0 flux-sample-0 10.0.0.1 8050');
    const exitFile = path.join(sandbox.root, 'runner', 'exited');
    const early = path.join(sandbox.root, 'early');
    fs.mkdirSync(path.dirname(exitFile));
    const model = sampleModel(sandbox, { maxSize: 4, workerMaxRestarts: 1, handshake: { dir: sandbox.handshake, exitFile } });
    // WHEN the container runs, noting whether the file is there already when a broker starts
    const result = runPod(model, {
      hostname, startCodes: startCodes === '' ? undefined : `${startCodes} ${startCodes}`, onStart: `if [ -e '${exitFile}' ]; then : > '${early}'; fi`,
    });
    // THEN it exits with its own code, and the file exists then, not while a broker ran
    expect(result.status).toBe(status);
    expect(sandbox.brokerCalls().length).toBeGreaterThan(0);
    expect(fs.existsSync(exitFile)).toBe(true);
    expect(fs.existsSync(early)).toBe(false);
  });

  test('an exit file it cannot write changes nothing: no message, the same exit code', () => {
    handshakeDone();
    const exitFile = path.join(sandbox.root, 'missing-dir', 'exited');
    const result = runPod(sampleModel(sandbox, { maxSize: 4, handshake: { dir: sandbox.handshake, exitFile } }));
    expect(result.status).toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/missing-dir|No such file/);
  });

  test('without an exit file (an init-container handshake) the entrypoint leaves none', () => {
    handshakeDone();
    expect(runPod(handshakeModel(4)).status).toBe(0);
    expect(renderScripts(handshakeModel(4))['entrypoint.sh']).not.toContain('runner_exit_file');
    expect(fs.readdirSync(sandbox.root).filter((f) => f.includes('runner'))).toEqual([]);
  });

  test('the default wait is rendered into the script and HANDSHAKE_WAIT_SECONDS must be a number', () => {
    const model = handshakeModel(4);
    expect(renderScripts(model)['entrypoint.sh']).toContain('seconds_from_env HANDSHAKE_WAIT_SECONDS \'600\'');
    const result = runPod(model, { hostname: 'flux-sample-1', env: { HANDSHAKE_WAIT_SECONDS: 'soon' } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("HANDSHAKE_WAIT_SECONDS must be a whole number of seconds, got 'soon'");
  });

  test.each([
    ['garbage'],
    ['0 flux-sample-0 10.0.0.1'],
    ['0 other-0 10.0.0.1 8050'],
    ['2 flux-sample-2 10.0.0.1 8050'],
    ['0 flux-sample-0 10.0.0.1" 8050'],
    ['0 flux-sample-0 10.0.0.1 99999'],
  ])('a malformed parent line (%s) is a clear error', (line) => {
    handshakeDone(line);
    const result = runPod(handshakeModel(4), { hostname: 'flux-sample-2' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('parent.env must name a rank below 2 with its IP and port');
    expect(sandbox.brokerCalls()).toHaveLength(0);
  });

  test('a broker.toml without the expected hosts line is a clear error at run time', () => {
    handshakeDone('0 flux-sample-0 10.0.0.1 8050');
    const model = handshakeModel(4);
    const scripts = renderScripts(model);
    expect(sandbox.runInit(scripts).status).toBe(0);
    const shared = `${sandbox.mount}/config/etc/flux/config/broker.toml`;
    fs.writeFileSync(shared, model.brokerToml.replace('hosts = [ {', 'hosts = [{'));
    const result = sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], { hostname: 'flux-sample-1' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`expected the line 'hosts = [ { host = "flux-sample-[0-3]" } ]' once in ${path.dirname(shared)}/broker.toml, found it 0 times`);
  });

  test('without the handshake, workers use the shared broker.toml as is', () => {
    expect(runPod(sampleModel(sandbox), { hostname: 'flux-sample-1' }).status).toBe(0);
    const [start] = sandbox.brokerCalls();
    expect(start.argv[3]).toBe(`${sandbox.mount}/config/etc/flux/config`);
    expect(start.brokerToml).toBe(sampleModel(sandbox).brokerToml);
  });
});
