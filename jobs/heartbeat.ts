/**
 * The heartbeat queue: proves a worker takes jobs from Redis and writes to MongoDB. Its processor
 * is processors/heartbeat.ts, loaded by the worker process only.
 */
import { defineJob } from '../src/queue/job-definition';

export const HEARTBEAT_QUEUE = 'heartbeat';

export interface HeartbeatPayload {
  enqueuedAt: string;
  /** Work time to simulate, bounded; lets tests hold a job in flight across a shutdown. */
  holdMs?: number;
}

export type HeartbeatResult = 'recorded' | 'already-recorded';

export const heartbeatJob = defineJob<HeartbeatPayload, HeartbeatResult>()(HEARTBEAT_QUEUE, 'heartbeat');

/** One heartbeat per minute, whatever the number of schedulers: the job id is the minute. */
export function heartbeatJobId(now: Date): string {
  const minute = now.toISOString().slice(0, 16).replace(':', ''); // BullMQ job ids may not contain ':'
  return `heartbeat-${minute}`;
}

export async function enqueueHeartbeat(now: Date): Promise<void> {
  await heartbeatJob.add({ enqueuedAt: now.toISOString() }, { jobId: heartbeatJobId(now) });
}
