/**
 * The outbox of link webhook events: an event is stored first, then its delivery queued; the
 * scheduler's sweeps queue what a failed add (Redis down) or a lost job (Redis lost its data) left
 * undelivered. A stored event is therefore always delivered, and a delivered one never re-sent by
 * a sweep.
 */
import mongoose from 'mongoose';
import { createOnce } from '../db/claims';
import { logger } from '../platform/logger';
import { deliveryJobId, deliveryQueue, enqueueDelivery } from '../../jobs/link-webhook';
import { WebhookEventModel, type WebhookEvent } from './model';

/** How long a stored event may stay without a queued delivery before the scheduler sweep queues it. */
export const UNQUEUED_EVENT_GRACE_MS = 60_000;
/** At most this many events are queued by one sweep (one scheduler tick); the rest wait for the next tick. */
export const UNQUEUED_EVENT_SWEEP_BATCH = 500;
/** A queued, pending event idle this long (no attempt since) has its job checked for. */
export const LOST_JOB_GRACE_MS = 10 * 60_000;

export interface NewLinkEvent {
  merchantId: number;
  linkId: number;
  url: string;
  type: string;
  data: Record<string, unknown>;
  /**
   * At most one event of this type per link (a link is paid once, and more than one writer may
   * record that payment): when one is stored already, it is the answer, and nothing is stored or queued.
   */
  oncePerLink?: boolean;
  /** The same, per key: at most one event of this type and key per link (a refund's outcome, once per refund). */
  onceKey?: string;
}

/**
 * Stores an event with the link's next sequence number and queues its delivery. The sequence is
 * claimed by inserting msg_<link>_<n> (unique _id): a concurrent event for the same link loses the
 * insert and takes n+1, so sequences never repeat even where $inc could lose increments. An event
 * owed once per link (`oncePerLink`) already stored is answered instead (see latestEvents).
 *
 * The event is inserted already marked queued, and its job added right after: one write fewer than
 * marking it after the add, and no update of the event still in flight when its first delivery
 * writes it (FerretDB's read-modify-write could put `pending` back over `delivered`). The job
 * names the event (and carries a copy its delivery checks against the stored one, delivery.ts).
 * When the add fails (Redis down) the mark is taken off again, so the scheduler sweep queues the
 * event after its grace period; should that write fail too, the lost-job pass queues it (a
 * pending event marked queued whose job does not exist).
 */
export async function emitLinkEvent(event: NewLinkEvent, now = new Date()): Promise<WebhookEvent> {
  for (let tries = 0; tries < 20; tries++) {
    const { last, alreadyStored } = await latestEvents(event);
    if (alreadyStored) return alreadyStored;
    const sequence = (last?.sequence ?? 0) + 1;
    const id = `msg_${event.linkId}_${sequence}`;
    const body = JSON.stringify({ type: event.type, timestamp: now.toISOString(), data: { ...event.data, sequence } });
    const stored = await createOnce(WebhookEventModel, {
      _id: id,
      merchantId: event.merchantId,
      linkId: event.linkId,
      sequence,
      type: event.type,
      url: event.url,
      body,
      ...(event.onceKey ? { onceKey: event.onceKey } : {}),
      createdAt: now,
      queuedAt: new Date(),
    });
    if (!stored) continue; // a concurrent event of this link took this sequence number: take the next
    try {
      await enqueueDelivery(stored, 'scheduled', stored);
    } catch (error) {
      await unmarkUnqueued(stored);
      throw error;
    }
    return stored;
  }
  throw new Error(`could not claim a webhook sequence number for link ${event.linkId}`);
}

/**
 * The link's last event (its sequence is the one to follow), and for an event owed once, the one of
 * its type already stored. That one is looked for among all the link's events (a few: its declined
 * pays and its payment), in the same read, so it costs no round trip more. This makes "once" hold
 * for any interleaving of emitters: event n+1 of a link is inserted only after a read saw event n
 * (events are never removed), so the read of the try whose insert wins sees every earlier event of
 * the link; of two emitters of the same once-event, the second either loses the insert of the same
 * sequence number and reads again, or has read the first's event already.
 */
async function latestEvents(
  event: NewLinkEvent,
): Promise<{ last: Pick<WebhookEvent, 'sequence'> | null; alreadyStored: WebhookEvent | null }> {
  if (!event.oncePerLink && !event.onceKey) {
    const last = await WebhookEventModel.findOne({ linkId: event.linkId }).sort({ sequence: -1 }).lean();
    return { last, alreadyStored: null };
  }
  const events = await WebhookEventModel.find({ linkId: event.linkId }).sort({ sequence: -1 }).lean();
  const same = (stored: WebhookEvent) =>
    stored.type === event.type && (!event.onceKey || stored.onceKey === event.onceKey);
  return { last: events[0] ?? null, alreadyStored: events.find(same) ?? null };
}

async function unmarkUnqueued(event: Pick<WebhookEvent, '_id' | 'createdAt'>): Promise<void> {
  // Not when the job is there after all (an add whose answer was lost): its delivery may already
  // have written the event, which this whole-document write would undo. When Redis cannot be asked,
  // it is down: no worker is delivering now, so the unmark lands before any delivery could.
  const queued = await deliveryQueue()
    .getJob(deliveryJobId(event))
    .catch(() => undefined);
  if (queued) return;
  await WebhookEventModel.updateOne({ _id: event._id }, { $set: { queuedAt: null } }).catch((err) => {
    logger.warn(
      { err, eventId: event._id },
      'could not unmark a link webhook event whose delivery was not queued; the lost-job pass will queue it',
    );
  });
}

/** Queues the automatic delivery schedule of an event, then records that it is queued. */
export async function enqueueScheduledDelivery(
  event: Pick<WebhookEvent, '_id' | 'createdAt' | 'merchantId'>,
): Promise<void> {
  await enqueueDelivery(event, 'scheduled');
  try {
    await WebhookEventModel.updateOne({ _id: event._id, queuedAt: null }, { $set: { queuedAt: new Date() } });
  } catch (err) {
    // The job is queued; the sweep will find the event unmarked and its add will be a no-op.
    logger.warn({ err, eventId: event._id }, 'could not mark a link webhook event as queued');
  }
}

/**
 * Scheduler task: stored events whose delivery was never queued (Redis was down when the link was
 * paid) are queued once they are older than the grace period, oldest first, at most
 * UNQUEUED_EVENT_SWEEP_BATCH per tick, streamed from a cursor. Only pending events qualify, and a
 * scheduled job skips an event that is no longer pending, so a delivered event is never re-sent.
 */
export async function sweepUnqueuedLinkEvents(
  now = new Date(),
  graceMs = UNQUEUED_EVENT_GRACE_MS,
  batch = UNQUEUED_EVENT_SWEEP_BATCH,
): Promise<number> {
  const cutoff = new Date(now.getTime() - graceMs);
  const cursor = WebhookEventModel.find(
    { state: 'pending', queuedAt: null, createdAt: mongoose.trusted({ $lt: cutoff }) as { $lt: Date } },
    { _id: 1, merchantId: 1, createdAt: 1 },
  )
    .sort({ createdAt: 1 })
    .limit(batch)
    .lean()
    .cursor();
  let queued = 0;
  try {
    for await (const event of cursor) {
      await enqueueScheduledDelivery(event);
      queued++;
    }
  } finally {
    if (queued) logger.warn({ queued }, 'queued link webhook events whose delivery was never queued');
  }
  return queued;
}

/**
 * Scheduler task, second half: pending events whose delivery job was queued but is no longer in
 * Redis (Redis lost its data: a restart without persistence, a flush) are queued again. Every
 * pending event idle for LOST_JOB_GRACE_MS is looked up in BullMQ (one Redis read each; an event
 * waiting out a long retry delay still has its delayed job and is left alone); at most `batch` are
 * queued again per tick. A job that still exists, failed or not, is left to its own schedule.
 */
export async function requeueLostLinkEventJobs(
  now = new Date(),
  graceMs = LOST_JOB_GRACE_MS,
  batch = UNQUEUED_EVENT_SWEEP_BATCH,
): Promise<number> {
  const idleSince = new Date(now.getTime() - graceMs);
  const cursor = WebhookEventModel.find(
    { state: 'pending', queuedAt: mongoose.trusted({ $ne: null, $lt: idleSince }) as { $lt: Date } },
    { _id: 1, lastAttemptAt: 1, merchantId: 1, createdAt: 1 },
  )
    .lean()
    .cursor();
  const queue = deliveryQueue();
  let queued = 0;
  try {
    for await (const event of cursor) {
      if (queued >= batch) break;
      if (event.lastAttemptAt && event.lastAttemptAt >= idleSince) continue;
      if (await queue.getJob(deliveryJobId(event))) continue;
      await enqueueDelivery(event, 'scheduled');
      queued++;
    }
  } finally {
    await cursor.close();
    if (queued) logger.warn({ queued }, 'queued again link webhook events whose delivery job was lost');
  }
  return queued;
}

/** The scheduler task form (a SchedulerTask of workers/scheduler.ts). */
export async function requeueUndeliveredLinkEvents(now: Date): Promise<void> {
  await sweepUnqueuedLinkEvents(now);
  await requeueLostLinkEventJobs(now);
}
