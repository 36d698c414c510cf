/**
 * Where the repository is, and where ../shared (the reference data and tools beside the checkout)
 * may be, whether this file runs from the source (the tests) or from build/ (npm run e2e).
 */
import * as fs from 'fs';
import * as path from 'path';

function findRepoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${__dirname}`);
  }
}

/** The directory of the repository's package.json. */
export const REPO_ROOT = findRepoRoot();

/** Where `shared/<parts>` may be: next to the checkout, or one level up for a git worktree (<root>/wt/<name>). */
export function sharedCandidates(...parts: string[]): string[] {
  return [path.resolve(REPO_ROOT, '..', 'shared', ...parts), path.resolve(REPO_ROOT, '..', '..', 'shared', ...parts)];
}
