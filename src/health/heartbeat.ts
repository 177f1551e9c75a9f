/**
 * Worker heartbeats: the scheduler enqueues one a minute and a worker records it, so operators
 * (and the smoke tests) can see that the queue path works end to end. Recording is idempotent
 * by job id: a heartbeat processed twice is stored once.
 */
import os from 'node:os';
import mongoose, { Schema } from 'mongoose';
import { insertOnce } from '../db/claims';
import type { HeartbeatResult } from '../../jobs/heartbeat';

export interface Heartbeat {
  _id: string;
  enqueuedAt: Date;
  processedAt: Date;
  processedBy: string;
}

const heartbeatSchema = new Schema<Heartbeat>(
  { _id: String, enqueuedAt: Date, processedAt: Date, processedBy: String },
  { versionKey: false, collection: 'worker_heartbeats' },
);

export const HeartbeatModel = mongoose.model<Heartbeat>('Heartbeat', heartbeatSchema);

export async function recordHeartbeat(id: string, enqueuedAt: Date): Promise<HeartbeatResult> {
  const heartbeat = { _id: id, enqueuedAt, processedAt: new Date(), processedBy: `${os.hostname()}:${process.pid}` };
  return (await insertOnce(HeartbeatModel, heartbeat)) === 'inserted' ? 'recorded' : 'already-recorded';
}

export async function lastHeartbeat(): Promise<Heartbeat | null> {
  return HeartbeatModel.findOne().sort({ processedAt: -1 }).lean();
}
