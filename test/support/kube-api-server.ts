/**
 * A local HTTP server that answers the Kubernetes API paths the day-2 commands use, with objects
 * shaped as the API server returns them: lists (with label and field selectors), gets, watches
 * (chunked JSON event lines), merge patches of Jobs, pod log streams, pod events, and exec over a
 * websocket speaking the v5/v4 channel protocol (the command really runs, as a local process), and
 * what `check` reads: /version, nodes, namespaces, and gets of Secrets, ConfigMaps, claims, accounts
 * and Services.
 * Permissions can be taken away per verb and resource (403 with the API server's Status body).
 * The day-2 commands run as real processes against it, through a kubeconfig the test writes.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';

// ws is a dependency of @kubernetes/client-node; it has no type package here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { WebSocketServer } = require('ws') as { WebSocketServer: new (o: { noServer: boolean; handleProtocols: (p: Set<string>) => string | false }) => any };

type Obj = Record<string, any>;
type Kind = 'jobs' | 'pods' | 'events' | 'nodes' | 'namespaces' | 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'serviceaccounts' | 'services' | 'workloads' | 'localqueues' | 'clusterqueues';
const KINDS: Record<Kind, string> = {
  jobs: 'Job', pods: 'Pod', events: 'Event', nodes: 'Node', namespaces: 'Namespace', secrets: 'Secret', configmaps: 'ConfigMap',
  persistentvolumeclaims: 'PersistentVolumeClaim', serviceaccounts: 'ServiceAccount', services: 'Service', workloads: 'Workload',
  localqueues: 'LocalQueue', clusterqueues: 'ClusterQueue',
};
/** Kueue's API group and the one version this server serves (Kueue 0.17 stores v1beta2). */
const KUEUE_GROUP = 'kueue.x-k8s.io';

/** A request the server saw: `verb resource` (list, get, watch, patch, log, exec) and its query. */
export interface SeenRequest {
  readonly verb: string;
  readonly resource: string;
  readonly name?: string;
  readonly query: URLSearchParams;
}

export interface LogStream {
  /** The text the log has now. */
  text: string;
  /** Followed streams stay open until this is true. */
  ended: boolean;
}

export class KubeApiServer {
  private readonly server: http.Server;
  private readonly wss: any;
  private readonly objects = Object.fromEntries(Object.keys(KINDS).map((k) => [k, new Map<string, Obj>()])) as Record<Kind, Map<string, Obj>>;
  /** What GET /version answers (undefined: 404, as a server without the endpoint). */
  version: Obj | undefined = { major: '1', minor: '35', gitVersion: 'v1.35.2', platform: 'linux/amd64' };
  private readonly watchers: Array<{ kind: Kind; ns: string; query: URLSearchParams; res: http.ServerResponse }> = [];
  private readonly logFollowers: Array<{ key: string; res: http.ServerResponse; sent: number }> = [];
  private readonly children = new Set<ChildProcess>();
  private resourceVersion = 1000;
  /** `verb resource` pairs the account may not use, e.g. `list pods`, `patch jobs`, `create pods/exec`. */
  readonly forbidden = new Set<string>();
  readonly requests: SeenRequest[] = [];
  /** Logs by `pod/container` (and `pod/container/previous`). */
  readonly logs = new Map<string, LogStream>();
  /** Whether Kueue's Workloads are served (false: 404, as a cluster without Kueue). */
  kueue = true;
  /** Called after a Job was patched (the test plays the Job controller). */
  onJobPatched: (job: Obj) => void = () => undefined;
  /** Requests waiting for one of the kind seen (see `seen`). */
  private readonly waiters: Array<{ test: (r: SeenRequest) => boolean; resolve: () => void }> = [];
  /** Environment of the processes exec runs. */
  execEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH };

  constructor() {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.wss = new WebSocketServer({ noServer: true, handleProtocols: (p: Set<string>) => (p.has('v5.channel.k8s.io') ? 'v5.channel.k8s.io' : p.has('v4.channel.k8s.io') ? 'v4.channel.k8s.io' : false) });
    this.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const c of this.children) c.kill('SIGKILL');
    for (const w of this.watchers) w.res.end();
    for (const f of this.logFollowers) f.res.end();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Writes a kubeconfig for this server (context `test`, namespace `ns`) and returns its path. */
  kubeconfig(dir: string, ns: string, extraContexts: string[] = []): string {
    const file = path.join(dir, 'kubeconfig');
    const contexts = ['test', ...extraContexts].map((c) => `- name: ${c}\n  context:\n    cluster: local\n    user: alice\n    namespace: ${c === 'test' ? ns : c}\n`).join('');
    fs.writeFileSync(file, `apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: ${this.url}
    insecure-skip-tls-verify: true
contexts:
${contexts}current-context: test
users:
- name: alice
  user:
    token: not-a-secret
`);
    return file;
  }

  /** Adds or replaces an object (with server-set metadata), notifying watchers. */
  put(kind: Kind, obj: Obj): Obj {
    const key = `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    const type = this.objects[kind].has(key) ? 'MODIFIED' : 'ADDED';
    obj.metadata.resourceVersion = String(++this.resourceVersion);
    obj.metadata.uid ??= `uid-${kind}-${this.resourceVersion}`;
    obj.metadata.creationTimestamp ??= new Date(Date.UTC(2026, 0, 1, 0, 0, this.resourceVersion % 60)).toISOString();
    this.objects[kind].set(key, obj);
    this.notify(kind, type, obj);
    return obj;
  }

  get(kind: Kind, ns: string, name: string): Obj | undefined {
    return this.objects[kind].get(`${ns}/${name}`);
  }

  /** Changes an object in place and notifies watchers. */
  update(kind: Kind, ns: string, name: string, change: (o: Obj) => void): Obj {
    const obj = this.get(kind, ns, name);
    if (!obj) throw new Error(`no ${kind} ${ns}/${name}`);
    change(obj);
    return this.put(kind, obj);
  }

  /** Removes an object, notifying watchers. */
  delete(kind: Kind, ns: string, name: string): void {
    const obj = this.get(kind, ns, name);
    if (!obj) throw new Error(`no ${kind} ${ns}/${name}`);
    this.objects[kind].delete(`${ns}/${name}`);
    this.notify(kind, 'DELETED', obj);
  }

  /** Resolves once a request matching `test` was seen (now or later). */
  seen(test: (r: SeenRequest) => boolean): Promise<void> {
    if (this.requests.some(test)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** Appends to a log, sending the new text to its followers. */
  appendLog(key: string, text: string, end = false): void {
    const log = this.logs.get(key) ?? { text: '', ended: false };
    log.text += text;
    log.ended ||= end;
    this.logs.set(key, log);
    for (const f of this.logFollowers.filter((x) => x.key === key)) {
      f.res.write(log.text.slice(f.sent));
      f.sent = log.text.length;
      if (log.ended) f.res.end();
    }
  }

  private record(r: SeenRequest): void {
    this.requests.push(r);
    for (const w of [...this.waiters]) {
      if (w.test(r)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  }

  private notify(kind: Kind, type: string, obj: Obj): void {
    for (const w of this.watchers) {
      if (w.kind === kind && w.ns === (obj.metadata.namespace ?? '') && matches(obj, w.query)) w.res.write(`${JSON.stringify({ type, object: obj })}\n`);
    }
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = url.searchParams;
    let m: RegExpExecArray | null;
    if (req.headers.authorization !== 'Bearer not-a-secret') return status(res, 401, 'Unauthorized', 'Unauthorized');
    if (url.pathname === '/version') {
      this.record({ verb: 'get', resource: '/version', query: q });
      if (this.denied(res, 'get', '/version', '', '')) return;
      return this.version ? json(res, 200, this.version) : status(res, 404, 'NotFound', 'the server could not find the requested resource');
    }
    if ((m = /^\/api\/v1\/(nodes|namespaces)(?:\/([^/]+))?$/.exec(url.pathname))) {
      return this.resource(req, res, m[1] as Kind, '', '', m[2] && decodeURIComponent(m[2]), q);
    }
    if ((m = /^\/apis\/batch\/v1\/namespaces\/([^/]+)\/jobs(?:\/([^/]+))?$/.exec(url.pathname))) {
      return this.resource(req, res, 'jobs', 'batch', decodeURIComponent(m[1]), m[2] && decodeURIComponent(m[2]), q);
    }
    if ((m = /^\/apis\/kueue\.x-k8s\.io\/v1beta2\/namespaces\/([^/]+)\/(workloads|localqueues)(?:\/([^/]+))?$/.exec(url.pathname)) && this.kueue) {
      return this.resource(req, res, m[2] as Kind, KUEUE_GROUP, decodeURIComponent(m[1]), m[3] && decodeURIComponent(m[3]), q);
    }
    if ((m = /^\/apis\/kueue\.x-k8s\.io\/v1beta2\/clusterqueues(?:\/([^/]+))?$/.exec(url.pathname)) && this.kueue) {
      return this.resource(req, res, 'clusterqueues', KUEUE_GROUP, '', m[1] && decodeURIComponent(m[1]), q);
    }
    if ((m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/log$/.exec(url.pathname)) && req.method === 'GET') {
      return this.log(res, decodeURIComponent(m[1]), decodeURIComponent(m[2]), q);
    }
    if ((m = /^\/api\/v1\/namespaces\/([^/]+)\/(pods|events|secrets|configmaps|persistentvolumeclaims|serviceaccounts|services)(?:\/([^/]+))?$/.exec(url.pathname))) {
      return this.resource(req, res, m[2] as Kind, '', decodeURIComponent(m[1]), m[3] && decodeURIComponent(m[3]), q);
    }
    status(res, 404, 'NotFound', 'the server could not find the requested resource');
  }

  private denied(res: http.ServerResponse, verb: string, resource: string, group: string, ns: string): boolean {
    if (!this.forbidden.has(`${verb} ${resource}`)) return false;
    const [plural, sub] = resource.split('/');
    status(res, 403, 'Forbidden', `${resource} is forbidden: User "alice" cannot ${verb} resource "${plural}"${sub ? ` subresource "${sub}"` : ''} in API group "${group}" in the namespace "${ns}"`, { kind: plural });
    return true;
  }

  private resource(req: http.IncomingMessage, res: http.ServerResponse, kind: Kind, group: string, ns: string, name: string | undefined, q: URLSearchParams): void {
    const verb = req.method === 'PATCH' ? 'patch' : name ? 'get' : q.get('watch') === 'true' ? 'watch' : 'list';
    this.record({ verb, resource: kind, name, query: q });
    if (this.denied(res, verb, kind, group, ns)) return;
    const apiVersion = group === KUEUE_GROUP ? `${group}/v1beta2` : group ? `${group}/v1` : 'v1';
    const listKind = `${KINDS[kind]}List`;
    if (verb === 'list') {
      const items = [...this.objects[kind].values()].filter((o) => (o.metadata.namespace ?? '') === ns && matches(o, q));
      return json(res, 200, { kind: listKind, apiVersion, metadata: { resourceVersion: String(this.resourceVersion) }, items });
    }
    if (verb === 'watch') {
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.flushHeaders();
      const w = { kind, ns, query: q, res };
      this.watchers.push(w);
      res.on('close', () => this.watchers.splice(this.watchers.indexOf(w), 1));
      return;
    }
    const obj = this.get(kind, ns, name!);
    if (!obj) return status(res, 404, 'NotFound', `${kind}${group ? `.${group}` : ''} "${name}" not found`, { name, kind });
    if (verb === 'get') return json(res, 200, obj);
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.headers['content-type'] !== 'application/merge-patch+json') {
        return status(res, 415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/merge-patch+json (test server), got ${req.headers['content-type']}`);
      }
      mergePatch(obj, JSON.parse(body));
      const updated = this.put(kind, obj);
      json(res, 200, updated);
      if (kind === 'jobs') this.onJobPatched(updated);
    });
  }

  private log(res: http.ServerResponse, ns: string, pod: string, q: URLSearchParams): void {
    const container = q.get('container') ?? '';
    this.record({ verb: 'get', resource: 'pods/log', name: pod, query: q });
    if (this.denied(res, 'get', 'pods/log', '', ns)) return;
    if (!this.get('pods', ns, pod)) return status(res, 404, 'NotFound', `pods "${pod}" not found`);
    const key = `${pod}/${container}${q.get('previous') === 'true' ? '/previous' : ''}`;
    const log = this.logs.get(key);
    if (!log) return status(res, 400, 'BadRequest', `previous terminated container "${container}" in pod "${pod}" not found`);
    let text = log.text;
    const tail = q.get('tailLines');
    if (tail !== null) text = text.split(/(?<=\n)/).slice(-Number(tail)).join('');
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write(text);
    if (q.get('follow') === 'true' && !log.ended) this.logFollowers.push({ key, res, sent: log.text.length });
    else res.end();
  }

  /** exec: the command runs here as a local process; its output goes out on channels 1 and 2, its exit status on 3. */
  private upgrade(req: http.IncomingMessage, socket: any, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/.exec(url.pathname);
    const q = url.searchParams;
    const reject = (code: number, text: string): void => {
      socket.end(`HTTP/1.1 ${code} ${text}\r\ncontent-type: application/json\r\n\r\n`);
    };
    if (!m) return reject(404, 'Not Found');
    this.record({ verb: 'create', resource: 'pods/exec', name: decodeURIComponent(m[2]), query: q });
    if (req.headers.authorization !== 'Bearer not-a-secret') return reject(401, 'Unauthorized');
    if (this.forbidden.has('create pods/exec')) return reject(403, 'Forbidden');
    this.wss.handleUpgrade(req, socket, head, (ws: any) => {
      const command = q.getAll('command');
      const child = spawn(command[0], command.slice(1), { env: this.execEnv, stdio: ['pipe', 'pipe', 'pipe'] });
      this.children.add(child);
      const send = (channel: number, data: Buffer | string): void => ws.send(Buffer.concat([Buffer.from([channel]), Buffer.from(data)]));
      child.stdout!.on('data', (d: Buffer) => send(1, d));
      child.stderr!.on('data', (d: Buffer) => send(2, d));
      child.stdin!.on('error', () => undefined);
      ws.on('message', (data: Buffer) => {
        if (data[0] === 0) child.stdin!.write(data.subarray(1));
        else if (data[0] === 255 && data[1] === 0) child.stdin!.end();
      });
      child.on('error', (e) => {
        send(3, JSON.stringify({ metadata: {}, status: 'Failure', message: `exec failed: ${e.message}`, reason: 'InternalError' }));
        ws.close(1000);
      });
      child.on('close', (code) => {
        this.children.delete(child);
        const s = code === 0
          ? { metadata: {}, status: 'Success' }
          : { metadata: {}, status: 'Failure', message: `command terminated with non-zero exit code: exit status ${code}`, reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: String(code) }] } };
        send(3, JSON.stringify(s));
        ws.close(1000);
      });
      if (q.get('stdin') !== 'true') child.stdin!.end();
    });
  }
}

function json(res: http.ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A metav1.Status error body, as the API server sends it. */
function status(res: http.ServerResponse, code: number, reason: string, message: string, details?: Obj): void {
  json(res, code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code });
}

/** labelSelector (`k=v,k2=v2`) and fieldSelector (`metadata.name=`, `involvedObject.*=`, `type=`) equality terms. */
function matches(obj: Obj, q: URLSearchParams): boolean {
  const terms = (s: string | null): Array<[string, string]> => (s ? s.split(',').map((t) => t.split('=') as [string, string]) : []);
  const labels = obj.metadata.labels ?? {};
  if (!terms(q.get('labelSelector')).every(([k, v]) => labels[k] === v)) return false;
  return terms(q.get('fieldSelector')).every(([k, v]) => String(k.split('.').reduce((o: any, p) => o?.[p], obj)) === v);
}

/** RFC 7386 JSON merge patch. */
function mergePatch(target: Obj, patch: Obj): void {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete target[k];
    else if (typeof v === 'object' && !Array.isArray(v) && typeof target[k] === 'object' && target[k] !== null) mergePatch(target[k], v);
    else target[k] = v;
  }
}

/** A temporary directory for one test. */
export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
