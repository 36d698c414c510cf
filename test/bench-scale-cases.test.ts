/** SCALE_CASES entries: size:source[:runs[:sidecar]]. */
import { parseScaleCase, scaleCaseName } from '../bench/scale/cases';
import { FluxViewSource } from '../lib';

test('GIVEN size:source THEN the default runs; GIVEN size:source:runs THEN those', () => {
  expect(parseScaleCase('16:image-volume', 3)).toEqual({ size: 16, source: FluxViewSource.IMAGE_VOLUME, runs: 3 });
  expect(parseScaleCase('128:image-volume:1', 3)).toEqual({ size: 128, source: FluxViewSource.IMAGE_VOLUME, runs: 1 });
});

test('GIVEN :sidecar THEN the handshake stays a native sidecar, and the case is named so', () => {
  const c = parseScaleCase('64:image-volume:1:sidecar', 3);
  expect(c).toEqual({ size: 64, source: FluxViewSource.IMAGE_VOLUME, runs: 1, sidecar: true });
  expect(parseScaleCase('64:image-volume::sidecar', 3).runs).toBe(3);
  expect([scaleCaseName(c), scaleCaseName(parseScaleCase('64:image-volume', 3))]).toEqual(['image-volume-sidecar', 'image-volume']);
});

test.each([
  ['64:nfs', "SCALE_CASES: unknown source 'nfs' in '64:nfs'"],
  ['x:copy-to-disk', "SCALE_CASES: 'x:copy-to-disk' must be size:source[:runs[:sidecar]], size a positive integer"],
  ['16:copy-to-disk:0', "SCALE_CASES: runs '0' in '16:copy-to-disk:0' must be a positive integer"],
  ['16:copy-to-disk:1:2', "SCALE_CASES: '2' in '16:copy-to-disk:1:2' must be 'sidecar' or left out"],
  ['16:copy-to-disk:1:sidecar:x', "SCALE_CASES: '16:copy-to-disk:1:sidecar:x' must be size:source[:runs[:sidecar]], size a positive integer"],
])('GIVEN %s THEN an error naming the entry and the rule', (entry, message) => {
  expect(() => parseScaleCase(entry, 3)).toThrow(message);
});
