/** Every rule of `check`, in the order their findings are printed. */
import { BROKER_CAPACITY } from './capacity';
import type { Rule } from './context';
import { CLUSTER_DNS } from './dns';
import { KUEUE_QUEUE } from './kueue';
import { PLACEMENT } from './placement';
import { POD_SECURITY } from './pod-security';
import { MISSING_OBJECT, NAMESPACE } from './references';
import { IMAGE_VOLUME_RUNTIME } from './runtime';
import { JOB_FEATURE, SERVER_VERSION } from './version';

export const RULES: readonly Rule[] = [
  SERVER_VERSION, JOB_FEATURE, IMAGE_VOLUME_RUNTIME, BROKER_CAPACITY, PLACEMENT, POD_SECURITY, NAMESPACE, MISSING_OBJECT, KUEUE_QUEUE, CLUSTER_DNS,
];
