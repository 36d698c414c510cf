#!/usr/bin/env node
// Gives every command of package.json's `bin` the executable bits (0755), so the packed tarball
// carries runnable files whatever the umask of the machine that built them.
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const { bin = {} } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
for (const file of Object.values(typeof bin === 'string' ? { bin } : bin)) {
  const target = path.join(root, file);
  if (!fs.readFileSync(target, 'utf8').startsWith('#!/usr/bin/env node\n')) {
    throw new Error(`${file}: a command must start with '#!/usr/bin/env node'`);
  }
  fs.chmodSync(target, 0o755);
}
