/**
 * A real Flux install (flux-core + flux-sched) for the few tests that hold the library against it:
 * FLUX_PREFIX, else /opt/software/flux, as `npm run e2e` uses. Whatever happens to be there is not
 * trusted: an install still being copied, or one without flux-sched, is reported as missing, so
 * that the tests skip visibly instead of failing on a half-written tree.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Requirement } from './requires';

/** Files both packages install that the tests read: flux-sched's last, so their presence says both are whole. */
const EXPECTED = [
  'bin/flux',
  'share/flux/modprobe/modprobe.toml',
  'libexec/flux/modprobe/rc1.py',
  'etc/flux/modprobe/modprobe.d/fluxion.toml',
];

/** An install whose newest file is younger than this is taken as still being written. */
const SETTLED_SECONDS = 60;

export interface FluxInstall extends Requirement {
  readonly prefix: string;
}

/** Whether a whole, settled Flux install is at `prefix`, and if not, why. */
export function fluxInstall(prefix: string = process.env.FLUX_PREFIX ?? '/opt/software/flux', now: number = Date.now()): FluxInstall {
  const missing = EXPECTED.filter((f) => !fs.existsSync(path.join(prefix, f)));
  const fix = 'set FLUX_PREFIX; npm run e2e needs one too';
  if (missing.includes('bin/flux')) return { prefix, met: false, why: `no Flux install at ${prefix} (${fix})` };
  if (missing.length > 0) return { prefix, met: false, why: `the Flux install at ${prefix} is partial, it lacks ${missing.join(', ')} (${fix})` };
  const age = (now - newestMtime(prefix)) / 1000;
  if (age < SETTLED_SECONDS) return { prefix, met: false, why: `the Flux install at ${prefix} changed ${Math.max(0, Math.round(age))} s ago: it is still being written` };
  const version = spawnSync(path.join(prefix, 'bin', 'flux'), ['version'], { encoding: 'utf8', timeout: 20000 });
  if (version.status !== 0) return { prefix, met: false, why: `\`${prefix}/bin/flux version\` fails (${(version.stderr || String(version.error ?? version.status)).trim().split('\n')[0]}): the install is broken or partial` };
  return { prefix, met: true, why: '' };
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    const mtime = fs.lstatSync(file).mtimeMs;
    if (mtime > newest) newest = mtime;
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(file));
  }
  return newest;
}
