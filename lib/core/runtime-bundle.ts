import * as fs from 'fs';
import * as path from 'path';

/**
 * The bundled source of a runtime program (lib/runtime/<name>/main.ts), as built by
 * `npm run build` into build/runtime/<name>.js. Constructs ship it in a ConfigMap.
 */
export function runtimeBundle(name: string): string {
  const file = path.join(packageRoot(), 'build', 'runtime', `${name}.js`);
  if (!fs.existsSync(file)) {
    throw new Error(`runtime program '${name}' is not built (${file} is missing): run 'npm run build' first`);
  }
  return fs.readFileSync(file, 'utf8');
}

/** The directory of the package's package.json: the repository, or the installed package. */
export function packageRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the cdk8s-minicluster package root above ${__dirname}`);
    dir = up;
  }
  return dir;
}
