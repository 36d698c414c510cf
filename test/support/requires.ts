/**
 * Tests that need something the README does not promise (a tool, root, a Flux install, the
 * ../shared data) declare it here. The README promises `npm ci && npm test` with only Node and npm:
 * without the thing, such a test is skipped under a name that ends in `[skipped: <why>]`, and the
 * reason is written once per test file. CI runs the suite that way first (.ci/newcomer), then runs
 * again, with the tools, only the files that skipped something (.ci/run).
 */
import { skipLine } from './skip-line';

/** Something a test needs: whether this machine has it, and, when not, why and what to do. */
export interface Requirement {
  readonly met: boolean;
  /** Read as "[skipped: <why>]": what is missing and how to get it. */
  readonly why: string;
}

const said = new Set<string>();

function tagged(name: string, need: Requirement): string {
  if (!said.has(need.why)) {
    said.add(need.why);
    skipLine(`SKIPPED: ${need.why}`);
  }
  return `${name} [skipped: ${need.why}]`;
}

/** The first need this machine does not meet, if any. */
function unmetOf(needs: Requirement | Requirement[]): Requirement | undefined {
  return [needs].flat().find((n) => !n.met);
}

/** `test` when every need is met, else a visibly skipped test. */
export function testIf(needs: Requirement | Requirement[], name: string, fn: jest.ProvidesCallback, timeout?: number): void {
  const unmet = unmetOf(needs);
  if (unmet) test.skip(tagged(name, unmet), fn, timeout);
  else test(name, fn, timeout);
}

/** `describe` when every need is met, else a visibly skipped block. */
export function describeIf(needs: Requirement | Requirement[], name: string, body: () => void): void {
  const unmet = unmetOf(needs);
  if (unmet) describe.skip(tagged(name, unmet), body);
  else describe(name, body);
}

/** A `test.each` that needs something: each case skipped visibly when it is missing. */
export function testEachIf<T extends readonly unknown[]>(needs: Requirement | Requirement[], table: readonly T[]) {
  return (name: string, fn: (...args: T) => unknown, timeout?: number): void => {
    const unmet = unmetOf(needs);
    if (unmet) test.skip.each(table as T[])(tagged(name, unmet), fn as any, timeout);
    else test.each(table as T[])(name, fn as any, timeout);
  };
}

/** Root, for tests that switch users (setpriv) or chown. */
export const ROOT: Requirement = {
  met: typeof process.getuid === 'function' && process.getuid() === 0,
  why: 'needs root (it runs a script as another user)',
};
