/** The synth step most cases share: one MiniCluster in a chart of its own. */
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { MiniCluster, MiniClusterProps } from '../../lib';

/** Synthesizes `props` as MiniCluster `name` in chart `chart` (namespace `namespace`) into `dir`; returns its manifest. */
export function synthCluster(chart: string, namespace: string, name: string, props: MiniClusterProps): (dir: string) => string[] {
  return (dir) => {
    const app = new App({ outdir: dir });
    new MiniCluster(new Chart(app, chart, { namespace }), name, props);
    app.synth();
    return [path.join(dir, `${chart}.k8s.yaml`)];
  };
}
