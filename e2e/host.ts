/**
 * Puts on this machine what the cases' images would bring: Debian packages (installed once, as
 * root, unless E2E_NO_INSTALL=1) and the image files staged from them. podemu containers see the
 * host's file system as their image, so this is how an image's content exists for them.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { HostNeeds } from './case';

function installed(pkg: string): boolean {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/**
 * Installs the missing packages of every case; returns, per package that is still missing, why.
 * One apt-get run for all of them.
 */
export function installPackages(needs: HostNeeds[], env: NodeJS.ProcessEnv = process.env): Map<string, string> {
  const wanted = [...new Set(needs.flatMap((n) => n.debianPackages ?? []))].sort();
  const missing = wanted.filter((p) => !installed(p));
  const problems = new Map<string, string>();
  if (missing.length === 0) return problems;
  if (env.E2E_NO_INSTALL === '1') {
    for (const p of missing) problems.set(p, `Debian package ${p} is not installed (E2E_NO_INSTALL=1)`);
    return problems;
  }
  console.log(`e2e: installing from Debian: ${missing.join(' ')}`);
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env: aptEnv });
  const r = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { encoding: 'utf8', env: aptEnv });
  for (const p of missing) {
    if (!installed(p)) problems.set(p, `apt-get install ${p} failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' ')}`);
  }
  return problems;
}

/** Copies each staged directory into place (once); returns why a case cannot have its files, if so. */
export function stageImageContent(needs: HostNeeds): string | undefined {
  for (const s of needs.stage ?? []) {
    if (!fs.existsSync(s.from)) return `${s.from} is missing (from a Debian package)`;
    if (fs.existsSync(s.to)) continue;
    fs.mkdirSync(path.dirname(s.to), { recursive: true });
    fs.cpSync(s.from, s.to, { recursive: true });
    // Containers may run as any user: readable by all, as an image's files are.
    spawnSync('chmod', ['-R', 'a+rX', s.to]);
  }
  return undefined;
}
