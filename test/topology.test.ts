import { childRanks, parentRank, parseTopology } from '../lib/core/topology';

describe('topology', () => {
  test('kary parent and children agree for every rank', () => {
    // GIVEN a kary:3 tree of 40 ranks
    const size = 40;
    for (let r = 1; r < size; r++) {
      // THEN each rank is among its parent's children
      expect(childRanks(parentRank(r, 'kary:3')!, size, 'kary:3')).toContain(r);
    }
    expect(parentRank(0, 'kary:3')).toBeUndefined();
    expect(childRanks(0, size, 'kary:3')).toEqual([1, 2, 3]);
    expect(childRanks(13, size, 'kary:3')).toEqual([]);
  });

  test('default fanout 256 makes rank 0 the parent of ranks 1-256', () => {
    expect(parentRank(256)).toBe(0);
    expect(parentRank(257)).toBe(1);
  });

  test('rejects shapes the handshake cannot follow', () => {
    expect(parseTopology('kary:1')).toMatch(/flux-core#6463/);
    expect(parseTopology('binomial')).toMatch(/must be 'kary:K'/);
    expect(parseTopology('kary:8')).toBe(8);
  });
});
