import { Channel, Message } from '../../lib/runtime/handshake/channel';
import { Directory, PeerEntry, peerMessage } from '../../lib/runtime/handshake/directory';
import { Logger } from '../../lib/runtime/handshake/log';

/** A channel that records what the directory sends (the directory only sends, closes and destroys). */
class RecordingChannel {
  readonly sent: Message[] = [];
  destroyed = false;
  send(m: Message): void {
    this.sent.push(m);
  }
  close(): void {
    this.destroyed = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

function entry(rank: number, epoch = 1000 + rank, ip = `10.0.0.${rank + 1}`): PeerEntry {
  return { rank, host: `flux-${rank}`, fqdn: `flux-${rank}.svc.ns.svc.cluster.local`, ip, port: 8060, epoch };
}

/** A directory for `size` pods in a binary tree: 0 → {1, 2}, 1 → {3, 4}, 2 → {5, 6}. */
function directory(size: number): { dir: Directory; register: (e: PeerEntry) => RecordingChannel } {
  const dir = new Directory(entry(0), 'flux', size, size, size, 'kary:2', new Logger(undefined), () => undefined);
  const register = (e: PeerEntry): RecordingChannel => {
    const ch = new RecordingChannel();
    dir.register(ch as unknown as Channel, { ...peerMessage(e), t: 'register' });
    return ch;
  };
  return { dir, register };
}

function report(dir: Directory, from: RecordingChannel, joins: unknown[]): void {
  dir.reportJoins(from as unknown as Channel, { t: 'joins', joins });
}

describe('Directory: who counts as joined', () => {
  test('a child of rank 0 joins by registering, and learns rank 0 as its parent', () => {
    // GIVEN a directory of 3
    const { dir, register } = directory(3);
    // WHEN ranks 1 and 2 (children of rank 0) register
    const chans = [register(entry(1)), register(entry(2))];
    // THEN both have joined and rank 0 is complete
    expect([dir.hasJoined(1), dir.hasJoined(2), dir.allJoined()]).toEqual([true, true, true]);
    // AND each was sent rank 0's entry as its parent
    expect(chans.map((c) => c.sent.map((m) => [m.t, m.rank]))).toEqual([[['peer', 0]], [['peer', 0]]]);
  });

  test('a grandchild joins only when its registered parent reports it with its current epoch', () => {
    // GIVEN ranks 1, 2 and 3 registered (3 is a child of 1)
    const { dir, register } = directory(4);
    const one = register(entry(1));
    const two = register(entry(2));
    register(entry(3));
    expect(dir.hasJoined(3)).toBe(false);
    // WHEN rank 2 (not its parent) vouches for rank 3, and rank 1 reports a stale epoch and garbage
    report(dir, two, [[3, entry(3).epoch]]);
    report(dir, one, [[3, 1], ['3', entry(3).epoch], [3], 'x', [99, 1]]);
    // THEN rank 3 has not joined
    expect([dir.hasJoined(3), dir.allJoined()]).toEqual([false, false]);
    // WHEN its parent reports its current epoch
    report(dir, one, [[3, entry(3).epoch]]);
    // THEN it has joined, and the directory is complete
    expect([dir.hasJoined(3), dir.allJoined()]).toEqual([true, true]);
  });

  test('a report that arrives before the child registers counts once it registers in that run', () => {
    // GIVEN rank 1 registered and reporting rank 3 (a new rank 0 hears from parents first)
    const { dir, register } = directory(4);
    const one = register(entry(1));
    register(entry(2));
    report(dir, one, [[3, entry(3).epoch]]);
    expect(dir.hasJoined(3)).toBe(false);
    // WHEN rank 3 registers with that epoch
    register(entry(3));
    // THEN it has joined
    expect(dir.allJoined()).toBe(true);
  });

  test('a parent that comes back as a new run un-joins its children until they verify it again', () => {
    // GIVEN a complete directory of 4
    const { dir, register } = directory(4);
    const one = register(entry(1));
    register(entry(2));
    const three = register(entry(3));
    report(dir, one, [[3, entry(3).epoch]]);
    expect(dir.allJoined()).toBe(true);
    // WHEN rank 1 is replaced (new epoch, new IP)
    dir.forget(one as unknown as Channel);
    const newOne = register(entry(1, 5000, '10.0.1.2'));
    // THEN rank 3 is pushed the new entry and no longer counts as joined
    expect(three.sent.map((m) => [m.t, m.rank, m.ip])).toEqual([['peer', 1, '10.0.0.2'], ['peer', 1, '10.0.1.2']]);
    expect([dir.hasJoined(1), dir.hasJoined(3), dir.allJoined()]).toEqual([true, false, false]);
    // AND the old run's report no longer counts, only the new parent's
    report(dir, one, [[3, entry(3).epoch]]);
    expect(dir.hasJoined(3)).toBe(false);
    report(dir, newOne, [[3, entry(3).epoch]]);
    expect(dir.allJoined()).toBe(true);
  });

  test('a report still queued on a replaced parent\'s old session does not count, though that session is not closed yet', () => {
    // GIVEN rank 3 joined through rank 1's first run
    const { dir, register } = directory(4);
    const one = register(entry(1));
    register(entry(2));
    register(entry(3));
    report(dir, one, [[3, entry(3).epoch]]);
    // WHEN rank 1's new run registers before the old session closed
    const newOne = register(entry(1, 5000, '10.0.1.2'));
    expect(dir.hasJoined(3)).toBe(false);
    // THEN a batch that was still on the old session does not join rank 3 again
    report(dir, one, [[3, entry(3).epoch]]);
    expect(dir.hasJoined(3)).toBe(false);
    // AND the new session's report does
    report(dir, newOne, [[3, entry(3).epoch]]);
    expect(dir.hasJoined(3)).toBe(true);
  });

  test('knows the registered addresses: a replaced pod\'s old IP is forgotten', () => {
    // GIVEN rank 1 registered, then replaced with a new IP
    const { dir, register } = directory(3);
    register(entry(1));
    expect([dir.hasAddress('10.0.0.1'), dir.hasAddress('10.0.0.2'), dir.hasAddress('10.0.0.3')]).toEqual([true, true, false]);
    register(entry(1, 5000, '10.0.1.2'));
    // THEN only the new one is known (rank 0's own stays)
    expect([dir.hasAddress('10.0.0.2'), dir.hasAddress('10.0.1.2'), dir.hasAddress('10.0.0.1')]).toEqual([false, true, true]);
  });

  test('an older run registering after its replacement is told it is stale and ignored', () => {
    // GIVEN rank 1 registered in run 2000
    const { dir, register } = directory(3);
    register(entry(1, 2000));
    // WHEN the terminating run 1500 reconnects
    const old = register(entry(1, 1500, '10.9.9.9'));
    // THEN it is told so and its entry is not taken
    expect([old.sent.map((m) => m.t), old.destroyed]).toEqual([['stale'], true]);
    expect([...dir.peers()].find((p) => p.rank === 1)?.ip).toBe('10.0.0.2');
  });
});
