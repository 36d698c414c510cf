// Checks that a jsii assembly (.jsii) documents its whole API, as Construct Hub shows it: a summary
// on every type, property, method and enum member, and a `@default` on every optional struct
// property. Used by tools/package.js; returns the problems (empty when complete).
'use strict';

function checkAssembly(assembly) {
  const problems = [];
  const summary = (docs, where) => {
    if (!docs || !docs.summary || !docs.summary.trim()) problems.push(`${where}: no doc summary`);
  };
  for (const [fqn, type] of Object.entries(assembly.types ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    summary(type.docs, fqn);
    for (const member of type.members ?? []) summary(member.docs, `${fqn}.${member.name}`);
    for (const property of type.properties ?? []) {
      const where = `${fqn}.${property.name}`;
      summary(property.docs, where);
      if (type.datatype && property.optional && (!property.docs || property.docs.default === undefined)) {
        problems.push(`${where}: optional, but no @default`);
      }
    }
    for (const method of type.methods ?? []) summary(method.docs, `${fqn}.${method.name}()`);
  }
  return problems;
}

module.exports = { checkAssembly };

if (require.main === module) {
  const fs = require('fs');
  const path = require('path');
  const file = process.argv[2] ?? path.join(__dirname, '..', '.jsii');
  const problems = checkAssembly(JSON.parse(fs.readFileSync(file, 'utf8')));
  for (const p of problems) process.stdout.write(`${p}\n`);
  process.stdout.write(`${problems.length} problems\n`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
