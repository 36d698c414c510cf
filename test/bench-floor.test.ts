/**
 * The benchmarks' floor (issue 37): the bare Indexed Job measured beside each MiniCluster, the image
 * it takes from the MiniCluster's runner, and the cells that print a figure over it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FluxViewSource } from '../lib';
import { floorJob, runnerImage } from '../bench/floor';
import { floorCell, xFloorCell } from '../bench/floor-ratio';
import { scaleCluster } from '../e2e/cases/scale';
import { readDocs } from '../e2e/manifests';
import { expectValidManifests } from './support/k8s-validate';

describe('floorJob', () => {
  test('is a valid Indexed Job of N pods, each running `true` once', () => {
    // GIVEN a size and an image WHEN the floor Job is made
    const job = floorJob('floor', 'bench', 16, 'ubuntu:noble');
    // THEN it is valid for the oldest, the default and the newest Kubernetes the tests know
    for (const kubernetesVersion of ['1.27', '1.34', '1.36']) expectValidManifests([job], { kubernetesVersion });
    // AND it is the floor: Indexed, N at once, one container running `true`, never restarted
    expect(job.metadata).toEqual({ name: 'floor', namespace: 'bench' });
    expect(job.spec).toMatchObject({ completionMode: 'Indexed', completions: 16, parallelism: 16 });
    expect(job.spec.template.spec).toEqual({
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      containers: [{ name: 'floor', image: 'ubuntu:noble', imagePullPolicy: 'IfNotPresent', command: ['true'], resources: { requests: { cpu: '5m' } } }],
    });
  });
});

describe('runnerImage', () => {
  test('is the image of the MiniCluster runner the benchmark synthesized', () => {
    // GIVEN the scale benchmark's MiniCluster, synthesized
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-floor-'));
    try {
      const docs = readDocs(scaleCluster(dir, 4, FluxViewSource.IMAGE_VOLUME));
      // WHEN the floor's image is taken from it THEN it is the runner's, not the view's or the sidecar's
      expect(runnerImage(docs)).toBe('ubuntu:noble');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('floor cells', () => {
  test('floor (s) is the median of the floor rounds', () => {
    // GIVEN three floor rounds WHEN printed with one and two decimals THEN the median
    expect(floorCell([4.35, 3.26, 4.25], 2)).toBe('4.25');
    expect(floorCell([54.31], 1)).toBe('54.3');
  });

  test('x floor is the median of the per-round ratios, not the ratio of the medians', () => {
    // GIVEN rounds where the machine got slower for both sides alike
    const floors = [2, 4, 8];
    const values = [3, 6, 20];
    // WHEN the x floor cell is printed THEN it is the median of 1.5, 1.5 and 2.5
    expect(xFloorCell(values, floors)).toBe('1.50');
    // AND an even number of rounds takes the mean of the middle two: 1.5 and 2.5
    expect(xFloorCell([3, 10], [2, 4])).toBe('2.00');
  });

  test('rounds without a figure are left out, and none at all is n/a', () => {
    // GIVEN a figure some rounds could not date (every broker up, null)
    // WHEN the cell is printed THEN only the dated rounds count
    expect(xFloorCell([null, 9, 12], [3, 3, 4])).toBe('3.00');
    // AND with none dated it says so
    expect(xFloorCell([null, null], [3, 4])).toBe('n/a');
  });

  test('a figure and a floor of different rounds are refused', () => {
    // GIVEN two figures and three floors WHEN paired THEN an error names the counts
    expect(() => xFloorCell([1, 2], [1, 2, 3])).toThrow('2 values but 3 floors');
  });
});
