/**
 * Where the run records live: docs/e2e-runs/podemu.json for the pod emulator, and for a real
 * cluster docs/e2e-runs/kube-MINOR.json, one per Kubernetes minor of the API server (the suite runs
 * on clusters of several versions, one at a time, and each keeps its own results).
 *
 * Before that, a real cluster's record was docs/e2e-runs/kube.json (the last full run, on 1.36).
 * It is still read, as the record of the minor its text names, and the next real-cluster run moves
 * it to that minor's file: every record is then named for its version, and nothing is lost if the
 * first run after the change is on another version.
 */
import * as fs from 'fs';
import * as path from 'path';
import { versionsFromDescription } from './kube/cluster-info';
import { RunRecord, keptRecord } from './run-record';

const LEGACY_KUBE = 'kube.json';

function runsDir(repoRoot: string): string {
  return path.join(repoRoot, 'docs', 'e2e-runs');
}

/** The file of a target's record; a real cluster's needs its minor. */
export function recordFile(repoRoot: string, target: RunRecord['target'], minor?: string): string {
  if (target === 'podemu') return path.join(runsDir(repoRoot), 'podemu.json');
  if (!minor) throw new Error('a real cluster\'s run record is kept by its Kubernetes minor: the API server\'s version is unknown');
  return path.join(runsDir(repoRoot), `kube-${minor}.json`);
}

function readJson(file: string): RunRecord | undefined {
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) as RunRecord : undefined;
}

/** Writes a record to its file (kube: its minor's) and returns the file. */
export function writeRunRecord(repoRoot: string, record: RunRecord): string {
  const file = recordFile(repoRoot, record.target, record.versions?.minor);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Logs paths are this machine's: the record keeps what the report shows.
  const results = record.results.map(({ logs: _logs, ...r }) => r);
  fs.writeFileSync(file, `${JSON.stringify({ ...record, results }, null, 1)}\n`);
  return file;
}

export function readPodemuRecord(repoRoot: string): RunRecord | undefined {
  return readJson(recordFile(repoRoot, 'podemu'));
}

/** kube.json as a record with its versions as fields (read from its text); undefined if absent. */
function readLegacyKube(repoRoot: string): RunRecord | undefined {
  const record = readJson(path.join(runsDir(repoRoot), LEGACY_KUBE));
  if (!record) return undefined;
  const versions = record.versions ?? (record.environment ? versionsFromDescription(record.environment) : undefined);
  return versions ? { ...record, versions } : record;
}

/** Records by their Kubernetes minor, oldest first (a record without versions first of all). */
export function minorOrder(a: RunRecord, b: RunRecord): number {
  const key = (r: RunRecord) => (r.versions?.minor ?? '0.0').split('.').map(Number);
  const [x, y] = [key(a), key(b)];
  return x[0] - y[0] || x[1] - y[1];
}

/** Every real cluster's record, oldest minor first; kube.json counts as its minor's if that has no file. */
export function readKubeRecords(repoRoot: string): RunRecord[] {
  const dir = runsDir(repoRoot);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^kube-\d+\.\d+\.json$/.test(f)) : [];
  const records = files.map((f) => readJson(path.join(dir, f))!);
  const legacy = readLegacyKube(repoRoot);
  if (legacy && !records.some((r) => r.versions?.minor === legacy.versions?.minor)) records.push(legacy);
  return records.sort(minorOrder);
}

/**
 * Moves kube.json to its minor's file (unless that one exists, which then holds the newer runs) and
 * removes it; returns what it did, or undefined when there was nothing to move. A kube.json whose
 * text names no API server version stays (it is still read, outside the version matrix).
 */
export function migrateLegacyKubeRecord(repoRoot: string): string | undefined {
  const legacy = readLegacyKube(repoRoot);
  const minor = legacy?.versions?.minor;
  if (!legacy || !minor) return undefined;
  const from = path.join(runsDir(repoRoot), LEGACY_KUBE);
  const to = recordFile(repoRoot, 'kube', minor);
  const kept = !fs.existsSync(to);
  if (kept) writeRunRecord(repoRoot, legacy);
  fs.rmSync(from);
  return kept ? `moved ${LEGACY_KUBE} to ${path.basename(to)}` : `removed ${LEGACY_KUBE}: ${path.basename(to)} holds the runs of ${minor} since`;
}

/**
 * Keeps a run: in its minor's record on a real cluster (kube.json moved first), else the
 * emulator's (keptRecord says how). Returns what it wrote and what it said, or undefined when
 * nothing is kept.
 */
export function keepRun(repoRoot: string, run: RunRecord, only: boolean): { file: string; said: string[] } | undefined {
  const moved = run.target === 'kube' ? migrateLegacyKubeRecord(repoRoot) : undefined;
  const previous = run.target === 'kube' ? readKubeRecords(repoRoot).find((r) => r.versions?.minor === run.versions?.minor) : readPodemuRecord(repoRoot);
  const kept = keptRecord(previous, run, only);
  return kept ? { file: writeRunRecord(repoRoot, kept), said: moved ? [moved] : [] } : undefined;
}
