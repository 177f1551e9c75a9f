/**
 * The heartbeat queue: proves a worker takes jobs from Redis and writes to MongoDB. Its processor
 * is processors/heartbeat.ts, loaded by the worker process only.
 */
import { getQueue } from '../src/queue/queues';

export const HEARTBEAT_QUEUE = 'heartbeat';

export interface HeartbeatPayload {
  enqueuedAt: string;
  /** Work time to simulate, bounded; lets tests hold a job in flight across a shutdown. */
  holdMs?: number;
}

/** One heartbeat per minute, whatever the number of schedulers: the job id is the minute. */
export function heartbeatJobId(now: Date): string {
  const minute = now.toISOString().slice(0, 16).replace(':', ''); // BullMQ job ids may not contain ':'
  return `heartbeat-${minute}`;
}

export async function enqueueHeartbeat(now: Date): Promise<void> {
  await getQueue<HeartbeatPayload>(HEARTBEAT_QUEUE).add(
    'heartbeat',
    { enqueuedAt: now.toISOString() },
    { jobId: heartbeatJobId(now) },
  );
}
