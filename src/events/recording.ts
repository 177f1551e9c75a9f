/**
 * Recording an account event and fanning it out to the merchant's endpoints (src/webhooks).
 *
 * Once: the event's id is deterministic (evt_<kind>_<id>_<change>) and inserted under the unique
 * `_id`, so retries, racing emitters and sweeps that reach the same state change record it once, and
 * only the one whose insert won fans it out. Ordered: each object's events take 1, 2, 3... by
 * inserting <object>#<n> under a unique index; an emitter that loses n reads again and takes n+1.
 * On a duplicate key the event's own id is read: stored already means recorded (by another emitter),
 * absent means the sequence number was taken.
 *
 * Emitting never fails the money operation that caused it (emitEvent logs instead): the state change
 * is already written, and an answer to the partner must not turn into an error because of a webhook.
 */
import { createOnce } from '../db/claims';
import { logger } from '../platform/logger';
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
  data: Record<string, unknown>;
}

export function eventIdOf(event: Pick<NewEvent, 'type' | 'objectId' | 'change'>): string {
  const kind = EVENT_TYPES[event.type].object;
  const change = event.change ?? event.type.slice(event.type.indexOf('.') + 1);
  return `evt_${kind}_${event.objectId}_${change}`.replace(/[^A-Za-z0-9_.-]/g, '-');
}

/** Records the event once and fans it out; the stored event (this call's or the one recorded before). */
export async function recordEvent(event: NewEvent, now = new Date()): Promise<AccountEvent> {
  const id = eventIdOf(event);
  const objectKind = EVENT_TYPES[event.type].object;
  const objectId = String(event.objectId);
  const objectKey = `${objectKind}_${objectId}`;
  for (let tries = 0; tries < 20; tries++) {
    const [existing, last] = await Promise.all([
      AccountEventModel.findById(id).lean(),
      AccountEventModel.findOne({ objectKey }, { sequence: 1 }).sort({ sequence: -1 }).lean(),
    ]);
    if (existing) {
      // Recorded by an emitter that may have died before its fan-out: fan out again (idempotent per endpoint).
      if (tries === 0) await fanOutEvent({ ...existing, id: existing._id });
      return existing;
    }
    const sequence = (last?.sequence ?? 0) + 1;
    const body = JSON.stringify({
      id,
      type: event.type,
      created_at: now.toISOString(),
      object: { kind: objectKind, id: objectId },
      sequence,
      data: event.data,
    });
    const stored = await createOnce(AccountEventModel, {
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
    });
    if (!stored) continue; // recorded by another emitter (read next try), or the sequence number was taken
    await fanOutEvent({ id, merchantId: event.merchantId, type: event.type, body, createdAt: now });
    return stored;
  }
  throw new Error(`could not record event ${id}`);
}

/** recordEvent for the state changes of the money areas: a failure is logged, never thrown. */
export async function emitEvent(event: NewEvent): Promise<void> {
  try {
    await recordEvent(event);
  } catch (err) {
    logger.error({ err, type: event.type, objectId: event.objectId }, 'could not record an account event');
  }
}
