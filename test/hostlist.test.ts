import { expandHostlist, rangeHostlist } from '../lib/core/hostlist';

describe('hostlist', () => {
  test('a range names every index once, in order', () => {
    expect(rangeHostlist('flux-sample', 4)).toBe('flux-sample-[0-3]');
    expect(expandHostlist('flux-sample-[0-3]')).toEqual(['flux-sample-0', 'flux-sample-1', 'flux-sample-2', 'flux-sample-3']);
  });

  test('one host is written without brackets', () => {
    expect(rangeHostlist('a', 1)).toBe('a-0');
    expect(expandHostlist('a-0')).toEqual(['a-0']);
  });

  test('output length does not grow with the count', () => {
    expect(rangeHostlist('x', 16384)).toBe('x-[0-16383]');
    expect(expandHostlist('x-[0-16383]')).toHaveLength(16384);
  });

  test('lists, sets and padding expand', () => {
    expect(expandHostlist('a-[1,3-4],b-[08-10]')).toEqual(['a-1', 'a-3', 'a-4', 'b-08', 'b-09', 'b-10']);
    expect(() => expandHostlist('a-[3-1]')).toThrow(/invalid hostlist range/);
    expect(() => rangeHostlist('a', 0)).toThrow(/positive integer/);
  });
});
