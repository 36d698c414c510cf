import { STOPPED_EXIT_CODE } from '../../lib/core/runner-exit-codes';
import { ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { LeadMode, ScriptModel } from '../../lib/scripts/model';
import { fluxPaths } from '../../lib/core/paths';
import { renderScripts } from '../../lib/scripts/render';
import { shellQuote } from '../../lib/scripts/shell-quote';
import { BLOCK_UNTIL_TERM, brokerOptions, CERTIFICATE, Sandbox, sampleModel } from './harness';
import { ROOT, testIf } from '../support/requires';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = new Sandbox();
});
afterEach(() => {
  sandbox.remove();
});

/** Runs the pod's init container script (as root when the tests run as root), then the entrypoint. */
function runEntrypoint(model: ScriptModel, options: Parameters<Sandbox['run']>[2] = {}) {
  const scripts = renderScripts(model);
  const init = sandbox.runInit(scripts, { env: { FLUX_OPT_DIR: sandbox.image } });
  expect(init.stderr).toBe('');
  return sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], options);
}

/** The lead's initial program wrapper, first word of every program (lead-program.sh). */
function leadProgram(): string[] {
  return ['bash', path.join(sandbox.scripts, 'lead-program.sh')];
}

describe('entrypoint.sh, lead broker', () => {
  test('submit mode: hello world with 1 task is flux start … flux submit -n1 --quiet --watch echo hello world', () => {
    // GIVEN the operator's hello-world defaults
    const model = sampleModel(sandbox);
    // WHEN the lead runs its entrypoint
    const result = runEntrypoint(model);
    // THEN it exits 0 and the broker argv is exactly the operator's
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const [start] = sandbox.brokerCalls();
    expect(start.argv).toEqual([
      'start', '-o', '--config', `${sandbox.mount}/config/etc/flux/config`, ...brokerOptions(sandbox.mount),
      ...leadProgram(), 'flux', 'submit', '-n1', '--quiet', '--watch', 'echo', 'hello', 'world',
    ]);
  });

  test('submit mode: 4 tasks on 4 nodes, prefix, wrap and a custom submit command', () => {
    const model = sampleModel(sandbox, {
      submitFlags: '-N 4 -n4 -ompi=openmpi@5',
      submitCommand: 'flux mini submit',
      wrap: 'strace,-e,network,-tt',
      commands: { prefix: 'fusion --mode "a b"' },
    });
    expect(runEntrypoint(model).status).toBe(0);
    expect(sandbox.brokerCalls()[0].argv).toEqual([
      'start', '--wrap=strace,-e,network,-tt', '-o', '--config', `${sandbox.mount}/config/etc/flux/config`,
      ...brokerOptions(sandbox.mount), ...leadProgram(),
      'fusion', '--mode', 'a b', 'flux', 'mini', 'submit', '-N', '4', '-n4', '-ompi=openmpi@5', '--quiet', '--watch',
      'echo', 'hello', 'world',
    ]);
  });

  test('the command is parsed like a command line: quotes, $HOME and escapes arrive intact', () => {
    // GIVEN a command with double and single quotes, a literal and an expanded $HOME, a backtick and a newline
    const command = `printf '%s|' "a  b" '$HOME' $HOME "it's" 'back\`tick'\n  --last`;
    const model = sampleModel(sandbox, { command, leadMode: LeadMode.LAUNCHER });
    expect(runEntrypoint(model).status).toBe(0);
    // THEN the words are the shell's words of that line, evaluated on the lead at run time
    const argv = sandbox.brokerCalls()[0].argv;
    expect(argv.slice(argv.indexOf('-Slog-stderr-mode=local') + 1)).toEqual([
      ...leadProgram(), 'printf', '%s|', 'a  b', '$HOME', sandbox.home, "it's", 'back`tick', '--last',
    ]);
  });

  test('launcher mode: the command is the initial program', () => {
    const model = sampleModel(sandbox, { leadMode: LeadMode.LAUNCHER, command: 'snakemake --cores 1 --flux --jobs 1' });
    expect(runEntrypoint(model).status).toBe(0);
    expect(sandbox.brokerCalls()[0].argv).toEqual([
      'start', '-o', '--config', `${sandbox.mount}/config/etc/flux/config`, ...brokerOptions(sandbox.mount),
      ...leadProgram(), 'snakemake', '--cores', '1', '--flux', '--jobs', '1',
    ]);
  });

  test('batch mode: the lead submits one waitable job per line and writes their output to FLUX_OUTPUT_DIR', () => {
    // GIVEN two command lines (and a blank one), option flags for each job, and a working directory
    const model = sampleModel(sandbox, {
      leadMode: LeadMode.BATCH,
      command: 'echo hello world 1\n\necho "hello $USER" 2\n',
      submitFlags: '-N 2 -n2',
      batchJobFlags: '-o cpu-affinity=off',
      workingDir: sandbox.work,
    });
    // WHEN the lead runs
    expect(runEntrypoint(model).status).toBe(0);
    // THEN the batch program submits each line as a waitable job, waits for all, and collects their output
    const batchFile = path.join(sandbox.work, 'flux-job.batch');
    expect(fs.readFileSync(batchFile, 'utf8')).toBe(
      [
        '#!/bin/bash',
        'job_ids=()',
        'job_ids[0]=$(flux submit --flags waitable -o cpu-affinity=off echo hello world 1) || exit',
        'job_ids[1]=$(flux submit --flags waitable -o cpu-affinity=off echo "hello $USER" 2) || exit',
        'status=0',
        'flux job wait --all || status=$?',
        'for i in "${!job_ids[@]}"; do',
        '  flux job attach "${job_ids[$i]}" > "$FLUX_OUTPUT_DIR/job-$i.out" 2> "$FLUX_OUTPUT_DIR/job-$i.err"',
        'done',
        'flux jobs -a',
        'exit "$status"',
        '',
      ].join('\n'),
    );
    // AND it is the initial program, with FLUX_OUTPUT_DIR created
    const start = sandbox.brokerCalls()[0];
    const program = start.argv.slice(start.argv.indexOf('-Slog-stderr-mode=local') + 1);
    expect(program).toEqual([...leadProgram(), 'bash', batchFile]);
    expect(start.env.FLUX_OUTPUT_DIR).toBe(sandbox.logs);
    expect(fs.statSync(sandbox.logs).isDirectory()).toBe(true);
  });

  test.each([
    ['every job succeeded', '0', 0],
    ['a job failed', '1', 1],
  ])('the batch program, run with the fake flux, writes each job\'s output on the lead when %s', (_, waitCode, status) => {
    // GIVEN the batch program of two lines
    const model = sampleModel(sandbox, { leadMode: LeadMode.BATCH, command: 'echo one\necho two', workingDir: sandbox.work });
    expect(runEntrypoint(model).status).toBe(0);
    // WHEN it runs, and `flux job wait --all` reports the jobs' result
    const inner = sandbox.run('program.sh', `exec bash '${path.join(sandbox.work, 'flux-job.batch')}'\n`, {
      env: { FLUX_OUTPUT_DIR: sandbox.logs, FAKE_FLUX_WAIT_CODE: waitCode },
    });
    // THEN it exits with that result, after writing each job's output and errors by its index
    expect(inner.status).toBe(status);
    // (the fake flux numbers its calls from 1: a job's ID is f<call number>)
    const calls = sandbox.fluxCalls();
    const ids = calls.flatMap((c, i) => (c.argv[0] === 'submit' ? [i + 1] : []));
    expect(ids).toHaveLength(2);
    expect(fs.readFileSync(path.join(sandbox.logs, 'job-0.out'), 'utf8')).toBe(`output of f${ids[0]}\n`);
    expect(fs.readFileSync(path.join(sandbox.logs, 'job-1.out'), 'utf8')).toBe(`output of f${ids[1]}\n`);
    expect(fs.readFileSync(path.join(sandbox.logs, 'job-1.err'), 'utf8')).toBe(`errors of f${ids[1]}\n`);
    expect(sandbox.fluxCalls().slice(-3).map((c) => c.argv)).toEqual([
      ['job', 'attach', `f${ids[0]}`], ['job', 'attach', `f${ids[1]}`], ['jobs', '-a'],
    ]);
  });

  test('batch raw mode: the lines verbatim, run as one flux batch whose output the lead prints', () => {
    // GIVEN a raw batch script
    const model = sampleModel(sandbox, { leadMode: LeadMode.BATCH, batchRaw: true, command: 'flux run -n1 hostname\n', submitFlags: '-N 2 -n2', workingDir: sandbox.work });
    // WHEN the lead runs
    expect(runEntrypoint(model).status).toBe(0);
    // THEN the file holds the lines verbatim
    const batchFile = path.join(sandbox.work, 'flux-job.batch');
    expect(fs.readFileSync(batchFile, 'utf8')).toBe('#!/bin/bash\nflux run -n1 hostname\n');
    // AND the initial program submits it with the flags, output kept in the KVS, and attaches to it
    const start = sandbox.brokerCalls()[0];
    const program = start.argv.slice(start.argv.indexOf('-Slog-stderr-mode=local') + 1);
    expect(program.slice(0, 2)).toEqual(leadProgram());
    expect(program.slice(2)).toEqual([
      'bash', '-c', 'batch_id=$(flux batch --output=kvs "$@") && flux job attach "$batch_id"', 'flux-batch', '-N', '2', '-n2', batchFile,
    ]);
    const inner = sandbox.run('program.sh', `exec ${program.slice(2).map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ')}\n`, { env: { FAKE_FLUX_ATTACH_CODE: '4' } });
    // AND the lead prints the batch's output and ends with its exit code
    expect(inner.status).toBe(4);
    const batchCall = sandbox.fluxCalls().length - 1;
    expect(inner.stdout).toBe(`output of f${batchCall}\n`);
    expect(sandbox.fluxCalls().slice(-2).map((c) => c.argv)).toEqual([
      ['batch', '--output=kvs', '-N', '2', '-n2', batchFile],
      ['job', 'attach', `f${batchCall}`],
    ]);
  });

  test('interactive mode runs flux broker with the config path', () => {
    const model = sampleModel(sandbox, { leadMode: LeadMode.INTERACTIVE, command: undefined });
    expect(runEntrypoint(model).status).toBe(0);
    expect(sandbox.brokerCalls()[0].argv).toEqual([
      'broker', '--config-path', `${sandbox.mount}/config/etc/flux/config`, ...brokerOptions(sandbox.mount),
    ]);
  });

  test('a script is written to a private file (0700) and run with bash', () => {
    const script = `#!/bin/bash\necho "it's $HOME" \`date\`\n`;
    const model = sampleModel(sandbox, { command: undefined, script });
    expect(runEntrypoint(model).status).toBe(0);
    const file = `${sandbox.mount}/config/job/script.sh`;
    expect(sandbox.brokerCalls()[0].argv.slice(-2)).toEqual(['bash', file]);
    expect(fs.readFileSync(file, 'utf8')).toBe(script);
    expect(fs.statSync(file).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  test('a bash the broker starts is at shell level 2, so it does not read ~/.bashrc as an rsh session', () => {
    // GIVEN the entrypoint, started by the container runtime with no SHLVL (bash makes it 1)
    // WHEN it starts Flux in the background (bash would lower SHLVL to 0 for it)
    expect(runEntrypoint(sampleModel(sandbox)).status).toBe(0);
    // THEN the broker gets level 1, so a bash it starts (the fake flux is one) is at level 2: bash reads
    // ~/.bashrc for stdin on a socket only below 2 (Debian's SSH_SOURCE_BASHRC)
    expect(sandbox.brokerCalls()[0].env.SHLVL).toBe('2');
  });

  test("the lead's exit code is Flux's exit code, after post runs", () => {
    const model = sampleModel(sandbox, { commands: { post: 'echo post ran > "$HOME/post.txt"' } });
    const result = runEntrypoint(model, { startCodes: '3' });
    expect(result.status).toBe(3);
    expect(fs.readFileSync(path.join(sandbox.home, 'post.txt'), 'utf8')).toBe('post ran\n');
  });

  test.each([
    ['Flux succeeded: the post step\'s code', '0', 2],
    ['Flux failed: Flux\'s code', '3', 3],
  ])('a failing post step on the lead is reported and fails the container; %s', (_, startCode, status) => {
    // GIVEN a post step that checks an output file that does not exist
    const model = sampleModel(sandbox, { commands: { post: 'ls /no/such/output' } });
    // WHEN the lead runs
    const result = runEntrypoint(model, { startCodes: startCode });
    // THEN the failure is reported with the step's exit code, and the container exits non-zero
    expect(result.stderr).toContain('entrypoint: error: commands.post failed with exit code 2\n');
    expect(result.status).toBe(status);
  });

  test('strict mode still runs post and propagates a failing exit code', () => {
    const model = sampleModel(sandbox, { strict: true, commands: { post: 'touch "$HOME/post-ran"' } });
    expect(runEntrypoint(model, { startCodes: '5' }).status).toBe(5);
    expect(fs.existsSync(path.join(sandbox.home, 'post-ran'))).toBe(true);
  });

  test('commands run at the operator points, in this order, and pre can export variables for Flux', () => {
    const log = path.join(sandbox.home, 'hooks.log');
    const hook = (name: string) => `echo ${name} >> "${log}"`;
    const model = sampleModel(sandbox, {
      commands: { init: hook('init'), pre: `${hook('pre')}; export FROM_PRE=yes`, brokerPre: hook('brokerPre'), workerPre: hook('workerPre'), post: hook('post') },
    });
    expect(runEntrypoint(model).status).toBe(0);
    expect(fs.readFileSync(log, 'utf8')).toBe('init\npre\nbrokerPre\npost\n');
    expect(sandbox.brokerCalls()[0].env.FROM_PRE).toBe('yes');
  });

  test('timed mode wraps flux start and flux submit with /usr/bin/time, or exits when it is missing', () => {
    const model = sampleModel(sandbox, { timed: true });
    const result = runEntrypoint(model);
    if (fs.existsSync('/usr/bin/time')) {
      expect(result.status).toBe(0);
      expect(result.stderr).toMatch(/^FLUXTIME fluxstart wall time \d+:\d+\.\d+$/m);
      // The fake flux start does not run its program, so the inner time wrapper shows up in argv.
      const argv = sandbox.brokerCalls()[0].argv;
      expect(argv.slice(argv.indexOf('-Slog-stderr-mode=local') + 1, -6)).toEqual([
        ...leadProgram(), '/usr/bin/time', '-f', 'FLUXTIME fluxsubmit wall time %E', 'flux', 'submit',
      ]);
    } else {
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('logging.timed needs /usr/bin/time');
    }
  });

  test('quiet mode silences the script but not the job or errors', () => {
    const model = sampleModel(sandbox, { quiet: true, commands: { pre: 'echo job output' } });
    const result = runEntrypoint(model);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('job output\n');
    expect(runEntrypoint(sampleModel(sandbox, { quiet: false })).stdout).toContain('entrypoint: starting the lead broker');
  });

  test('content.restore is added only when the archive exists', () => {
    const archivePath = path.join(sandbox.root, 'archive.sqlite');
    const model = sampleModel(sandbox, { archivePath });
    runEntrypoint(model);
    fs.writeFileSync(archivePath, 'x');
    runEntrypoint(model);
    const [first, second] = sandbox.brokerCalls();
    expect(first.argv).not.toContain(`-Scontent.restore=${archivePath}`);
    expect(second.argv).toContain(`-Scontent.restore=${archivePath}`);
    expect(second.argv.indexOf(`-Scontent.restore=${archivePath}`)).toBe(second.argv.indexOf('-Slog-stderr-mode=local') + 1);
  });
});

describe('entrypoint.sh, worker brokers', () => {
  const worker = { hostname: 'flux-sample-2' };

  test('a worker runs flux start with no program and stops when it exits 0', () => {
    const model = sampleModel(sandbox);
    const result = runEntrypoint(model, worker);
    expect(result.status).toBe(0);
    expect(sandbox.brokerCalls().map((c) => c.argv)).toEqual([
      ['start', '-o', '--config', `${sandbox.mount}/config/etc/flux/config`, ...brokerOptions(sandbox.mount)],
    ]);
  });

  test('a worker restarts after exit 1 (a new leader) and stops on exit 0', () => {
    const result = runEntrypoint(sampleModel(sandbox), { ...worker, startCodes: '1 1 0' });
    expect(result.status).toBe(0);
    expect(sandbox.brokerCalls()).toHaveLength(3);
  });

  test('with workerMaxRestarts a worker gives up after that many restarts, with a message and a non-zero code', () => {
    const model = sampleModel(sandbox, { workerMaxRestarts: 2, commands: { post: 'touch "$HOME/post-ran"' } });
    const result = runEntrypoint(model, { ...worker, startCodes: '1' });
    expect(sandbox.brokerCalls()).toHaveLength(3);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('the worker broker failed again (exit code 1) after 2 restarts: giving up (workerMaxRestarts is 2)');
    expect(fs.existsSync(path.join(sandbox.home, 'post-ran'))).toBe(true);
  });

  test("a worker's failing post step is reported but does not fail it (the outputs it checks may be on the lead)", () => {
    // GIVEN a post step that fails on a worker
    const model = sampleModel(sandbox, { commands: { post: 'ls /no/such/output' } });
    // WHEN the worker's broker exits cleanly
    const result = runEntrypoint(model, worker);
    // THEN the worker exits 0, and says that the step failed
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('entrypoint: error: commands.post failed with exit code 2\n');
  });

  test('with completeWorkers a worker stops after its first exit, whatever the code', () => {
    const result = runEntrypoint(sampleModel(sandbox, { completeWorkers: true }), { ...worker, startCodes: '1 0' });
    expect(result.status).toBe(0);
    expect(sandbox.brokerCalls()).toHaveLength(1);
  });

  test('workers run workerPre, not brokerPre', () => {
    const log = path.join(sandbox.home, 'hooks.log');
    const model = sampleModel(sandbox, { commands: { brokerPre: `echo brokerPre >> "${log}"`, workerPre: `echo workerPre >> "${log}"` } });
    expect(runEntrypoint(model, worker).status).toBe(0);
    expect(fs.readFileSync(log, 'utf8')).toBe('workerPre\n');
  });

  test('JOB_COMPLETION_INDEX gives the rank when the hostname does not', () => {
    const model = sampleModel(sandbox, { leadMode: LeadMode.LAUNCHER, command: 'true' });
    runEntrypoint(model, { hostname: 'elsewhere', env: { JOB_COMPLETION_INDEX: '1' } });
    expect(sandbox.brokerCalls()[0].argv).not.toContain('true');
    const result = runEntrypoint(model, { hostname: 'elsewhere' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("hostname 'elsewhere' is not flux-sample-<index> and JOB_COMPLETION_INDEX is not set");
  });
});

describe('entrypoint.sh, signals', () => {
  // Real brokers exit 0 on SIGTERM; the kubelet makes a deleted pod whose containers exited 0
  // Succeeded, which completes its index (no replacement) or, for the lead, the whole Job.
  const EXIT_0_ON_TERM = BLOCK_UNTIL_TERM.replace('exit 143', 'exit 0');

  test.each([
    ['the lead', 'flux-sample-0', 143, {}],
    ['a worker', 'flux-sample-1', 143, {}],
    ['the lead', 'flux-sample-0', 0, {}],
    ['a worker', 'flux-sample-1', 0, {}],
    ['a rejoining worker', 'flux-sample-1', 0, { workerRejoins: true }],
  ])('SIGTERM to %s whose broker exits %s reaches the broker, which is not restarted, post still runs, and the container exits the stopped code (75)', async (_, hostname, brokerExit, overrides) => {
    // GIVEN a running broker (the script is the container's PID 1 in a pod)
    const model = sampleModel(sandbox, { ...overrides, commands: { post: 'touch "$HOME/post-ran"' } });
    const scripts = renderScripts(model);
    expect(sandbox.runInit(scripts).status).toBe(0);
    const onStart = brokerExit === 0 ? EXIT_0_ON_TERM : BLOCK_UNTIL_TERM;
    const { child, done } = sandbox.start('entrypoint.sh', scripts['entrypoint.sh'], { hostname, onStart });
    await sandbox.waitForCallFile('blocking', child);
    // WHEN the pod is deleted (evicted, or reaped by the Job)
    child.kill('SIGTERM');
    const result = await done;
    // THEN the broker got the signal and nothing restarted; the container fails whatever the
    // broker's code, with the code the Job's podFailurePolicy ignores: an evicted pod, or every pod
    // of a Job that Kueue suspends (no DisruptionTarget then), is replaced, uncounted
    expect(fs.readFileSync(path.join(sandbox.calls, 'signal'), 'utf8')).toBe('TERM\n');
    expect(result.status).toBe(STOPPED_EXIT_CODE);
    expect(sandbox.brokerCalls()).toHaveLength(1);
    expect(fs.existsSync(path.join(sandbox.home, 'post-ran'))).toBe(true);
  });

  test.each([
    ['released (a shrink drained it and gave its index up)', 'flux-sample-1', true, 0],
    ['not released (an eviction)', 'flux-sample-1', false, STOPPED_EXIT_CODE],
    ['the lead, even with a marker', 'flux-sample-0', true, STOPPED_EXIT_CODE],
  ])('an elastic cluster: SIGTERM to a worker %s', async (_, hostname, released, code) => {
    // GIVEN an elastic cluster's broker running, and a marker left on its rank after it started or not
    const model = sampleModel(sandbox, { elastic: true });
    const scripts = renderScripts(model);
    expect(sandbox.runInit(scripts).status).toBe(0);
    const marker = path.join(sandbox.mount, 'config', 'released');
    fs.writeFileSync(marker, 'left by an earlier run of the container');
    const onStart = `${released ? `touch '${marker}'; ` : ''}${BLOCK_UNTIL_TERM}`;
    const { child, done } = sandbox.start('entrypoint.sh', scripts['entrypoint.sh'], { hostname, onStart });
    await sandbox.waitForCallFile('blocking', child);
    // WHEN the Job deletes its pod
    child.kill('SIGTERM');
    // THEN only a released worker exits 0 (an out-of-range index's Succeeded pod fails nothing);
    // an earlier run's marker was removed at the start and does not count
    expect((await done).status).toBe(code);
  });

  test.each([true, false])('GIVEN strict=%s THEN the first commands trap TERM and INT: bash as PID 1 drops an untrapped signal, and a pod deleted as it starts would wait out its grace period', (strict) => {
    // GIVEN the rendered entrypoint, as the container's PID 1 runs it
    const text = renderScripts(sampleModel(sandbox, { strict }))['entrypoint.sh'];
    // WHEN its commands are read in order (comments, blank lines and directives are not commands)
    const commands = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    // THEN nothing runs before the two traps: SIGTERM ends the script with the stopped code, SIGINT with 130
    expect(commands.slice(0, 3)).toEqual([`stopped_exit_code='${STOPPED_EXIT_CODE}'`, 'trap \'exit "$stopped_exit_code"\' TERM', "trap 'exit 130' INT"]);
  });

  test.each([['the lead', 'flux-sample-0'], ['a worker', 'flux-sample-1']])('SIGTERM to %s whose young broker ignores it (flux-core while it loads its builtins) is repeated, and the container exits the stopped code', async (_, hostname) => {
    // GIVEN a broker that ignores its first SIGTERM, as flux-core does in its load-builtins state
    const scripts = renderScripts(sampleModel(sandbox));
    expect(sandbox.runInit(scripts).status).toBe(0);
    const deafOnce = 'trap \'if [ -e "$calls/ignored" ]; then echo TERM > "$calls/signal"; kill "$sleeper"; exit 0; fi; touch "$calls/ignored"\' TERM; '
      + 'sleep 60 & sleeper=$!; touch "$calls/blocking"; while kill -0 "$sleeper" 2>/dev/null; do wait "$sleeper"; done';
    const { child, done } = sandbox.start('entrypoint.sh', scripts['entrypoint.sh'], { hostname, onStart: deafOnce });
    await sandbox.waitForCallFile('blocking', child);
    // WHEN the pod is deleted as the broker starts
    child.kill('SIGTERM');
    const result = await done;
    // THEN the broker was told twice and stopped (not left running for the grace period's SIGKILL)
    expect(fs.existsSync(path.join(sandbox.calls, 'ignored'))).toBe(true);
    expect(fs.readFileSync(path.join(sandbox.calls, 'signal'), 'utf8')).toBe('TERM\n');
    expect(result.status).toBe(STOPPED_EXIT_CODE);
    expect(sandbox.brokerCalls()).toHaveLength(1);
  });

  test('with workerRejoins a worker starts its broker again after a clean exit, until the pod is stopped', async () => {
    // GIVEN workers that rejoin (successPolicy), and an instance that ends twice (its lead evicted)
    const scripts = renderScripts(sampleModel(sandbox, { quiet: false, workerRejoins: true, workerRestartDelaySeconds: 0 }));
    expect(sandbox.runInit(scripts).status).toBe(0);
    const onStart = `if [ "$s" -ge 3 ]; then ${BLOCK_UNTIL_TERM}; fi`;
    const { child, done } = sandbox.start('entrypoint.sh', scripts['entrypoint.sh'], { hostname: 'flux-sample-1', onStart });
    // WHEN the third broker runs and the Job reaps the pod (the lead succeeded)
    await sandbox.waitForCallFile('blocking', child);
    child.kill('SIGTERM');
    const result = await done;
    // THEN the worker waited for a lead after each clean exit, and the reaping is not a success
    expect(sandbox.brokerCalls()).toHaveLength(3);
    expect(result.stdout.match(/the worker broker exited cleanly: waiting for a lead/g)).toHaveLength(2);
    expect(result.status).toBe(STOPPED_EXIT_CODE);
  });

  test('with workerRejoins a worker whose broker ends after the lead\'s program said so exits 0 at once; a marker from before its start does not count', async () => {
    // GIVEN a stale marker from an earlier broker of this pod, and a lead whose program ends during the first broker's run
    const scripts = renderScripts(sampleModel(sandbox, { quiet: false, workerRejoins: true, workerRestartDelaySeconds: 0 }));
    expect(sandbox.runInit(scripts).status).toBe(0);
    const marker = fluxPaths(sandbox.mount).finishedMarker;
    fs.mkdirSync(path.dirname(marker), { recursive: true });
    fs.writeFileSync(marker, '');
    const onStart = `if [ "$s" -eq 2 ]; then touch ${shellQuote(marker)}; fi`;
    // WHEN the worker runs
    const result = await sandbox.start('entrypoint.sh', scripts['entrypoint.sh'], { hostname: 'flux-sample-1', onStart }).done;
    // THEN the first clean exit waits for a lead (the stale marker was removed), the second ends the worker
    expect(sandbox.brokerCalls()).toHaveLength(2);
    expect(result.stdout).toMatch(/the worker broker exited cleanly: waiting for a lead/);
    expect(result.stdout).toMatch(/the worker broker exited cleanly after the lead's program ended: done/);
    expect(result.status).toBe(0);
  });

  test('a signal during the wait before a restart ends the worker at once with the stopped code', async () => {
    // GIVEN a worker waiting 10 minutes before it restarts its broker (a jest timeout if the trap waits too)
    const scripts = renderScripts(sampleModel(sandbox, { quiet: false, workerRejoins: true, workerRestartDelaySeconds: 600 }));
    expect(sandbox.runInit(scripts).status).toBe(0);
    const { child, done } = sandbox.start('entrypoint.sh', scripts['entrypoint.sh'], { hostname: 'flux-sample-1' });
    await waitForOutput(child, 'restarting in 600s');
    // WHEN the pod is deleted
    child.kill('SIGTERM');
    // THEN the container ends with the signal's code, without starting another broker
    expect((await done).status).toBe(STOPPED_EXIT_CODE);
    expect(sandbox.brokerCalls()).toHaveLength(1);
  });

  test.each([['the lead', 'flux-sample-0'], ['a worker', 'flux-sample-1']])('GIVEN %s whose Flux exits the stopped code of its own THEN the container exits 1 and says why: a real failure is never ignored by the Job', async (_, hostname) => {
    // GIVEN a broker (for the lead: its program) that ends with 75 without any signal
    const scripts = renderScripts(sampleModel(sandbox, { workerMaxRestarts: 1, workerRestartDelaySeconds: 0 }));
    expect(sandbox.runInit(scripts).status).toBe(0);
    // WHEN the container runs
    const result = await sandbox.start('entrypoint.sh', scripts['entrypoint.sh'], { hostname, onStart: `exit ${STOPPED_EXIT_CODE}` }).done;
    // THEN it fails with 1, which the Job's FailJob rule takes, and names the reserved code
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`Flux or the program exited ${STOPPED_EXIT_CODE}, the code this container keeps for a pod stopped by Kubernetes: exiting 1 instead`);
  });
});

/** Resolves once `child` printed `text` on its standard output. */
function waitForOutput(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) resolve();
    });
  });
}

describe('entrypoint.sh, files it prepares', () => {
  test('the certificate is copied to a 0600 file with identical content, never printed', () => {
    const result = runEntrypoint(sampleModel(sandbox));
    const copy = `${sandbox.mount}/config/curve/curve.cert`;
    expect(fs.readFileSync(copy, 'utf8')).toBe(CERTIFICATE);
    expect(fs.statSync(copy).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(copy)).mode & 0o777).toBe(0o700);
    expect(result.stdout + result.stderr).not.toContain('secret-key');
    // No temp files are left next to it.
    expect(fs.readdirSync(path.dirname(copy))).toEqual(['curve.cert']);
  });

  test('the certificate is read through a symlink (the Secret ..data layout) and a restart rewrites it', () => {
    const data = path.join(sandbox.root, 'secret', '..data');
    fs.mkdirSync(data);
    fs.writeFileSync(path.join(data, 'curve.cert'), CERTIFICATE, { mode: 0o400 });
    const link = path.join(sandbox.root, 'secret', 'linked.cert');
    fs.symlinkSync('..data/curve.cert', link);
    const model = sampleModel(sandbox, { certificatePath: link });
    expect(runEntrypoint(model).status).toBe(0);
    expect(runEntrypoint(model).status).toBe(0);
    const copy = `${sandbox.mount}/config/curve/curve.cert`;
    expect(fs.lstatSync(copy).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(copy, 'utf8')).toBe(CERTIFICATE);
  });

  test('a missing certificate is a clear error before Flux starts', () => {
    const result = runEntrypoint(sampleModel(sandbox, { certificatePath: '/nonexistent/curve.cert' }));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('the CURVE certificate /nonexistent/curve.cert is missing or unreadable');
    expect(sandbox.brokerCalls()).toHaveLength(0);
  });

  test('R is the output of flux R encode --hosts=<hostlist> <resourceEncodeArgs>', () => {
    const model = sampleModel(sandbox, { resourceEncodeArgs: ['--cores=0-3', '--gpu=0'] });
    expect(runEntrypoint(model).status).toBe(0);
    const encode = sandbox.fluxCalls().find((c) => c.argv[0] === 'R');
    expect(encode?.argv).toEqual(['R', 'encode', '--hosts=flux-sample-[0-3]', '--cores=0-3', '--gpu=0']);
    const rFile = `${sandbox.mount}/config/etc/flux/system/R`;
    expect(fs.readFileSync(rFile, 'utf8')).toBe('{"fake-R":"--hosts=flux-sample-[0-3] --cores=0-3 --gpu=0"}\n');
    expect(fs.readdirSync(path.dirname(rFile)).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  test('a missing flux is a clear error', () => {
    const result = runEntrypoint(sampleModel(sandbox), { env: { PATH: '/usr/bin:/bin', JOB_COMPLETION_INDEX: '0' } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('entrypoint: error: flux is not on PATH (/usr/bin:/bin): without the flux view, the application image must bring Flux');
  });

  test('the broker directories are created private to the user', () => {
    expect(runEntrypoint(sampleModel(sandbox)).status).toBe(0);
    for (const dir of ['run/flux', 'var/lib/flux', 'etc/flux/system/cron.d']) {
      expect(fs.statSync(`${sandbox.mount}/config/${dir}`).mode & 0o777).toBe(0o700);
    }
  });

  test('flux-view.sh and flux-connect.sh hold the view environment, the socket and the extra variables', () => {
    // GIVEN the view enabled (the init script copied the fake view image) and extra environment with
    // shell metacharacters
    const model = sampleModel(sandbox, {
      viewDisabled: false,
      fluxEnvironment: [['GREETING', "it's $HOME `x`"], ['OMPI_MCA_x', 'a b']],
    });
    // WHEN the entrypoint runs
    expect(runEntrypoint(model).status).toBe(0);
    // THEN the runner finds the install tree the init container copied into the volume at /opt/software,
    // and Flux ran with the view appended to PATH
    expect(fs.readFileSync(`${sandbox.opt}/software/linux-x86_64/flux-core-0.88.0/bin/flux`, 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    const env = sandbox.brokerCalls()[0].env;
    expect(env.PATH).toBe(`${sandbox.bin}:/usr/local/bin:/usr/bin:/bin:${sandbox.mount}/view/bin`);
    expect(env.LD_LIBRARY_PATH).toBe(`${sandbox.mount}/view/lib`);
    expect(env.PYTHONPATH).toBe(`${sandbox.mount}/view/lib/python3.11/site-packages`);
    expect(env.FLUX_RC_EXTRA).toBe(`${sandbox.mount}/view/etc/flux/rc1.d`);
    expect(env.GREETING).toBe("it's $HOME `x`");
    // AND flux-view.sh, sourced by another shell, gives the same environment and fluxsocket
    const probe = sandbox.run('probe.sh', `. '${sandbox.mount}/flux-view.sh'\nprintf '%s\\n' "$fluxsocket" "$GREETING" "$OMPI_MCA_x"\n`);
    expect(probe.stdout).toBe(`local://${sandbox.mount}/config/run/flux/local\nit's $HOME \`x\`\na b\n`);
    const connect = fs.readFileSync(`${sandbox.mount}/flux-connect.sh`, 'utf8');
    expect(connect).toContain('flux proxy "$fluxsocket" bash');
    expect(fs.statSync(`${sandbox.mount}/flux-connect.sh`).mode & 0o777).toBe(0o755);
  });

  test('simpleScheduler or a disabled view leaves FLUX_RC_EXTRA and the view paths out', () => {
    expect(runEntrypoint(sampleModel(sandbox, { viewDisabled: false, simpleScheduler: true })).status).toBe(0);
    expect(runEntrypoint(sampleModel(sandbox, { viewDisabled: true })).status).toBe(0);
    const [simple, disabled] = sandbox.brokerCalls();
    expect(simple.env.FLUX_RC_EXTRA).toBeUndefined();
    expect(simple.env.PATH.endsWith('/view/bin')).toBe(true);
    expect(disabled.env.PATH).toBe(`${sandbox.bin}:/usr/local/bin:/usr/bin:/bin`);
    expect(disabled.env.FLUX_RC_EXTRA).toBeUndefined();
  });

  test('with the view, a runner whose /opt/software volume is empty fails and says why', () => {
    // GIVEN the view enabled, but nothing copied into the software volume (FLUX_OPT_DIR: a new empty /opt)
    const model = sampleModel(sandbox, { viewDisabled: false });
    const scripts = renderScripts(model);
    sandbox.mountConfigMap(scripts);
    const emptyOpt = path.join(sandbox.root, 'empty-opt');
    fs.mkdirSync(path.join(emptyOpt, 'software'), { recursive: true });
    // WHEN the entrypoint runs
    const result = sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], { env: { FLUX_OPT_DIR: emptyOpt } });
    // THEN it fails before Flux, naming the volume and who fills it
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`entrypoint: error: ${emptyOpt}/software is empty: the flux view init container copies the Flux install tree into the volume mounted there\n`);
    expect(sandbox.brokerCalls()).toEqual([]);
  });

  test('HOME falls back to a private directory under the mount when it is /', () => {
    expect(runEntrypoint(sampleModel(sandbox), { env: { HOME: '/' } }).status).toBe(0);
    const home = `${sandbox.mount}/home-${process.getuid!()}`;
    expect(sandbox.brokerCalls()[0].env.HOME).toBe(home);
    expect(fs.statSync(home).mode & 0o777).toBe(0o700);
  });

  testIf(ROOT, 'runs as a non-root user with an fsGroup-readable certificate', () => {
    // GIVEN the init script ran as root, the certificate is readable through the group only (as with
    // fsGroup) and HOME is /
    fs.chownSync(sandbox.certificate, 0, 4242);
    fs.chmodSync(sandbox.certificate, 0o440);
    fs.chmodSync(path.dirname(sandbox.certificate), 0o755);
    // WHEN uid 4242, which has no passwd entry, runs the entrypoint
    const result = runEntrypoint(sampleModel(sandbox, { strict: true }), { uid: 4242, env: { HOME: '/' } });
    // THEN it works, and its private files belong to it with private modes
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const copy = `${sandbox.mount}/config/curve/curve.cert`;
    expect(fs.statSync(copy).uid).toBe(4242);
    expect(fs.statSync(copy).mode & 0o777).toBe(0o600);
    expect(sandbox.brokerCalls()[0].env.HOME).toBe(`${sandbox.mount}/home-4242`);
  });
});
