#!/usr/bin/env node
// Bundles each runtime program (lib/runtime/<program>/main.ts) into one dependency-free file,
// build/runtime/<program>.js, which the constructs ship in a ConfigMap and a stock Node image runs.
// Also bundles the Kubernetes client of the day-2 commands (lib/cli/day2/kubernetes-client.ts)
// over tsc's output, so the package needs no @kubernetes/client-node and its dependencies.
'use strict';
const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const runtimeDir = path.join(root, 'lib', 'runtime');
const outDir = path.join(root, 'build', 'runtime');
fs.mkdirSync(outDir, { recursive: true });

const programs = fs.existsSync(runtimeDir)
  ? fs.readdirSync(runtimeDir).filter((d) => fs.existsSync(path.join(runtimeDir, d, 'main.ts'))).sort()
  : [];
for (const program of programs) {
  esbuild.buildSync({
    entryPoints: [path.join(runtimeDir, program, 'main.ts')],
    outfile: path.join(outDir, `${program}.js`),
    bundle: true,
    platform: 'node',
    target: 'node18',
    format: 'cjs',
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
  });
}

esbuild.buildSync({
  entryPoints: [path.join(root, 'lib', 'cli', 'day2', 'kubernetes-client.ts')],
  outfile: path.join(root, 'build', 'lib', 'cli', 'day2', 'kubernetes-client.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // 1.6 MB instead of 4: the client's generated API is large.
  minify: true,
  legalComments: 'none',
  charset: 'utf8',
  logLevel: 'warning',
});
