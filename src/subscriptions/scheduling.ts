/**
 * The scheduler's part of subscriptions: find due work and enqueue it. Due work is read with a
 * MongoDB cursor (never loaded whole) and enqueued with addBulk in chunks, so memory stays flat
 * whether 10 or 100,000 charges are due. Job ids are deterministic per subscription, due date
 * and attempt, so two schedulers at once, or one restarted mid-run, enqueue each attempt once;
 * the charge worker's unique-index inserts guard the rest.
 */
import { checkedAfterLookup } from '../db/filters';
import mongoose from 'mongoose';
import { logger } from '../platform/logger';
import { keptJob, retryFailedJob } from '../queue/kept-jobs';
import { chargeJobId, chargeQueue, enqueueCharges } from '../../jobs/charge-subscription';
import { addDays, dayOf } from './clock';
import { attemptIdempotencyKey, attemptOrderId } from './charging';
import { type ChargeJobData } from '../../jobs/charge-subscription';
import { dueCycleOf } from './calendar';
import { startDueCycle } from './cycle-start';
import { ChargeStatus, SubscriptionChargeModel, SubscriptionModel, type Subscription } from './model';
import { PIX_WINDOW_OPENS_DAYS_BEFORE } from './pix-retry-policy';

/** Jobs per addBulk call (one Redis round trip each). */
export const ENQUEUE_CHUNK = 500;
const CURSOR_BATCH = 1000;

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

/**
 * What a subscription's due cycle is charged from: the fields dueCycleJob reads. One list gives the
 * type and the scheduler's projection, so a field the type promises is never left out of the read.
 */
const DUE_SUBSCRIPTION_FIELDS = [
  '_id',
  'nextDueDate',
  'merchantId',
  'value',
  'cycleValues',
  'nextCycle',
  'firstDueDate',
  'billingCycle',
  'endDate',
  'maxCycles',
] as const satisfies readonly (keyof Subscription)[];
type DueSubscription = Pick<Subscription, (typeof DUE_SUBSCRIPTION_FIELDS)[number]>;
const DUE_SUBSCRIPTION_PROJECTION = Object.fromEntries(DUE_SUBSCRIPTION_FIELDS.map((field) => [field, 1]));

/**
 * The job of a due subscription's next cycle, as the scheduler queues it: its first attempt, with
 * the cycle read from the subscription (see ChargeJobData.cycle). Its id is deterministic
 * (chargeJobId), so queuing it again, from any scheduler or from the subscription's creation, is
 * one job.
 */
function dueCycleJob(sub: DueSubscription, today: string): ChargeJobData {
  return { subscriptionId: sub._id, dueDate: sub.nextDueDate!, attempt: 1, today, cycle: dueCycleOf(sub) };
}

/**
 * A new charge for each active subscription whose next cycle's due date has come. Each job carries
 * the cycle as read here (see ChargeJobData.cycle), which its run checks against the subscription
 * it reads. A deliberate scan: every active subscription is read (FerretDB
 * filters the due date after reading), streamed.
 */
export async function enqueueDueSubscriptionCharges(now: Date): Promise<number> {
  const today = dayOf(now);
  const due = SubscriptionModel.find(
    {
      status: 'active',
      nextDueDate: mongoose.trusted({ $ne: null, $lte: today }),
      // Pix Automático charges follow the Central Bank's calendar (sent days before the due date), not this one.
      paymentMethod: mongoose.trusted({ $ne: 'pix_automatico' }),
    },
    DUE_SUBSCRIPTION_PROJECTION,
  )
    .lean<DueSubscription>()
    .cursor({ batchSize: CURSOR_BATCH });
  return enqueueStream(due, (sub) => dueCycleJob(sub, today));
}

/**
 * The charge of each active Pix Automático subscription with an APPROVED mandate whose next cycle's send window
 * has opened (due in 10 days or fewer): its first scheduler pass inside the window queues it, under the same
 * deterministic job id as a card cycle. A cycle whose window has passed (the scheduler was down past due - 2) is
 * queued too: its run records it DENIED `window_missed` without sending it, and the subscription moves on.
 */
export async function enqueueDuePixCharges(now: Date): Promise<number> {
  const today = dayOf(now);
  const due = SubscriptionModel.find(
    {
      status: 'active',
      paymentMethod: 'pix_automatico',
      'mandate.status': 'APPROVED',
      nextDueDate: mongoose.trusted({ $ne: null, $lte: addDays(today, PIX_WINDOW_OPENS_DAYS_BEFORE) }),
    },
    DUE_SUBSCRIPTION_PROJECTION,
  )
    .lean<DueSubscription>()
    .cursor({ batchSize: CURSOR_BATCH });
  return enqueueStream(due, (sub) => dueCycleJob(sub, today));
}

/**
 * A subscription created already due (its first due date is today: the UTC calendar day of the
 * subscriptions clock, the day the scheduler charges by) gets its first charge now rather than at
 * the scheduler's next tick, up to a minute later. It takes the scheduler's path, not a copy of it:
 * the job the scheduler would queue (same data, same deterministic id), then what that job's run
 * does first, in startDueCycle: the charge inserted PENDING under its unique (subscription, due date)
 * index and the subscription moved to its next cycle. So the charge is listed when the creation
 * answers, a scheduler tick in between or after adds nothing (the job id is taken, and then the
 * subscription is no longer due), and the job's run finds the charge and sends it once.
 *
 * The job is queued first: if the process dies before the charge is inserted, the job inserts it;
 * if the job cannot be queued (Redis down), nothing is inserted and the subscription stays due for
 * the scheduler's next tick, instead of leaving a PENDING charge with no job for the stalled-charge
 * pass. Returns whether the cycle was opened here (false: not due, or not yet due).
 */
export async function startFirstCycleIfDue(sub: DueSubscription, now: Date): Promise<boolean> {
  const today = dayOf(now);
  if (sub.nextDueDate === null || sub.nextDueDate > today) return false;
  const job = dueCycleJob(sub, today);
  await enqueueCharges([job]);
  await startDueCycle(job, job.cycle!);
  return true;
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
  return enqueueStream(due, (charge) => ({
    subscriptionId: charge.subscriptionId,
    dueDate: charge.dueDate,
    attempt: charge.attempts + 1,
    today,
  }));
}

/** A charge is PENDING only between its insert and its outcome (seconds): this long means its job is gone. */
export const STALE_PENDING_CHARGE_MS = 15 * 60_000;
/** Older than this, a PENDING charge is not sent automatically any more: it is logged for an operator. */
export const MAX_RECOVERED_CHARGE_AGE_MS = 3 * 24 * 3600_000;
/** A job that failed for good is run again once it has lain failed this long. */
export const FAILED_CHARGE_JOB_RETRY_MS = 10 * 60_000;

/**
 * Deterministic job ids have a cost: BullMQ ignores an add whose id it still keeps, and it keeps a
 * failed job for 30 days and a completed one for 7. So a charge job that failed for good (the
 * database down through all its retries) would block its charge for that long, and a charge whose
 * job Redis lost, or kept as completed without the outcome recorded, after the charge was inserted
 * would stay PENDING forever (the subscription has moved on, so no due query finds it). This pass
 * runs failed charge jobs again, oldest failure first, one try each time (a rerun asks the acquirer
 * by order id before sending, and a job no longer due ends 'not-due'), and queues again the first
 * send of charges left PENDING whose job will not run by itself (gone, or completed: that kept job
 * is removed first so the add under its id counts), marked unsettled so the worker looks for an
 * earlier sale first. Ages are wall-clock (job and charge timestamps), not the business clock. Two
 * schedulers may run it at once: each step tolerates losing the race.
 */
export async function recoverStalledCharges(
  wallNow = Date.now(),
  today = dayOf(new Date(wallNow)),
): Promise<{ retried: number; requeued: number; tooOld: number }> {
  const queue = chargeQueue();
  let retried = 0;
  for (const job of await queue.getJobs(['failed'], 0, ENQUEUE_CHUNK - 1, true)) {
    if (!job?.finishedOn || job.finishedOn > wallNow - FAILED_CHARGE_JOB_RETRY_MS) continue;
    // Retry days count from the day it now runs. (Should another scheduler win the retry, it
    // wrote the same day.)
    await job.updateData({ ...job.data, today }).catch(() => undefined);
    retried += await retryFailedJob(job);
  }
  let requeued = 0;
  let tooOld = 0;
  const stale = SubscriptionChargeModel.find(
    { status: ChargeStatus.PENDING, createdAt: mongoose.trusted({ $lt: new Date(wallNow - STALE_PENDING_CHARGE_MS) }) },
    { subscriptionId: 1, dueDate: 1, createdAt: 1, acquirerPaymentId: 1 },
  )
    .lean()
    .cursor({ batchSize: CURSOR_BATCH });
  for await (const charge of stale) {
    // A Pix Automático charge the acquirer scheduled is PENDING until its due date by design: not lost.
    if (charge.acquirerPaymentId) continue;
    const data: ChargeJobData = { subscriptionId: charge.subscriptionId, dueDate: charge.dueDate, attempt: 1, today };
    const jobId = chargeJobId(data);
    const kept = await keptJob(queue, jobId);
    // A job that will still run is left to run; a failed one is the first loop's to run again.
    if (kept?.willRun || kept?.state === 'failed') continue;
    if (charge.createdAt.getTime() < wallNow - MAX_RECOVERED_CHARGE_AGE_MS) {
      tooOld++;
      continue;
    }
    if (kept) {
      try {
        await kept.job.remove();
      } catch (error) {
        // BullMQ refuses only while the job is locked (running again, queued meanwhile by another
        // scheduler): this charge waits for the next pass. Had another scheduler removed it and
        // queued a new one, this removes that one and the add below puts it back: still one job.
        logger.debug({ err: { message: (error as Error).message }, jobId }, 'kept charge job not removed');
        continue;
      }
    }
    // Its job may have sent the sale before it was lost or ended: the worker asks the acquirer first.
    await SubscriptionChargeModel.updateOne(
      { _id: charge._id, status: checkedAfterLookup<number>(ChargeStatus.PENDING), unsettledMerchantOrderId: null },
      {
        $set: {
          unsettledIdempotencyKey: attemptIdempotencyKey(charge._id, 1),
          unsettledMerchantOrderId: attemptOrderId(charge.subscriptionId, charge._id, 1),
        },
      },
    );
    await enqueueCharges([data]);
    requeued++;
  }
  if (retried + requeued)
    logger.warn({ retried, requeued }, 'recovered subscription charges whose jobs failed or were lost');
  if (tooOld)
    logger.error(
      { charges: tooOld },
      'subscription charges PENDING for more than 3 days with no job: left for an operator',
    );
  return { retried, requeued, tooOld };
}

/**
 * The scheduler task: new cycles (card, then Pix Automático), then retries, then charges whose jobs failed or
 * were lost.
 */
export async function enqueueDueSubscriptionWork(now: Date): Promise<void> {
  await enqueueDueSubscriptionCharges(now);
  await enqueueDuePixCharges(now);
  await enqueueDueChargeRetries(now);
  await recoverStalledCharges(Date.now(), dayOf(now));
}

/**
 * For /metrics: card charges PENDING for over an hour (recovery should have settled them by then), and Pix
 * Automático charges the acquirer scheduled that are still PENDING two days after the day they were to settle on
 * (due before yesterday, not written for two days: the sweep of pix-settlement.ts should have read them).
 */
export async function chargesNeedingAttention(wallNow = Date.now()): Promise<Record<string, number>> {
  const twoDaysAgo = new Date(wallNow - 2 * 24 * 3600_000);
  const pending = await SubscriptionChargeModel.countDocuments({
    status: ChargeStatus.PENDING,
    createdAt: mongoose.trusted({ $lt: new Date(wallNow - 3600_000) }),
    // A Pix Automático charge the acquirer scheduled waits for its due date by design (the sweep of
    // src/subscriptions/pix-settlement.ts reads it the day after): only charges with no acquirer payment count.
    acquirerPaymentId: mongoose.trusted({ $in: ['', null] }),
  });
  const pixUnsettled = await SubscriptionChargeModel.countDocuments({
    status: ChargeStatus.PENDING,
    acquirerPaymentId: mongoose.trusted({ $nin: ['', null] }),
    dueDate: mongoose.trusted({ $lt: dayOf(new Date(wallNow - 24 * 3600_000)) }),
    updatedAt: mongoose.trusted({ $lt: twoDaysAgo }),
  });
  return { charge_pending_over_1h: pending, pix_charge_unsettled_over_2d: pixUnsettled };
}
