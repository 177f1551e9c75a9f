/**
 * The scheduler's part of subscriptions: find due work and enqueue it. Due work is read with a
 * MongoDB cursor (never loaded whole) and enqueued with addBulk in chunks, so memory stays flat
 * whether 10 or 100,000 charges are due. Job ids are deterministic per subscription, due date
 * and attempt, so two schedulers at once, or one restarted mid-run, enqueue each attempt once;
 * the charge worker's unique-index inserts guard the rest.
 */
import mongoose from 'mongoose';
import type { Job } from 'bullmq';
import { getQueue } from '../queue';
import { dayOf } from './clock';
import { chargeJobId, type ChargeJobData } from './charging';
import { ChargeStatus, SubscriptionChargeModel, SubscriptionModel } from './model';

export const CHARGE_QUEUE = 'subscription-charges';
export const CHARGE_JOB_NAME = 'charge-subscription';

/** Jobs per addBulk call (one Redis round trip each). */
export const ENQUEUE_CHUNK = 500;
const CURSOR_BATCH = 1000;

export async function enqueueCharges(jobs: ChargeJobData[]): Promise<Job<ChargeJobData>[]> {
  if (!jobs.length) return [];
  return getQueue<ChargeJobData>(CHARGE_QUEUE).addBulk(jobs.map((data) => ({ name: CHARGE_JOB_NAME, data, opts: { jobId: chargeJobId(data) } })));
}

/**
 * Reads the cursor and enqueues chunk by chunk, one addBulk in flight while the next chunk is
 * read (MongoDB and Redis work at the same time): at most two chunks are ever held in memory.
 */
async function enqueueStream<T>(rows: AsyncIterable<T>, toJob: (row: T) => ChargeJobData): Promise<number> {
  let chunk: ChargeJobData[] = [];
  let count = 0;
  let inFlight: Promise<unknown> = Promise.resolve();
  for await (const row of rows) {
    chunk.push(toJob(row));
    if (chunk.length >= ENQUEUE_CHUNK) {
      await inFlight;
      inFlight = enqueueCharges(chunk);
      inFlight.catch(() => undefined); // awaited (and thrown) at the next chunk; not an unhandled rejection meanwhile
      count += chunk.length;
      chunk = [];
    }
  }
  await inFlight;
  await enqueueCharges(chunk);
  return count + chunk.length;
}

/** A new charge for each active subscription whose next cycle's due date has come. */
export async function enqueueDueSubscriptionCharges(now: Date): Promise<number> {
  const today = dayOf(now);
  const due = SubscriptionModel.find(
    { status: 'active', nextDueDate: mongoose.trusted({ $ne: null, $lte: today }) },
    { _id: 1, nextDueDate: 1 },
  )
    .lean()
    .cursor({ batchSize: CURSOR_BATCH });
  return enqueueStream(due, (sub) => ({ subscriptionId: sub._id, dueDate: sub.nextDueDate!, attempt: 1, today }));
}

/** The next attempt of each denied charge whose retry day has come. */
export async function enqueueDueChargeRetries(now: Date): Promise<number> {
  const today = dayOf(now);
  const due = SubscriptionChargeModel.find(
    { status: ChargeStatus.DENIED, nextRetryAt: mongoose.trusted({ $ne: null, $lte: today }) },
    { subscriptionId: 1, dueDate: 1, attempts: 1 },
  )
    .lean()
    .cursor({ batchSize: CURSOR_BATCH });
  return enqueueStream(due, (charge) => ({ subscriptionId: charge.subscriptionId, dueDate: charge.dueDate, attempt: charge.attempts + 1, today }));
}

/** The scheduler task: new cycles, then retries. */
export async function enqueueDueSubscriptionWork(now: Date): Promise<void> {
  await enqueueDueSubscriptionCharges(now);
  await enqueueDueChargeRetries(now);
}
