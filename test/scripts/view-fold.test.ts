import * as fs from 'fs';
import * as path from 'path';
import { renderScripts } from '../../lib/scripts/render';
import { Sandbox, sampleModel } from './harness';

let sandbox: Sandbox;
let opt: string;
beforeEach(() => {
  sandbox = new Sandbox();
  opt = path.join(sandbox.root, 'spack-image');
  makeSpackImage(opt);
});
afterEach(() => {
  sandbox.remove();
});

/**
 * /opt of a view image as Spack makes it: three packages in the install tree, and a view of one
 * link per file (absolute, into the tree), some directories holding one package's files only,
 * some mixing packages, one linking only part of its package's directory, a renamed one, a
 * regular file, an empty directory and a relative link.
 */
function makeSpackImage(root: string): void {
  const tree = path.join(root, 'software', 'linux-x86_64');
  const view = path.join(root, 'views', '._view', 'h4sh');
  const file = (p: string, text = `${path.basename(p)}\n`) => {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  };
  const core = `${tree}/flux-core-0.88.0`;
  const python = `${tree}/python-3.11.9`;
  const sched = `${tree}/flux-sched-0.54.0`;
  const packageFiles: Record<string, string[]> = {
    [core]: ['bin/flux', 'lib/libflux-core.so.2', 'lib/python3.11/site-packages/flux/__init__.py',
      'lib/python3.11/site-packages/flux/core/handle.py', 'share/man/man1/flux.1', 'etc/flux/rc1.d/01-core'],
    [python]: ['bin/python3.11', 'lib/python3.11/os.py', 'lib/python3.11/json/__init__.py',
      'lib/python3.11/json/decoder.py', 'lib/python3.11/email/parser.py', 'include/python3.11/Python.h'],
    [sched]: ['lib/flux/modules/sched-fluxion-resource.so', 'lib/python3.11/site-packages/fluxion/__init__.py',
      'etc/flux/rc1.d/02-sched'],
  };
  for (const [prefix, files] of Object.entries(packageFiles)) {
    for (const f of files) {
      file(`${prefix}/${f}`);
      // the view: one absolute link per file, at the same relative path
      fs.mkdirSync(path.dirname(`${view}/${f}`), { recursive: true });
      if (f !== 'include/python3.11/Python.h') fs.symlinkSync(`${prefix}/${f}`, `${view}/${f}`);
    }
    file(`${prefix}/.spack/spec.json`, '{}\n');
  }
  fs.chmodSync(`${core}/bin/flux`, 0o755);
  // links inside the tree, linked from the view like files
  fs.symlinkSync('libflux-core.so.2', `${core}/lib/libflux-core.so`);
  fs.symlinkSync(`${core}/lib/libflux-core.so`, `${view}/lib/libflux-core.so`);
  fs.symlinkSync('python3.11', `${python}/bin/python3`);
  fs.symlinkSync(`${python}/bin/python3`, `${view}/bin/python3`);
  // a file the view leaves out (another package had it): email/ is linked file by file
  file(`${python}/lib/python3.11/email/utils.py`);
  // the headers under another name
  fs.rmdirSync(`${view}/include/python3.11`);
  fs.mkdirSync(`${view}/include/py`);
  fs.symlinkSync(`${python}/include/python3.11/Python.h`, `${view}/include/py/Python.h`);
  // a script Spack copied into the view (its first line rewritten), an empty directory, a relative link
  file(`${view}/bin/flux-python`, '#!/opt/views/view/bin/python3\n');
  fs.mkdirSync(`${view}/var/empty`, { recursive: true });
  fs.symlinkSync('lib', `${view}/lib64`);
  fs.symlinkSync('._view/h4sh', path.join(root, 'views', 'view'));
  fs.symlinkSync('views/view', path.join(root, 'view'));
}

/**
 * Every path under `dir`, links followed: relative path -> the real path of the file it is in the
 * install tree, or the content of a file of the view itself.
 */
function resolvedTree(dir: string, rel = ''): Map<string, string> {
  const out = new Map<string, string>();
  const own = fs.realpathSync(dir) + path.sep;
  for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
    const p = path.join(rel, name);
    const real = fs.realpathSync(path.join(dir, p));
    if (fs.statSync(real).isDirectory()) {
      out.set(p, 'directory');
      for (const [k, v] of resolvedTree(dir, p)) out.set(k, v);
    } else {
      out.set(p, real.startsWith(own) ? `a file of the view: ${fs.readFileSync(real, 'utf8')}` : real);
    }
  }
  return out;
}

/** What the copy created: relative path -> 'dir', 'file' or '-> target'. */
function entries(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
    const p = path.join(rel, name);
    const st = fs.lstatSync(path.join(dir, p));
    if (st.isSymbolicLink()) out[p] = `-> ${fs.readlinkSync(path.join(dir, p))}`;
    else if (st.isDirectory()) Object.assign(out, { [p]: 'dir' }, entries(dir, p));
    else out[p] = 'file';
  }
  return out;
}

describe('flux-init.sh: the view copied as folded links', () => {
  const scripts = () => renderScripts(sampleModel(sandbox, { viewDisabled: false }));
  const init = (env: Record<string, string> = {}) => sandbox.runInit(scripts(), { env: { FLUX_OPT_DIR: opt, ...env } });
  const source = () => path.join(opt, 'views', '._view', 'h4sh');
  const copied = () => `${sandbox.mount}/view`;
  const tree = `${'software'}/linux-x86_64`;

  test('every path of the view resolves to the same file, with a link per directory that mirrors one of the tree', () => {
    // WHEN the init container copies the view
    const result = init();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // THEN the copy presents the same tree: the same paths, each the same file
    expect(resolvedTree(copied())).toEqual(resolvedTree(source()));
    // AND a directory holding one package's directory, all of it, is one link to it
    const t = path.join(opt, tree);
    const made = entries(copied());
    expect(made['share']).toBe(`-> ${t}/flux-core-0.88.0/share`);
    expect(made['lib/python3.11/json']).toBe(`-> ${t}/python-3.11.9/lib/python3.11/json`);
    expect(made['lib/python3.11/site-packages/flux']).toBe(`-> ${t}/flux-core-0.88.0/lib/python3.11/site-packages/flux`);
    expect(made['lib/flux']).toBe(`-> ${t}/flux-sched-0.54.0/lib/flux`);
    // AND one under another name is a link of that name
    expect(made['include/py']).toBe(`-> ${t}/python-3.11.9/include/python3.11`);
    // AND directories that mix packages, or leave out part of one, are directories of links
    for (const d of ['bin', 'lib', 'lib/python3.11', 'lib/python3.11/site-packages', 'etc/flux/rc1.d', 'lib/python3.11/email']) {
      expect([d, made[d]]).toEqual([d, 'dir']);
    }
    expect(made['lib/python3.11/email/parser.py']).toBe(`-> ${t}/python-3.11.9/lib/python3.11/email/parser.py`);
    expect(made['bin/python3']).toBe(`-> ${t}/python-3.11.9/bin/python3`);
    // AND a regular file, an empty directory and a relative link are copied as they are
    expect(made['bin/flux-python']).toBe('file');
    expect(fs.readFileSync(`${copied()}/bin/flux-python`, 'utf8')).toBe('#!/opt/views/view/bin/python3\n');
    expect(made['var/empty']).toBe('dir');
    expect(made['lib64']).toBe('-> lib');
    // AND it made 28 entries where a copy link by link makes 40
    expect(Object.keys(made)).toHaveLength(28);
    expect(Object.keys(entries(source()))).toHaveLength(40);
    // AND the install tree is copied whole, its Spack metadata included
    expect(fs.readFileSync(`${sandbox.mount}/${tree}/python-3.11.9/lib/python3.11/email/utils.py`, 'utf8')).toBe('utils.py\n');
    expect(fs.existsSync(`${sandbox.mount}/${tree}/flux-core-0.88.0/.spack/spec.json`)).toBe(true);
  });

  test('a restarted init container makes the same copy again', () => {
    // GIVEN a first copy
    expect(init().status).toBe(0);
    const first = entries(copied());
    // WHEN the container runs again in the same pod
    const again = init();
    // THEN the copy is the same, nothing doubled
    expect(again.status).toBe(0);
    expect(entries(copied())).toEqual(first);
    expect(resolvedTree(copied())).toEqual(resolvedTree(source()));
  });

  test('without a working GNU tar it copies the view link by link, and says so', () => {
    // GIVEN an image whose tar fails
    fs.writeFileSync(path.join(sandbox.bin, 'tar'), '#!/bin/sh\nexit 2\n', { mode: 0o755 });
    // WHEN the init container copies the view
    const result = init();
    // THEN it copies it link by link: the same tree
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('flux-init: copying the Flux view link by link (no GNU find and tar in this image, or odd names)\n');
    expect(resolvedTree(copied())).toEqual(resolvedTree(source()));
    expect(entries(copied())['share']).toBe('dir');
  });

  test('a name with a newline or a tab makes it copy link by link, never a wrong tree', () => {
    // GIVEN a view file whose name holds a newline, and one with a tab
    fs.writeFileSync(`${source()}/share/man/odd\nname`, 'x\n');
    fs.writeFileSync(`${source()}/bin/odd\tname`, 'y\n');
    // WHEN the init container copies the view
    const result = init();
    // THEN the copy is the same tree
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('link by link');
    expect(resolvedTree(copied())).toEqual(resolvedTree(source()));
  });
});
