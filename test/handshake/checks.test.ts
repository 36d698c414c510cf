import fc from 'fast-check';
import { HANDSHAKE_EXIT_HOSTNAME } from '../../lib/core/handshake-contract';
import { expandHostlist, rangeHostlist } from '../../lib/core/hostlist';
import { checkHostname } from '../../lib/runtime/handshake/checks';
import { HandshakeConfig } from '../../lib/runtime/handshake/config';

function config(hostname: string, index: number, maxSize: number): HandshakeConfig {
  return { name: 'flux', hostname, index, maxSize } as HandshakeConfig;
}

describe('hostname check', () => {
  test('agrees with the expanded hosts list: passes only for exactly one entry, the own index', () => {
    const candidate = fc.oneof(
      fc.nat(40).map((i) => `flux-${i}`),
      fc.nat(40).map((i) => `flux-0${i}`),
      fc.constantFrom('flux-', 'flux', 'flux-1a', 'fluxx-1', 'other-1', 'flux--1', 'flux-1.hs'),
    );
    fc.assert(fc.property(candidate, fc.integer({ min: 1, max: 30 }), fc.nat(29), (hostname, maxSize, idx) => {
      // GIVEN a hosts list of maxSize and a pod index in it
      const index = idx % maxSize;
      const entries = expandHostlist(rangeHostlist('flux', maxSize)).filter((h) => h === hostname).length;
      const shouldPass = entries === 1 && hostname === `flux-${index}`;
      // WHEN the check runs THEN it passes exactly when the expansion says so
      let failure: unknown;
      try {
        checkHostname(config(hostname, index, maxSize));
      } catch (e) {
        failure = e;
      }
      expect(failure === undefined).toBe(shouldPass);
      if (failure) {
        expect(failure).toMatchObject({ exitCode: HANDSHAKE_EXIT_HOSTNAME });
        expect((failure as Error).message).toContain(`it matches ${entries} entries`);
      }
    }));
  });
});
