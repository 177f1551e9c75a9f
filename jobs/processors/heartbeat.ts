/** Worker heartbeat: proves a worker takes jobs from Redis and writes to MongoDB. */
import type { Job } from 'bullmq';
import { recordHeartbeat } from '../../src/health/heartbeat';
import { type HeartbeatPayload, heartbeatJob } from '../heartbeat';
import { jobKind } from '../types';

export default async function processHeartbeat(job: Job<HeartbeatPayload>) {
  const holdMs = Math.min(Math.max(job.data.holdMs ?? 0, 0), 30_000);
  if (holdMs) await new Promise((r) => setTimeout(r, holdMs));
  return recordHeartbeat(String(job.id), new Date(job.data.enqueuedAt));
}

export const heartbeatProcessor = jobKind(heartbeatJob, processHeartbeat);
