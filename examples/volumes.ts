import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { MiniCluster, PodSecurityLevel } from '../lib';

/** Every kind of user volume: PVC, hostPath, ConfigMap with items, Secret, memory emptyDir, CSI. */
export class Volumes extends Chart {
  constructor(scope: Construct, id = 'volumes') {
    super(scope, id, { namespace: 'default' });
    new MiniCluster(this, 'flux-volumes', {
      size: 2,
      // The hostPath volume needs the privileged level: the default, baseline, rejects it.
      podSecurity: PodSecurityLevel.PRIVILEGED,
      containers: [{
        image: 'ubuntu:noble',
        command: 'ls /data /config /dev/shm',
        volumes: {
          'data': { path: '/data', claimName: 'data' },
          'scratch': { path: '/scratch', hostPath: '/var/tmp/scratch' },
          'config': { path: '/config', configMapName: 'app-config', items: { 'app.yaml': 'app.yaml' } },
          'credentials': { path: '/credentials', secretName: 'app-credentials', readOnly: true },
          'shm': { emptyDir: true, emptyDirMedium: 'memory', emptyDirSizeLimit: '1Gi' },
          'bucket': { path: '/bucket', csiDriver: 'gcsfuse.csi.storage.gke.io', csiDriverAttributes: { bucketName: 'my-bucket' } },
        },
      }],
    });
  }
}
