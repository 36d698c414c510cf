/**
 * The package's version, read at run time from the package.json of the installed package (not
 * compiled in), so a build, a packed tarball and a language package's bundled copy all print the
 * version they were packed as.
 */
import * as fs from 'fs';
import * as path from 'path';
import { packageRoot } from '../core/runtime-bundle';

export const PACKAGE_NAME = 'cdk8s-minicluster';

/** The `version` of this package's package.json. */
export function packageVersion(): string {
  const file = path.join(packageRoot(), 'package.json');
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
  // A package.json of another package would print a wrong version: say so instead.
  if (pkg.name !== PACKAGE_NAME || typeof pkg.version !== 'string') {
    throw new Error(`${file} is not the ${PACKAGE_NAME} package's (name '${String(pkg.name)}', version '${String(pkg.version)}')`);
  }
  return pkg.version;
}
