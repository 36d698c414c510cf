/** Which view images are flux-views ones, whose layout lets the runner check the image volume itself. */
import { DEFAULT_FLUX_VIEW_IMAGE, isFluxViewsImage } from '../lib/core/images';

describe('isFluxViewsImage', () => {
  test.each([
    DEFAULT_FLUX_VIEW_IMAGE,
    'ghcr.io/converged-computing/flux-view-rocky:tag-9',
    'ghcr.io/converged-computing/flux-view-ubuntu:tag-jammy',
    'ghcr.io/converged-computing/flux-view-ubuntu',
    `ghcr.io/converged-computing/flux-view-ubuntu@sha256:${'0'.repeat(64)}`,
    `ghcr.io/converged-computing/flux-view-ubuntu:tag-noble@sha256:${'0'.repeat(64)}`,
  ])('GIVEN %s THEN it is a flux-views image', (ref) => {
    expect(isFluxViewsImage(ref)).toBe(true);
  });

  test.each([
    ['a mirror of it', 'mirror.example/converged-computing/flux-view-ubuntu:tag-noble'],
    ['the same path on Docker Hub', 'converged-computing/flux-view-ubuntu:tag-noble'],
    ['another repository of the publisher', 'ghcr.io/converged-computing/flux-views:tag-noble'],
    ['a name that only starts alike', 'ghcr.io/converged-computing/flux-view-:tag-noble'],
    ['a nested path', 'ghcr.io/converged-computing/flux-view-ubuntu/extra:1'],
    ['another publisher', 'registry.example/hpc/flux-view:1'],
  ])('GIVEN %s THEN it is not (an init container checks its layout)', (_what, ref) => {
    expect(isFluxViewsImage(ref)).toBe(false);
  });
});
