/**
 * Where the repository is, and where ../shared (the reference data and tools beside the checkout)
 * may be, whether this file runs from the source (the tests: e2e/repo-root.ts) or compiled
 * (npm run e2e: build/e2e/repo-root.js). By the file's own place, not by a package.json: a copy of
 * build/ alone (a test's bare checkout) has none.
 */
import * as path from 'path';

const COMPILED = path.extname(__filename) === '.js';

/** The repository's root (the parent of e2e/ and of build/). */
export const REPO_ROOT = path.resolve(__dirname, ...(COMPILED ? ['..', '..'] : ['..']));

/** Where `shared/<parts>` may be: next to the checkout, or one level up for a git worktree (<root>/wt/<name>). */
export function sharedCandidates(...parts: string[]): string[] {
  return [path.resolve(REPO_ROOT, '..', 'shared', ...parts), path.resolve(REPO_ROOT, '..', '..', 'shared', ...parts)];
}
