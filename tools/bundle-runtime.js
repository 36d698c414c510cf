#!/usr/bin/env node
// Bundles each runtime program (lib/runtime/<program>/main.ts) into one dependency-free file,
// build/runtime/<program>.js, which the constructs ship in a ConfigMap and a stock Node image runs.
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
