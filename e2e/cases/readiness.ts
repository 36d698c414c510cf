/**
 * Ready means connected (docs/day2.md), on real brokers: one worker starts its broker 25 s late, so
 * it stays not Ready until it connected to its parent, and the lead, whose quorum needs it, turns
 * Ready only once it did (the instance is up). The lead's job then runs long enough for the probes
 * (every 5 s) to see every pod Ready.
 */
import { E2eCase } from '../case';
import { synthCluster } from './synth';

export function readinessCases(): E2eCase[] {
  return [{
    id: 'example readiness: a late worker is not Ready until connected; the lead is Ready once the instance is up',
    note: 'rank 2 starts its broker 25 s late (workerPre hook); Ready times compared with the brokers\' connection times',
    synth: synthCluster('readiness', 'default', 'flux-ready', {
      size: 3,
      logging: { quiet: true },
      containers: [{
        image: 'ubuntu:noble',
        command: 'sleep 15',
        commands: { workerPre: 'case "$(hostname)" in *-2) sleep 25 ;; esac' },
      }],
    }),
    expect: { result: 'Succeeded', readyMeansConnected: { lateRank: 2, lateSeconds: 25 } },
  }];
}
