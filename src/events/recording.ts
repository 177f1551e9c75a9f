/**
 * Recording an account event; its fan-out to the merchant's webhook endpoints runs in a job.
 *
 * Once: the event's id is deterministic (evt_<kind>_<id>_<change>) and inserted under the unique
 * `_id`, so retries, racing emitters and sweeps that reach the same state change record it once.
 * Ordered: each object's events take 1, 2, 3... by inserting <object>#<n> under a unique index; an
 * emitter that loses n (a duplicate key whose event id is not stored) reads again and takes n+1.
 *
 * Round trips on the state change's path: the object's last event read, the insert (two). The
 * fan-out (the endpoints read, one delivery stored per subscribed endpoint, their jobs) is the job of
 * jobs/account-event.ts, queued right after the insert (Redis only); the event is inserted marked
 * `fannedOut: false` and the job sets it, so an event whose job was never added (Redis down, the
 * process killed between the two) is fanned out by the scheduler sweep. Every step is idempotent
 * (a delivery exists once per event and endpoint), so a second fan-out adds nothing.
 *
 * Emitting never fails the money operation that caused it (emitEvent logs instead): the state change
 * is already written, and the answer to the partner must not become an error because of a webhook.
 */
import mongoose from 'mongoose';
import { createEachOnce, createOnce } from '../db/claims';
import { logger } from '../platform/logger';
import { enqueueFanOut } from '../../jobs/account-event';
import { fanOutEvent } from '../webhooks/endpoint-delivery';
import { EVENT_TYPES, type EventType } from '../webhooks/event-types';
import { AccountEventModel, type AccountEvent } from './model';

export interface NewEvent {
  merchantId: number;
  type: EventType;
  /** The object's id (its kind comes from the type). */
  objectId: number | string;
  /**
   * What makes this change unique for the object, in the event id: the type's verb by default
   * (captured, paid...); a change that can happen more than once adds its step (denied_2, updated_<step>).
   */
  change?: string;
  /** The object as the API shows it. */
  data: object;
  /**
   * The object's sequence number when its kind fixes it (a refund: 1 pending, 2 settled), which saves
   * reading the object's last one. A hint: taken already by another event, the last one is read.
   */
  sequence?: number;
}

export function eventIdOf(event: Pick<NewEvent, 'type' | 'objectId' | 'change'>): string {
  const kind = EVENT_TYPES[event.type].object;
  const change = event.change ?? event.type.slice(event.type.indexOf('.') + 1);
  return `evt_${kind}_${event.objectId}_${change}`.replace(/[^A-Za-z0-9_.-]/g, '-');
}

/** The stored form of an event given its object's sequence number. */
function eventDocument(event: NewEvent, sequence: number, now: Date): AccountEvent {
  const id = eventIdOf(event);
  const objectKind = EVENT_TYPES[event.type].object;
  const objectId = String(event.objectId);
  const objectKey = `${objectKind}_${objectId}`;
  const body = JSON.stringify({
    id,
    type: event.type,
    created_at: now.toISOString(),
    object: { kind: objectKind, id: objectId },
    sequence,
    data: event.data,
  });
  return {
    _id: id,
    merchantId: event.merchantId,
    type: event.type,
    objectKind,
    objectId,
    objectKey,
    sequence,
    objectSequence: `${objectKey}#${sequence}`,
    data: event.data,
    body,
    createdAt: now,
    day: now.toISOString().slice(0, 10),
    fannedOut: false,
  };
}

const objectKeyOf = (event: NewEvent) => `${EVENT_TYPES[event.type].object}_${String(event.objectId)}`;

async function lastSequenceOf(objectKey: string): Promise<number> {
  const last = await AccountEventModel.findOne({ objectKey }, { _id: 1, sequence: 1 }).sort({ sequence: -1 }).lean();
  return last?.sequence ?? 0;
}

async function queueFanOut(stored: AccountEvent): Promise<void> {
  try {
    await enqueueFanOut(stored);
  } catch (err) {
    logger.warn({ err, eventId: stored._id }, 'could not queue the fan-out of an account event; the sweep will');
  }
}

/** Records the event once and queues its fan-out; the stored event (this call's or the one recorded before). */
export async function recordEvent(event: NewEvent, now = new Date()): Promise<AccountEvent> {
  const id = eventIdOf(event);
  let fixed = event.sequence;
  for (let tries = 0; tries < 20; tries++) {
    const sequence = fixed ?? (await lastSequenceOf(objectKeyOf(event))) + 1;
    fixed = undefined;
    const stored = await createOnce(AccountEventModel, eventDocument(event, sequence, now));
    if (!stored) {
      // Recorded already (a retry, a racing emitter), or this sequence number was taken: which one?
      const existing = await AccountEventModel.findById(id).lean();
      if (existing) return existing;
      continue;
    }
    await queueFanOut(stored);
    return stored;
  }
  throw new Error(`could not record event ${id}`);
}

/**
 * Records several events, each once, in one insert where it can: the events that fix their sequence,
 * and of the others the first of each object, after one read (at once) of each such object's last
 * sequence. An object's later events follow one at a time: one already recorded (owed still, its entry
 * not cleared) must not leave a gap by taking a number. An event the insert refused (recorded already,
 * or its number taken meanwhile by another emitter) is recorded the one-at-a-time way.
 */
export async function recordEvents(events: { event: NewEvent; at: Date }[]): Promise<void> {
  const firstOf = new Set<string>();
  const batch: typeof events = [];
  const after: typeof events = [];
  for (const owed of events) {
    const key = objectKeyOf(owed.event);
    if (owed.event.sequence || !firstOf.has(key)) batch.push(owed);
    else after.push(owed);
    if (!owed.event.sequence) firstOf.add(key);
  }
  const unfixed = batch.filter(({ event }) => !event.sequence).map(({ event }) => objectKeyOf(event));
  const last = new Map(await Promise.all(unfixed.map(async (key) => [key, await lastSequenceOf(key)] as const)));
  const documents = batch.map(({ event, at }) =>
    eventDocument(event, event.sequence ?? (last.get(objectKeyOf(event)) ?? 0) + 1, at),
  );
  const stored = await createEachOnce(AccountEventModel, documents);
  for (const [index, event] of stored.entries()) {
    if (event) await queueFanOut(event);
    else await recordEvent(batch[index].event, batch[index].at);
  }
  for (const { event, at } of after) await recordEvent(event, at);
}

/** recordEvent for the state changes of the money areas: a failure is logged, never thrown. */
export async function emitEvent(event: NewEvent): Promise<void> {
  try {
    await recordEvent(event);
  } catch (err) {
    logger.error({ err, type: event.type, objectId: event.objectId }, 'could not record an account event');
  }
}

/** The job's work: the stored event to each subscribed endpoint, then marked fanned out. */
export async function fanOutStoredEvent(eventId: string): Promise<number> {
  const event = await AccountEventModel.findById(eventId).lean();
  if (!event) return 0;
  const deliveries = await fanOutEvent({ ...event, id: event._id });
  if (!event.fannedOut) await AccountEventModel.updateOne({ _id: eventId }, { $set: { fannedOut: true } });
  return deliveries;
}

/** How long an event may wait for its fan-out job before the sweep fans it out itself. */
export const FAN_OUT_GRACE_MS = 60_000;

/** Scheduler task: events whose fan-out job was never added (or lost with Redis) are fanned out. */
export async function sweepUnfannedEvents(now = new Date(), graceMs = FAN_OUT_GRACE_MS, batch = 500): Promise<number> {
  const cutoff = new Date(now.getTime() - graceMs);
  const events = await AccountEventModel.find(
    { fannedOut: false, createdAt: mongoose.trusted({ $lt: cutoff }) as { $lt: Date } },
    { _id: 1 },
  )
    .limit(batch)
    .lean();
  for (const event of events) await fanOutStoredEvent(event._id);
  if (events.length) logger.warn({ events: events.length }, 'fanned out account events whose job never ran');
  return events.length;
}
