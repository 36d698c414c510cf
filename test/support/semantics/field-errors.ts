/**
 * The API server's field errors (k8s.io/apimachinery/pkg/util/validation/field: Required, Invalid,
 * NotSupported, Duplicate, Forbidden, NotFound, TooMany, TooLong), written the way `kubectl apply`
 * prints their bodies, each followed by the upstream function that raises it.
 */
import type { Finding, PathSegment } from '../k8s-version-rules';

export type { Finding, PathSegment };

/** Go's %q of a string, else JSON (numbers, booleans, lists, objects). */
export function show(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/** Collects findings for one document; `rule` names the upstream validation function. */
export class FieldErrors {
  readonly list: Finding[] = [];

  private add(path: PathSegment[], body: string, rule: string): void {
    this.list.push({ path, message: `${body} (${rule})` });
  }

  required(path: PathSegment[], detail: string, rule: string): void {
    this.add(path, detail ? `Required value: ${detail}` : 'Required value', rule);
  }

  invalid(path: PathSegment[], value: unknown, detail: string, rule: string): void {
    this.add(path, `Invalid value: ${show(value)}: ${detail}`, rule);
  }

  notSupported(path: PathSegment[], value: unknown, supported: readonly string[], rule: string): void {
    this.add(path, `Unsupported value: ${show(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`, rule);
  }

  duplicate(path: PathSegment[], value: unknown, rule: string): void {
    this.add(path, `Duplicate value: ${show(value)}`, rule);
  }

  forbidden(path: PathSegment[], detail: string, rule: string): void {
    this.add(path, `Forbidden: ${detail}`, rule);
  }

  notFound(path: PathSegment[], value: unknown, rule: string): void {
    this.add(path, `Not found: ${show(value)}`, rule);
  }

  tooMany(path: PathSegment[], actual: number, max: number, rule: string): void {
    this.add(path, `Too many: ${actual}: must have at most ${max} items`, rule);
  }

  tooLong(path: PathSegment[], max: number, rule: string): void {
    this.add(path, `Too long: may not be more than ${max} bytes`, rule);
  }

  /** Each message of a format check (IsDNS1123Label and friends) as Invalid. */
  invalidEach(path: PathSegment[], value: unknown, messages: string[], rule: string): void {
    for (const m of messages) this.invalid(path, value, m, rule);
  }
}

/** Narrowing helpers: a manifest is untrusted JSON, so every read checks its type. */
export const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);
export const asObject = (v: unknown): Record<string, any> => (isObject(v) ? v : {});
export const asArray = (v: unknown): any[] => (Array.isArray(v) ? v : []);
export const asString = (v: unknown): string => (typeof v === 'string' ? v : '');
export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
