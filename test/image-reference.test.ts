import { Testing } from 'cdk8s';
import { CertificateSource, CurveCertJob, DEFAULT_FLUX_VIEW_IMAGE, DEFAULT_NODE_IMAGE, MiniCluster, MiniClusterProps } from '../lib';
import { imageReferenceError } from '../lib/core/image-reference';

const DIGEST = `sha256:${'0123456789abcdef'.repeat(4)}`;

describe('image references', () => {
  test.each([
    'ubuntu', 'ubuntu:noble', 'library/ubuntu:24.04', 'docker.io/library/node:22.11.0-alpine3.20',
    `ubuntu@${DIGEST}`, `ghcr.io/converged-computing/flux-view-ubuntu:tag-noble@${DIGEST}`,
    'localhost:5000/team/app:v1', 'registry.example.com:443/a/b/c', '[::1]:5000/app:latest', 'my_org/app__x', 'a.b-c/d---e:_1',
    `gcr.io/p/img@sha512:${'ab'.repeat(64)}`, DEFAULT_FLUX_VIEW_IMAGE, DEFAULT_NODE_IMAGE,
  ])('%s is accepted', (ref) => {
    expect(imageReferenceError(ref)).toBeUndefined();
  });

  test.each<[string, RegExp]>([
    ['Ubuntu', /the path component 'Ubuntu' must be lower-case/],
    ['ubuntu:', /the tag '' must be 1-128/],
    ['ubuntu:-x', /the tag '-x'/],
    [`ubuntu:${'t'.repeat(129)}`, /the tag 't{129}'/],
    ['ubuntu@sha256:abc', /a sha256 digest is 64 lower-case hex digits/],
    [`ubuntu@sha256:${'A'.repeat(64)}`, /a sha256 digest is 64 lower-case hex digits/],
    [`ubuntu@md5:${'a'.repeat(32)}`, /the digest 'md5:a{32}' must be sha256:<64 hex digits>/],
    ['ubuntu@', /the digest '' must be sha256/],
    ['-bad.example.com/app', /'-bad.example.com' is not a registry host/],
    ['-bad/app', /the path component '-bad' must be/],
    ['bad_host.com:5000/app', /'bad_host.com:5000' is not a registry host\[:port\]/],
    ['team//app', /the path component '' must be/],
    ['/app', /the path component '' must be/],
  ])('%s is rejected: %s', (ref, message) => {
    expect(imageReferenceError(ref)).toMatch(message);
    expect(imageReferenceError(ref)).toMatch(/^must be an image reference \[registry\[:port\]\/\]path\[:tag\]\[@sha256:<64 hex digits>\]/);
  });

  test('every image prop of a MiniCluster accepts a pin by digest and reports a bad reference with the others', () => {
    // GIVEN every image pinned by digest
    const pinned: MiniClusterProps = {
      containers: [{ image: `ubuntu@${DIGEST}`, runFlux: true }, { image: `nginx:1.27@${DIGEST}`, name: 'web' }],
      flux: { container: { image: `ghcr.io/converged-computing/flux-view-ubuntu@${DIGEST}` } },
      certificate: CertificateSource.generatedInCluster({ image: `docker.io/library/node@${DIGEST}` }),
      handshake: { image: `docker.io/library/node@${DIGEST}` },
    };
    const chart = Testing.chart();
    new MiniCluster(chart, 'flux-sample', pinned);
    const images = Testing.synth(chart).flatMap((d) => d.spec?.template?.spec ? [...(d.spec.template.spec.initContainers ?? []), ...d.spec.template.spec.containers] : [])
      .map((c: any) => c.image).sort();
    // THEN the pins reach the pods unchanged
    expect(images).toEqual([`docker.io/library/node@${DIGEST}`, `docker.io/library/node@${DIGEST}`, `ghcr.io/converged-computing/flux-view-ubuntu@${DIGEST}`, `nginx:1.27@${DIGEST}`, `ubuntu@${DIGEST}`]);
    // AND bad references are reported at once, by property
    let message = '';
    try {
      new MiniCluster(Testing.chart(), 'flux-sample', {
        size: 0,
        containers: [{ image: 'Ubuntu:noble' }],
        flux: { container: { image: 'ghcr.io/x/view@sha256:123' } },
        certificate: CertificateSource.generatedInCluster({ image: 'node:' }),
        handshake: { image: 'node@sha256:' },
      });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/\(5 problems\)/);
    expect(message).toContain('- handshake.image = "node@sha256:": must be an image reference');
    expect(message).toContain('- containers[0].image = "Ubuntu:noble": must be an image reference');
    expect(message).toContain('- flux.container.image = "ghcr.io/x/view@sha256:123": must be an image reference');
    expect(message).toContain('- certificate.image = "node:": must be an image reference');
  });

  test('CurveCertJob checks its image too', () => {
    expect(() => new CurveCertJob(Testing.chart(), 'c', { clusterName: 'a', namespace: 'n', image: 'Node' }))
      .toThrow("image: 'Node' must be an image reference");
    expect(() => new CurveCertJob(Testing.chart(), 'c', { clusterName: 'a', namespace: 'n', image: `node@${DIGEST}` })).not.toThrow();
  });
});
