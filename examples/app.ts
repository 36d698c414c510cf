import { App } from 'cdk8s';
import { Autoscale } from './autoscale';
import { Batch } from './batch';
import { Elastic } from './elastic';
import { HelloWorld } from './hello-world';
import { ImageVolume } from './image-volume';
import { Interactive } from './interactive';
import { Kueue } from './kueue';
import { Launcher } from './launcher';
import { Mpi } from './mpi';
import { Production } from './production';
import { Volumes } from './volumes';

/** Every example chart in one app (each becomes dist/<chart>.k8s.yaml). */
export function exampleApp(outdir?: string): App {
  const app = new App(outdir ? { outdir } : {});
  new HelloWorld(app);
  new Mpi(app);
  new Interactive(app);
  new Batch(app);
  new Launcher(app);
  new Volumes(app);
  new Elastic(app);
  new Kueue(app);
  new Production(app);
  new ImageVolume(app);
  new Autoscale(app);
  return app;
}
