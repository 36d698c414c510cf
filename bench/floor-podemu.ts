/** The floor Job (floor.ts) in the pod emulator, for bench:bringup and bench:scale. */
import * as fs from 'fs';
import * as path from 'path';
import { Engines, PodemuOptions, PodemuRun } from '../e2e/podemu';
import { writeDocs } from '../e2e/manifests';
import { floorJob } from './floor';

const FLOOR = 'floor';

/** Writes the floor Job of `size` pods into `dir`; returns the file. */
export function floorFile(dir: string, size: number, image: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return writeDocs(path.join(dir, 'floor.yaml'), [floorJob(FLOOR, 'default', size, image)]);
}

/**
 * Runs the floor Job of `file` with the scenario's options (stagger, DNS) as the MiniCluster runs
 * it; returns what podemu can measure: seconds from the first pod's start to the Job's success.
 */
export async function podemuFloor(engines: Engines, file: string, options: Omit<PodemuOptions, 'manifests' | 'job'>): Promise<number> {
  fs.rmSync(options.logs, { recursive: true, force: true });
  const run = new PodemuRun(engines, { ...options, manifests: [file], job: FLOOR });
  const s = await run.finished();
  if (s.result !== 'Succeeded' || s.wall_time_s === null) throw new Error(`floor: ${s.result} (${s.reason}); logs in ${options.logs}\n${run.console}`);
  return s.wall_time_s;
}
