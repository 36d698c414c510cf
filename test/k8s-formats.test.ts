/** Resource quantities (lib/core/k8s-formats.ts): exact, as the API server parses and compares them. */
import { compareQuantities, parseQuantity, wholeQuantity } from '../lib/core/k8s-formats';
import { resourceEncodeArgs } from '../lib/constructs/private/resolve';

const q = (text: string) => {
  const parsed = parseQuantity(text);
  if (!parsed) throw new Error(`'${text}' did not parse`);
  return parsed;
};

describe('parseQuantity', () => {
  test.each([
    ['700m', '0.7'],
    ['350m', '0.35'],
    ['8.3G', '8300M'],
    ['1.1k', '1100'],
    ['1Ki', '1024'],
    ['1E', '1e18'],
    ['2E', '2000P'],
    ['1e3', '1k'],
    ['1.5e-3', '1500u'],
    ['.5', '500m'],
  ])('%s equals %s exactly', (a, b) => {
    // GIVEN two spellings of one quantity WHEN compared THEN they are equal (floats say 700m > 0.7)
    expect(compareQuantities(q(a), q(b))).toBe(0);
  });

  test('the exa suffix E is a suffix, not an exponent missing its digits', () => {
    // GIVEN '1E' (exa) and '1e2' (an exponent) WHEN parsed THEN each has its own value
    expect(compareQuantities(q('1E'), { num: 10n ** 18n, den: 1n })).toBe(0);
    expect(compareQuantities(q('1e2'), { num: 100n, den: 1n })).toBe(0);
    expect(compareQuantities(q('2E'), q('1E'))).toBe(1);
  });

  test('like ParseQuantity, precision finer than a nano is rounded up, away from zero', () => {
    // GIVEN values that differ only below 1n WHEN parsed THEN they round up to the same nano
    expect(compareQuantities(q('1.0000000001'), q('1.000000001'))).toBe(0);
    expect(compareQuantities(q('-1.0000000001'), q('-1.000000001'))).toBe(0);
    expect(compareQuantities(q('1.000000001'), q('1'))).toBe(1);
  });

  test.each(['', '1.5 cores', 'e3', '1e', '1KiB', '--1', 'Mi'])('%j is not a quantity', (text) => {
    expect(parseQuantity(text)).toBeUndefined();
  });

  test('an exponent beyond 1000 is refused rather than expanded (1e99999999 would take minutes)', () => {
    // GIVEN exponents at and beyond the bound WHEN parsed THEN the bound parses, beyond it does not
    expect(compareQuantities(q('1e1000'), { num: 10n ** 1000n, den: 1n })).toBe(0);
    expect(parseQuantity('1e99999999')).toBeUndefined();
    expect(parseQuantity('1e-99999999')).toBeUndefined();
  });
});

describe('wholeQuantity', () => {
  test('a whole number written with a suffix or a fraction is whole; a fraction is not', () => {
    expect(wholeQuantity('4000m')).toBe(4);
    expect(wholeQuantity('1.1k')).toBe(1100);
    expect(wholeQuantity('2.5')).toBeUndefined();
    expect(wholeQuantity(undefined)).toBeUndefined();
  });

  test('a whole-CPU limit written as a fraction with a suffix still gives an exact R', () => {
    // GIVEN cpu 1.1k, which floats make 1100.0000000000002 WHEN the R arguments are made
    // THEN they name 1100 cores instead of probing the node
    expect(resourceEncodeArgs({ image: 'a', resources: { limits: { cpu: '1.1k' } } })).toEqual(['--cores=0-1099']);
  });

  test('one CPU or one GPU is the idset 0, not the range 0-0 that flux R encode rejects', () => {
    // GIVEN one whole CPU and one GPU WHEN the R arguments are made
    // THEN each names id 0 alone (real flux-core 0.88: `flux R encode --cores=0-0` fails with
    // "rlist_append rank=0: Invalid argument"; docs/e2e.md, example kueue)
    expect(resourceEncodeArgs({ image: 'a', resources: { limits: { 'cpu': '1', 'nvidia.com/gpu': '1' } } })).toEqual(['--cores=0', '--gpu=0']);
    expect(resourceEncodeArgs({ image: 'a', resources: { limits: { 'cpu': '2', 'nvidia.com/gpu': '2' } } })).toEqual(['--cores=0-1', '--gpu=0-1']);
  });
});
