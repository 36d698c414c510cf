/**
 * The content of the flux-view image volume, prepared before the timed runs of bench:bringup.
 *
 * podemu prepares the flux-view image that the copy variants' init containers run before a Job
 * starts, but builds an image volume's content (a hard-linked copy of the Flux install and the
 * view's symlink tree) only when the first pod mounts it: inside the measured time, and under the
 * lock its pods take to log, so every pod's sandbox waits for it (1.4 s at N = 16 in one run,
 * docs/scale.md). On a node both images are pulled before their containers start. So one untimed
 * run of the image-volume Job keeps podemu's workdir, and the timed runs get that content, built
 * by podemu itself, with `--image-root`. BRINGUP_IMAGE_ROOT=podemu measures podemu's own way.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { Engines, PodemuRun } from '../../e2e/podemu';

/** Where podemu's workdir keeps the flux-view layout it builds for an image volume (podemu.py, `flux_view_image_root`). */
const PODEMU_VIEW_ROOT = path.join('image', 'flux-view-root');

/** A Job to run in podemu: its manifests, the Secrets that come beside them, its name. */
export interface JobInput {
  readonly manifests: string[];
  readonly secrets: string[];
  readonly job: string;
}

/** The image volumes' references of the Job's pods in these manifests. */
export function imageVolumeReferences(manifests: readonly string[], job: string): string[] {
  const refs = new Set<string>();
  for (const file of manifests) {
    for (const doc of parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => d.toJS())) {
      if (doc?.kind !== 'Job' || doc.metadata?.name !== job) continue;
      for (const v of doc.spec?.template?.spec?.volumes ?? []) {
        if (v.image?.reference) refs.add(v.image.reference);
      }
    }
  }
  return [...refs].sort();
}

/** Refuses to delete a directory that has anything mounted below it (a bind of the real Flux install). */
function removeUnmounted(dir: string): void {
  const mounted = fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n')
    .map((line) => line.split(' ')[4]).filter((point) => point && (point === dir || point.startsWith(dir + '/')));
  if (mounted.length > 0) throw new Error(`not removing ${dir}: ${mounted[0]} is mounted below it`);
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Runs `input` once, untimed, keeping podemu's workdir under `dir`, and returns the `--image-root`
 * mapping of each image volume reference to the content podemu built for it.
 */
export async function prepareImageRoots(engines: Engines, input: JobInput, dir: string): Promise<Record<string, string>> {
  const refs = imageVolumeReferences(input.manifests, input.job);
  if (refs.length === 0) throw new Error(`${input.job}: no image volume in ${input.manifests.join(', ')}`);
  const workdir = path.join(dir, 'work');
  removeUnmounted(dir);
  fs.mkdirSync(dir, { recursive: true });
  const logs = path.join(dir, 'logs');
  const summary = await new PodemuRun(engines, {
    manifests: input.manifests, job: input.job, extraSecrets: input.secrets, logs, timeout: 300, workdir, keepWorkdir: true,
  }).finished();
  if (summary.result !== 'Succeeded') throw new Error(`${input.job}: the untimed run to prepare the image volume ${summary.result} (${summary.reason}); logs in ${logs}`);
  const root = path.join(workdir, PODEMU_VIEW_ROOT);
  // opt/view is a link to /opt/views/view, as in the image: it resolves inside the container only.
  const present = (rel: string) => fs.lstatSync(path.join(root, rel), { throwIfNoEntry: false }) !== undefined;
  if (!present('opt/software') || !present('opt/view')) {
    throw new Error(`podemu left no flux-view layout at ${root} (opt/software, opt/view): has podemu's workdir layout changed?`);
  }
  return Object.fromEntries(refs.map((ref) => [ref, root]));
}
