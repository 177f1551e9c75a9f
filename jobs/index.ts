/** Every job kind the worker process runs; the dashboard shows each one's queue. */
import type { JobKind } from './types';
import { heartbeatJob } from './heartbeat';

export const jobKinds: JobKind[] = [
  heartbeatJob,
];

export function queueNames(): string[] {
  return [...new Set(jobKinds.map((kind) => kind.queue))];
}
