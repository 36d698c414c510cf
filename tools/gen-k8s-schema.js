#!/usr/bin/env node
// Generates the strict JSON Schemas that test/support/k8s-validate.ts checks manifests against:
// one file per installed `kubernetes-types-<MAJOR.MINOR>` npm alias (see package.json), written to
// test/support/schemas/k8s-<MAJOR.MINOR>.json and committed, so a fresh clone validates offline with
// no generation step (generating takes seconds per version; jest runs files in parallel workers).
//
//   node tools/gen-k8s-schema.js          regenerate every schema file
//   node tools/gen-k8s-schema.js --check  exit 1 if a schema file is missing, stale or hand-edited
//
// test/support-k8s-validate.test.ts runs the same check, so a bumped kubernetes-types alias, a new
// alias or an edit of this script fails the suite until the schemas are regenerated.
//
// Why the post-processing: ts-json-schema-generator turns interfaces into objects with
// `additionalProperties: false` (what we want: unknown fields are errors), but it cannot know that
// (a) Kubernetes has no floating-point fields outside CRD schemas, so TS `number` means int32/int64,
// (b) `Quantity` is a string with a grammar, or a JSON number, (c) a few empty interfaces
// (RawExtension, FieldsV1, apiextensions JSON) are free-form, and (d) type names repeat across API
// groups (e.g. `ServiceReference`), so definitions are named `<group>.<version>.<Type>`.
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..');
const schemaDir = path.join(root, 'test', 'support', 'schemas');
const TYPES_ALIAS = /^kubernetes-types-(\d+\.\d+)$/;

/**
 * Kubernetes' own quantity grammar (k8s.io/apimachinery resource.Quantity, as published for CRD
 * `x-kubernetes-int-or-string` quantities). Stricter than kubernetes-models, which accepts every SI
 * prefix (e.g. "1h", "1da").
 */
const QUANTITY_PATTERN =
  '^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)(([KMGTPE]i)|[numkMGTPE]|([eE][+-]?(\\d+(\\.\\d*)?|\\.\\d+)))?$';

/** Empty TS interfaces that stand for free-form content in the API. Any other empty one fails. */
const FREE_FORM = {
  'runtime.RawExtension': { type: 'object' },
  'meta.v1.FieldsV1': { type: 'object' },
  'apiextensions.v1.JSON': {},
};

/** Empty API structs that really take no fields (serialized as `{}`). */
const EMPTY_STRUCTS = new Set(['apiextensions.v1.CustomResourceSubresourceStatus']);

/**
 * Fields an older OpenAPI spec (and so kubernetes-types) marks required although the API server
 * never required them; fixed in later types. kubernetes/api#48: onPodConditions lacked `+optional`
 * until kubernetes-types 1.29, while a rule needs only one of onExitCodes / onPodConditions.
 */
const NOT_REQUIRED = { 'batch.v1.PodFailurePolicyRule': ['onPodConditions'] };

/**
 * Fields the API gained after the newest kubernetes-types on npm (1.30.0), written from the upstream
 * Go types (k8s.io/api/core/v1/types.go) as the generator would render them. Each entry makes one
 * more schema, k8s-<minor>.json: the newest generated one plus these, for targets of that minor and
 * later (their fields are then validated strictly, not reported as unknown); older targets keep
 * rejecting them.
 */
const ADDED_FIELDS = [
  {
    minor: '1.35',
    why: 'ImageVolume (KEP-4639): volumes[].image, alpha 1.31, beta on by default 1.35',
    properties: { 'core.v1.Volume': { image: { $ref: '#/definitions/core.v1.ImageVolumeSource' } } },
    definitions: {
      'core.v1.ImageVolumeSource': {
        type: 'object',
        properties: { pullPolicy: { type: 'string' }, reference: { type: 'string' } },
        additionalProperties: false,
      },
    },
  },
];

/** The only definitions whose `number` fields really are floating point (CRD schema bounds). */
const FLOAT_DEFINITIONS = new Set(['apiextensions.v1.JSONSchemaProps']);

/** Installed kubernetes-types aliases, e.g. [{ alias: 'kubernetes-types-1.30', minor: '1.30' }]. */
function installedTypes() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  return Object.keys(deps)
    .map((alias) => ({ alias, m: TYPES_ALIAS.exec(alias) }))
    .filter((x) => x.m)
    .map((x) => ({ alias: x.alias, minor: x.m[1] }))
    .sort((a, b) => compareMinor(a.minor, b.minor));
}

function compareMinor(a, b) {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
}

function typesRoot(alias) {
  return path.dirname(require.resolve(`${alias}/package.json`, { paths: [root] }));
}

function listFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full));
    else if (entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out.sort();
}

function sha256(text) {
  return crypto.createHash('sha256').update(text).digest('hex');
}

/**
 * Hash of everything the generated schema depends on: the types' .d.ts files and version, the
 * generator library version and this script. Cheap (milliseconds), so tests can check staleness
 * without regenerating.
 */
function inputsFingerprint(alias) {
  const dir = typesRoot(alias);
  const hash = crypto.createHash('sha256');
  hash.update(`types:${require(path.join(dir, 'package.json')).version}\n`);
  const genPkg = require.resolve('ts-json-schema-generator/package.json', { paths: [root] });
  hash.update(`generator:${require(genPkg).version}\n`);
  hash.update(`script:${sha256(fs.readFileSync(__filename))}\n`);
  for (const file of listFiles(dir)) {
    hash.update(`${path.relative(dir, file)}:${sha256(fs.readFileSync(file))}\n`);
  }
  return hash.digest('hex');
}

/** Every generally-available top-level kind in the package: interfaces with literal apiVersion+kind. */
function findKinds(dir) {
  const kinds = [];
  for (const group of fs.readdirSync(dir).sort()) {
    const groupDir = path.join(dir, group);
    // meta/v1 holds API machinery (Status, APIGroup...), not manifests.
    if (group === 'meta' || !fs.statSync(groupDir).isDirectory()) continue;
    for (const file of fs.readdirSync(groupDir).sort()) {
      // GA versions only: alpha APIs are off by default and beta ones get removed in later minors.
      if (!/^v\d+\.d\.ts$/.test(file)) continue;
      const src = fs.readFileSync(path.join(groupDir, file), 'utf8');
      const iface = /export interface (\w+) \{([\s\S]*?)\n\}/g;
      for (let m = iface.exec(src); m; m = iface.exec(src)) {
        const apiVersion = /\n\s*apiVersion\?: "([^"]+)";/.exec(m[2]);
        const kind = /\n\s*kind\?: "([^"]+)";/.exec(m[2]);
        if (apiVersion && kind) {
          kinds.push({
            module: path.join(groupDir, file.replace(/\.d\.ts$/, '')),
            iface: m[1],
            apiVersion: apiVersion[1],
            kind: kind[1],
          });
        }
      }
    }
  }
  return kinds;
}

/** Names definitions `<group>.<version>.<Type>` (module path based) instead of the bare type name. */
function qualifyDefinitionNames(tsj) {
  if (tsj.ExposeNodeParser.prototype.__k8sQualified) return;
  const { symbolAtNode } = require(require.resolve('ts-json-schema-generator/dist/src/Utils/symbolAtNode.js', { paths: [root] }));
  const original = tsj.ExposeNodeParser.prototype.getDefinitionName;
  tsj.ExposeNodeParser.prototype.getDefinitionName = function (node, context) {
    const fullName = this.typeChecker.getFullyQualifiedName(symbolAtNode(node));
    const m = /kubernetes-types[^/"]*\/([^"]+)"\.(\w+)$/.exec(fullName);
    if (m && context.getArguments().length === 0) return `${m[1].replace(/\//g, '.')}.${m[2]}`;
    return original.call(this, node, context);
  };
  tsj.ExposeNodeParser.prototype.__k8sQualified = true;
}

function mapSchema(node, fn) {
  if (Array.isArray(node)) return node.map((n) => mapSchema(n, fn));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) out[k] = mapSchema(v, fn);
  return fn(out);
}

function toInteger(node) {
  if (node.type === 'number') return { ...node, type: 'integer' };
  if (Array.isArray(node.type) && node.type.includes('number')) {
    return { ...node, type: node.type.map((t) => (t === 'number' ? 'integer' : t)) };
  }
  return node;
}

function harden(definitions) {
  const out = {};
  for (const name of Object.keys(definitions).sort()) {
    let def = definitions[name];
    if (!FLOAT_DEFINITIONS.has(name)) def = mapSchema(def, toInteger);
    if (NOT_REQUIRED[name] && def.required) {
      const required = def.required.filter((f) => !NOT_REQUIRED[name].includes(f));
      def = { ...def, required };
      if (required.length === 0) delete def.required;
    }
    if (name === 'api.resource.Quantity') def = { type: ['string', 'number'], pattern: QUANTITY_PATTERN };
    if (def.type === 'object' && !def.properties && def.additionalProperties === false) {
      if (name in FREE_FORM) def = FREE_FORM[name];
      else if (!EMPTY_STRUCTS.has(name)) throw new Error(`empty interface ${name}: add it to FREE_FORM or EMPTY_STRUCTS`);
    }
    out[name] = def;
  }
  return out;
}

function generate({ alias, minor }) {
  const tsj = require(require.resolve('ts-json-schema-generator', { paths: [root] }));
  qualifyDefinitionNames(tsj);
  const dir = typesRoot(alias);
  const kinds = findKinds(dir);
  const modules = [...new Set(kinds.map((k) => k.module))];
  const entryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'k8s-schema-'));
  const entry = path.join(entryDir, 'entry.ts');
  try {
    fs.writeFileSync(
      entry,
      modules.map((m, i) => `import type * as m${i} from ${JSON.stringify(m)};`).join('\n') +
        '\nexport interface K8sManifests {\n' +
        kinds.map((k) => `  ${JSON.stringify(`${k.apiVersion} ${k.kind}`)}: m${modules.indexOf(k.module)}.${k.iface};`).join('\n') +
        '\n}\n',
    );
    const generated = tsj
      .createGenerator({ path: entry, type: 'K8sManifests', expose: 'export', jsDoc: 'none', skipTypeCheck: true, topRef: false })
      .createSchema('K8sManifests');
    const definitions = harden(generated.definitions);
    const kindIndex = {};
    for (const k of [...kinds].sort((a, b) => (a.apiVersion + ' ' + a.kind < b.apiVersion + ' ' + b.kind ? -1 : 1))) {
      const ref = generated.properties[`${k.apiVersion} ${k.kind}`].$ref.replace('#/definitions/', '');
      (kindIndex[k.apiVersion] ??= {})[k.kind] = ref;
    }
    return {
      comment: `Generated by tools/gen-k8s-schema.js from ${alias}; do not edit, regenerate.`,
      kubernetesTypes: require(path.join(dir, 'package.json')).version,
      typesMinor: minor,
      inputsSha256: inputsFingerprint(alias),
      definitionsSha256: sha256(JSON.stringify(definitions)),
      kinds: kindIndex,
      definitions,
    };
  } finally {
    fs.rmSync(entryDir, { recursive: true, force: true });
  }
}

/** The schema of an ADDED_FIELDS entry: `base` (the newest generated schema) plus its fields. */
function derive(base, added) {
  const definitions = { ...base.definitions };
  for (const [name, def] of Object.entries(added.definitions)) {
    if (definitions[name]) throw new Error(`${added.minor}: ${name} is already in kubernetes-types ${base.kubernetesTypes}`);
    definitions[name] = def;
  }
  for (const [name, props] of Object.entries(added.properties)) {
    const def = definitions[name];
    for (const field of Object.keys(props)) if (def.properties[field]) throw new Error(`${added.minor}: ${name}.${field} is already in kubernetes-types ${base.kubernetesTypes}`);
    const properties = Object.fromEntries(Object.entries({ ...def.properties, ...props }).sort(([a], [b]) => (a < b ? -1 : 1)));
    definitions[name] = { ...def, properties };
  }
  const sorted = Object.fromEntries(Object.keys(definitions).sort().map((n) => [n, definitions[n]]));
  return {
    comment: `Generated by tools/gen-k8s-schema.js from ${base.comment.match(/from (\S+);/)[1]} plus ADDED_FIELDS ${added.minor} (${added.why}); do not edit, regenerate.`,
    kubernetesTypes: `${base.kubernetesTypes}+${added.minor}`,
    typesMinor: added.minor,
    inputsSha256: base.inputsSha256,
    definitionsSha256: sha256(JSON.stringify(sorted)),
    kinds: base.kinds,
    definitions: sorted,
  };
}

/** Pretty at the top, one line per definition: small files whose diffs still read per type. */
function serialize(schema) {
  const lines = ['{'];
  const keys = Object.keys(schema);
  keys.forEach((key, i) => {
    const comma = i < keys.length - 1 ? ',' : '';
    if (key === 'definitions' || key === 'kinds') {
      const names = Object.keys(schema[key]);
      lines.push(`  ${JSON.stringify(key)}: {`);
      names.forEach((n, j) => lines.push(`    ${JSON.stringify(n)}: ${JSON.stringify(schema[key][n])}${j < names.length - 1 ? ',' : ''}`));
      lines.push(`  }${comma}`);
    } else {
      lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(schema[key])}${comma}`);
    }
  });
  lines.push('}');
  return lines.join('\n') + '\n';
}

function schemaFile(minor) {
  return path.join(schemaDir, `k8s-${minor}.json`);
}

/** Problems with the committed schema files (empty when they match the installed inputs). */
function checkSchemas() {
  const problems = [];
  const expected = installedTypes();
  const wanted = new Set([...expected, ...ADDED_FIELDS].map((t) => path.basename(schemaFile(t.minor))));
  const present = fs.existsSync(schemaDir) ? fs.readdirSync(schemaDir).filter((f) => /^k8s-.*\.json$/.test(f)) : [];
  for (const f of present) if (!wanted.has(f)) problems.push(`${f}: no kubernetes-types alias for it in package.json`);
  for (const t of expected) {
    const file = schemaFile(t.minor);
    const rel = path.relative(root, file);
    if (!fs.existsSync(file)) {
      problems.push(`${rel}: missing`);
      continue;
    }
    const schema = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (schema.inputsSha256 !== inputsFingerprint(t.alias)) problems.push(`${rel}: stale (inputs changed)`);
    if (schema.definitionsSha256 !== sha256(JSON.stringify(schema.definitions))) problems.push(`${rel}: definitions edited by hand`);
  }
  const newest = expected[expected.length - 1];
  for (const added of ADDED_FIELDS) {
    const rel = path.relative(root, schemaFile(added.minor));
    if (!fs.existsSync(schemaFile(added.minor))) {
      problems.push(`${rel}: missing`);
      continue;
    }
    const schema = JSON.parse(fs.readFileSync(schemaFile(added.minor), 'utf8'));
    const base = JSON.parse(fs.readFileSync(schemaFile(newest.minor), 'utf8'));
    if (schema.inputsSha256 !== inputsFingerprint(newest.alias)) problems.push(`${rel}: stale (inputs changed)`);
    else if (serialize(schema) !== serialize(derive(base, added))) problems.push(`${rel}: stale or edited by hand (not ${newest.minor} plus ADDED_FIELDS ${added.minor})`);
  }
  return problems.map((p) => `${p}; run: node tools/gen-k8s-schema.js`);
}

function main(argv) {
  if (argv.includes('--check')) {
    const problems = checkSchemas();
    for (const p of problems) console.error(p);
    return problems.length ? 1 : 0;
  }
  fs.mkdirSync(schemaDir, { recursive: true });
  const expected = installedTypes();
  const keep = new Set([...expected, ...ADDED_FIELDS].map((t) => schemaFile(t.minor)));
  for (const f of fs.readdirSync(schemaDir)) {
    const full = path.join(schemaDir, f);
    if (/^k8s-.*\.json$/.test(f) && !keep.has(full)) fs.rmSync(full);
  }
  let newest;
  for (const t of expected) {
    newest = generate(t);
    fs.writeFileSync(schemaFile(t.minor), serialize(newest));
    console.log(`${path.relative(root, schemaFile(t.minor))}: ${Object.keys(newest.definitions).length} definitions`);
  }
  for (const added of ADDED_FIELDS) {
    const schema = derive(newest, added);
    fs.writeFileSync(schemaFile(added.minor), serialize(schema));
    console.log(`${path.relative(root, schemaFile(added.minor))}: kubernetes-types ${newest.kubernetesTypes} plus ${added.why}`);
  }
  return 0;
}

module.exports = { checkSchemas, inputsFingerprint, installedTypes, QUANTITY_PATTERN };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
