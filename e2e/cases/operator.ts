/**
 * The Flux Operator's own end-to-end MiniClusters (../shared/data/flux-operator/tests), converted
 * with the CLI as a migrating user would (`cdk8s-minicluster synth -f`), with the operator's expected
 * lead output (test.out.correct: the lead's whole output, line for line) where it has one.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { loadInputs } from '../../lib/operator/command-input';
import { E2eCase, Expectation, HostNeeds, KubeVariant, RejectedCase, VolumeSeed } from '../case';
import { REPO_ROOT, sharedCandidates } from '../repo-root';
import { waitForNodes } from './flux-steps';
import { droppedBefore135 } from './image-volume-versions';
import { LAMMPS_LIMIT, LAMMPS_NEEDS, lammpsExpectation } from './images';

const CLI = path.join(REPO_ROOT, 'build', 'lib', 'cli', 'main.js');
const DATA_CANDIDATES = sharedCandidates('data', 'flux-operator', 'tests');

/** The operator's test folder, or undefined when ../shared is absent. */
export const OPERATOR_TESTS = DATA_CANDIDATES.find((d) => fs.existsSync(d));

/** What differs from the default (Job succeeds, every broker connects, test.out.correct if any). */
interface OperatorCaseSpec {
  readonly expect?: Partial<Expectation>;
  readonly needs?: HostNeeds;
  /** Read when the case is made (the files are in the operator's test data, absent in a bare clone). */
  readonly volumes?: () => VolumeSeed[];
  readonly timeout?: number;
  readonly machineLimit?: string;
  readonly patch?: E2eCase['patch'];
  /** More `cdk8s-minicluster synth` options, as a migrating user would pass them. */
  readonly synthArgs?: string[];
  /** What differs on a real cluster. */
  readonly kube?: KubeVariant;
}

/** The operator's test data file its volumes tests list (tests/data). */
const PANCAKES = (): Record<string, string> => ({ 'pancakes.txt': fs.readFileSync(path.join(OPERATOR_TESTS!, 'data', 'pancakes.txt'), 'utf8') });

/** A command the image has and this machine does not: Flux runs it, it is not found, the Job fails with 127. */
function missingProgram(reason: string): OperatorCaseSpec {
  return {
    machineLimit: reason,
    expect: { result: 'Failed', reason: /PodFailurePolicy/, leadExit: 127, leadOutput: [/not found|No such file/] },
  };
}

/**
 * Operator tests also run with the view as an image volume, as a migrating user would ask for it
 * (the CLI's options): flux-resource-list runs Flux's Python commands from the read-only tree.
 */
const IMAGE_VOLUME_RUNS: Record<string, string> = {
  // each with its Flux runner's container, which the fail-fast before 1.35 names
  'flux-resource-list/minicluster.yaml': 'flux-sample',
};
const IMAGE_VOLUME_ARGS = ['--view-source', 'image-volume', '--kubernetes-version', '1.35'];

const SPECS: Record<string, OperatorCaseSpec> = {
  'debug/minicluster.yaml': { expect: { leadOutput: [/^hello world$/m] } },
  // tasks 2 on 4 pods: -n2, one MPI run of 2 ranks; Flux comes from the application image.
  'disable-view/minicluster.yaml': { needs: LAMMPS_NEEDS('/home/flux/examples/reaxff/HNS'), machineLimit: LAMMPS_LIMIT, expect: lammpsExpectation('2 by 1 by 1') },
  'emptydir/minicluster-without.yaml': { expect: { leadOutput: [/^Filesystem .*\n.* \/dev\/shm$/m] } },
  // The memory emptyDir is its own file system at /dev/shm (podemu names its tmpfs podemu-emptydir).
  'emptydir/minicluster.yaml': {
    expect: { leadOutput: [/^podemu-emptydir .* \/dev\/shm$/m] },
    // The kubelet mounts a memory-backed emptyDir as a tmpfs named tmpfs.
    kube: { expect: { leadOutput: [/^tmpfs .* \/dev\/shm$/m] } },
  },
  'existing-volumes/minicluster.yaml': { volumes: () => [{ podemuKey: 'pvc-data', files: PANCAKES() }] },
  'flux-resource-list/minicluster.yaml': { expect: { leadOutput: [/^\s+free\s+4\s+\d+\s+0 flux-sample-\[0-3\]$/m] } },
  'flux-sidecar/minicluster.yaml': {
    timeout: 400,
    expect: { containerOutput: [{ container: 'flux-queue', patterns: [/^\s+JOBID\s+USER\s+NAME\s+ST/m, /\bsleep\s+R\b/] }] },
  },
  'lammps/minicluster.yaml': { needs: LAMMPS_NEEDS('/opt/lammps/examples/reaxff/HNS'), machineLimit: LAMMPS_LIMIT, expect: lammpsExpectation('2 by 1 by 1') },
  'lammps/interactive-minicluster.yaml': {
    expect: {
      result: 'Interrupted',
      exec: [waitForNodes(4, 'flux-sample-interactive')],
    },
  },
  // The lead curls nginx over localhost. nginx never exits: as a plain container it would keep the pods
  // (and the Job) running until the deadline, so it runs as a native sidecar, as the converter's warning says.
  // Debian's nginx serves its own welcome page, not the image's, so the title is checked, not test.out.correct.
  'nginx-sidecar-service/minicluster.yaml': {
    needs: { debianPackages: ['curl', 'nginx'] },
    synthArgs: ['--sidecar', 'nginx'],
    patch: {
      why: 'podemu has no rule for the nginx image (a container without `command` cannot start there): '
        + 'the nginx container gets the image\'s CMD, `nginx -g "daemon off;"`, as its command',
      apply: (docs) => {
        const nginx = docs.filter((d) => d?.kind === 'Job').flatMap((d) => d.spec.template.spec.initContainers ?? []).find((c: any) => c.name === 'nginx');
        if (!nginx) throw new Error('nginx-sidecar-service: no nginx container in the Job');
        nginx.command = ['nginx', '-g', 'daemon off;'];
      },
    },
    expect: { leadOutputExactly: undefined, leadOutput: [/<title>Welcome to nginx!<\/title>/] },
  },
  'osu-benchmarks/minicluster.yaml': missingProgram('the OSU micro-benchmarks of the image are not in Debian'),
  'pokemon/minicluster.yaml': missingProgram('the image\'s `pokemon` program (PyPI) is not in Debian'),
  'singularity/minicluster.yaml': {
    machineLimit: 'Singularity is not in Debian 12, and the pods have no egress to pull docker://ubuntu',
    expect: { result: 'Failed', reason: /PodFailurePolicy/, leadExit: 127, leadOutput: [/singularity: (command )?not found/] },
  },
  'timed/minicluster.yaml': { needs: { debianPackages: ['time'] }, expect: { leadOutput: [/^hello world$/m] } },
  'volumes/minicluster.yaml': { volumes: () => [{ podemuKey: 'hostpath_data', files: PANCAKES() }] },
};

/** Every operator test MiniCluster file: converted ones as cases, the others with the CLI's reason. */
export function operatorCases(): { cases: E2eCase[]; rejected: RejectedCase[] } {
  const cases: E2eCase[] = [];
  const rejected: RejectedCase[] = [];
  if (!OPERATOR_TESTS) return { cases, rejected };
  for (const dir of fs.readdirSync(OPERATOR_TESTS).sort()) {
    const full = path.join(OPERATOR_TESTS, dir);
    if (!fs.statSync(full).isDirectory()) continue;
    for (const name of fs.readdirSync(full).filter((n) => /\.ya?ml$/.test(n)).sort()) {
      const file = path.join(full, name);
      if (!/^kind:\s*MiniCluster\s*$/m.test(fs.readFileSync(file, 'utf8'))) continue;
      const relative = `${dir}/${name}`;
      // What `cdk8s-minicluster validate` checks, in process (the cases synthesize with the CLI itself).
      const { problems } = loadInputs({ filename: [file] });
      if (problems.length > 0) {
        rejected.push({ id: `operator ${relative}`, reason: problems.map(withoutPosition).join('; ') });
        continue;
      }
      cases.push(operatorCase(relative, file, dir));
      const runner = IMAGE_VOLUME_RUNS[relative];
      if (runner) cases.push(operatorCase(relative, file, dir, IMAGE_VOLUME_ARGS, runner));
    }
  }
  return { cases, rejected };
}

/** `imageVolumeRunner`: synthesized with the view as an image volume, whose runner container has that name. */
function operatorCase(relative: string, file: string, dir: string, moreArgs: string[] = [], imageVolumeRunner?: string): E2eCase {
  const spec = SPECS[relative] ?? {};
  const synthArgs = [...spec.synthArgs ?? [], ...moreArgs];
  const expected = path.join(OPERATOR_TESTS!, dir, 'test.out.correct');
  const exactly = spec.expect?.result === undefined && fs.existsSync(expected) ? fs.readFileSync(expected, 'utf8') : undefined;
  return {
    id: `operator ${relative}${moreArgs.length ? ` ${moreArgs.join(' ')}` : ''}`,
    synth: (out) => {
      const result = spawnSync(process.execPath, [CLI, 'synth', '-f', file, '-o', out, ...synthArgs], { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`cdk8s-minicluster synth -f ${relative} failed:\n${result.stderr}`);
      return fs.readdirSync(out).filter((n) => n.endsWith('.yaml')).sort().map((n) => path.join(out, n));
    },
    needs: spec.needs,
    volumes: spec.volumes?.(),
    podemu: { timeout: spec.timeout },
    machineLimit: spec.machineLimit,
    patch: spec.patch,
    kube: imageVolumeRunner ? { ...spec.kube, beforeMinor: droppedBefore135(imageVolumeRunner) } : spec.kube,
    note: synthArgs.length ? `synthesized with \`synth ${synthArgs.join(' ')}\`` : undefined,
    expect: { result: 'Succeeded', leadOutputExactly: exactly, ...spec.expect },
  };
}

/** A problem line without its file, position and document prefix. */
function withoutPosition(problem: string): string {
  return problem.replace(/^.*?: document \d+(?: \([^)]*\))?: /, '');
}
