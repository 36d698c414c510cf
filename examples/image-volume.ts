import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { FluxViewSource, MiniCluster } from '../lib';

/**
 * Hello world with the Flux view as an image volume: no pod copies the view; every Flux container
 * mounts the view image read-only (Kubernetes 1.35 or newer, and a container runtime with image
 * volumes: docs/production.md), so a pod's start does not grow with the view's size.
 */
export class ImageVolume extends Chart {
  constructor(scope: Construct, id = 'image-volume') {
    super(scope, id, { namespace: 'default' });
    new MiniCluster(this, 'flux-image-view', {
      size: 4,
      kubernetesVersion: '1.35',
      logging: { quiet: true },
      flux: { container: { source: FluxViewSource.IMAGE_VOLUME } },
      containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }],
    });
  }
}
