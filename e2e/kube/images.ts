/**
 * `npm run e2e -- --list-images`: every image the selected cases' pods use, so that a cluster
 * without registry access can be loaded first, and what each application image must hold (the
 * Debian packages and files podemu takes from the host).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { E2eCase } from '../case';
import { readDocs } from '../manifests';

/** Images of the pod templates and pods of `docs`: containers, init containers, image volumes. */
export function imagesIn(docs: any[]): string[] {
  const images = new Set<string>();
  for (const d of docs) {
    const spec = d?.kind === 'Pod' ? d.spec : d?.spec?.template?.spec;
    if (!spec) continue;
    for (const c of [...spec.initContainers ?? [], ...spec.containers ?? []]) if (c.image) images.add(c.image);
    for (const v of spec.volumes ?? []) if (v.image?.reference) images.add(v.image.reference);
  }
  return [...images];
}

/** An image on a registry of the reserved `.invalid` domain (RFC 2606): a case's pull meant to fail, nothing to load. */
export function meantToFail(image: string): boolean {
  return /^[^/]+\.invalid(:\d+)?\//.test(image);
}

/** One line per image (sorted), then one per case need that an image must meet. */
export function imagesOf(cases: E2eCase[]): string[] {
  const images = new Set<string>(['ubuntu:noble']); // the volume seeding pod (kube/volumes.ts)
  const needs: string[] = [];
  for (const c of cases) {
    if (c.kube?.skip) continue;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-images-'));
    try {
      const docs = readDocs(c.synth(dir));
      c.patch?.apply(docs);
      c.kube?.patch?.apply(docs);
      for (const i of imagesIn(docs).filter((i) => !meantToFail(i))) images.add(i);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const packages = c.needs?.debianPackages ?? [];
    const staged = (c.needs?.stage ?? []).map((s) => `${s.to} (from ${s.from})`);
    if (packages.length || staged.length) needs.push(`# ${c.id}: ${[...packages.map((p) => `Debian package ${p}`), ...staged].join(', ')}`);
  }
  return [...[...images].sort(), ...needs];
}
