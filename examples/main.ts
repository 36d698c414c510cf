import { Kustomization } from '../lib';
import { exampleApp } from './app';

// Build every chart first: an invalid example throws here and nothing is written.
const app = exampleApp();
app.synth();
// dist/ is then a kustomization: `kubectl kustomize dist` or `kubectl apply -k dist`.
Kustomization.writeFiles(app.outdir);
