/**
 * The events outbox: a state change and the events it owes are one write. FerretDB v1 has no
 * multi-document transactions, so the owed events ride in the object's own document: the update (or
 * insert) that writes the change also sets `owedEvents.<key>` (the whole event: type, object, data as
 * the API shows it) and the `eventsOwed` flag with `eventsOwedAt`. Right after that write the event is
 * recorded (src/events/recording.ts, insert-once under its deterministic id) and its entry removed.
 * A process that dies between the two leaves the entry: the scheduler's sweepOwedEvents finds the
 * documents still flagged past a grace period (an indexed equality on `eventsOwed`), records each
 * entry under the same id (so a late or repeated recording is still one event) and clears them.
 *
 * One mechanism for every event type: any model whose schema takes the owesEvents plugin is swept,
 * whatever area it belongs to; the areas only say which events their write owes (oweEvents).
 *
 * Round trips on the state change's path: none more for the owing (it is the state write's own); for
 * the recording, one insert of all the events the write owes (src/events/recording.ts recordEvents,
 * after one read of the last sequence of each object whose events do not fix theirs); and one update
 * clearing the entries (with the flag when no other change owes an event since: `eventsOwedAt`
 * unchanged). A flag left set with no entry is cleared by the sweep.
 */
import mongoose, { type Model } from 'mongoose';
import { getConfig } from '../../config';
import { logger } from '../platform/logger';
import { eventIdOf, recordEvents, type NewEvent } from './recording';
import type { OwedEntry, OwesEvents } from './owed-fields';

/** The events one state write owes, ready to be written by it. */
export interface Owed {
  at: Date;
  /** `at`: when an entry owed earlier by the document (stillOwed) was owed; the others were at `Owed.at`. */
  entries: { key: string; event: NewEvent; at?: Date }[];
}

/** A key of `owedEvents`: the event's id, without what a field name may not hold. */
const keyOf = (event: NewEvent) => eventIdOf(event).replace(/[.$]/g, '_');

export function oweEvents(events: (NewEvent | null | undefined)[], at = new Date()): Owed {
  const entries = events.filter((e): e is NewEvent => !!e).map((event) => ({ key: keyOf(event), event }));
  return { at, entries };
}

/** The events a document owes as read (its last owing write's time, each entry's own). */
export function owedBy(document: OwesEvents): Owed {
  const entries = Object.entries(document.owedEvents ?? {})
    .filter(([, entry]) => entry)
    .map(([key, entry]) => ({ key, event: entry.event, at: new Date(entry.at) }));
  return { at: document.eventsOwedAt ? new Date(document.eventsOwedAt) : new Date(0), entries };
}

/**
 * The events a document read before this write still owes, added to the ones this write owes: the
 * recording after the write then records both in one insert and clears both.
 */
export function withStillOwed(document: OwesEvents, owed: Owed): Owed {
  const earlier = owedBy(document).entries.filter(({ key }) => !owed.entries.some((own) => own.key === key));
  return { at: owed.at, entries: [...earlier, ...owed.entries] };
}

/** The `$set` fields of an update that owes these events (nothing when it owes none). */
export function owedSet(owed: Owed): Record<string, unknown> {
  if (!owed.entries.length) return {};
  const set: Record<string, unknown> = { eventsOwed: true, eventsOwedAt: owed.at };
  for (const { key, event } of owed.entries) set[`owedEvents.${key}`] = { event, at: owed.at };
  return set;
}

/** The fields of a new document that owes these events. */
export function owedFields(owed: Owed): OwesEvents {
  if (!owed.entries.length) return {};
  const owedEvents: Record<string, OwedEntry> = {};
  for (const { key, event } of owed.entries) owedEvents[key] = { event, at: owed.at };
  return { eventsOwed: true, eventsOwedAt: owed.at, owedEvents };
}

/** Tests only: the pause between the state write and the recording of what it owes (a fault test kills it there). */
async function testHold(owed: Owed): Promise<void> {
  const holdMs = getConfig().events.testHoldBeforeRecordMs;
  if (!holdMs) return;
  logger.info({ events: owed.entries.map((e) => eventIdOf(e.event)) }, 'state written; holding before its events');
  await new Promise((resolve) => setTimeout(resolve, holdMs));
}

/**
 * After the state write: the owed events recorded (one insert), then their entries cleared. Never
 * throws (the money operation is written; events that could not be recorded stay owed and the sweep
 * records them, under the same ids, so one recorded before the failure is not recorded twice).
 */
export async function recordOwed<T>(owner: Model<T>, docId: unknown, owed: Owed): Promise<void> {
  const model = owner as unknown as Model<OwesEvents>;
  if (!owed.entries.length) return;
  await testHold(owed);
  try {
    await recordEvents(owed.entries.map(({ event, at }) => ({ event, at: at ?? owed.at })));
  } catch (err) {
    const events = owed.entries.map(({ event }) => `${event.type} ${event.objectId}`);
    logger.error({ err, events }, 'could not record owed events; the sweep will');
    return;
  }
  await clearOwed(
    model,
    docId,
    owed.entries.map(({ key }) => key),
    owed.at,
  );
}

/**
 * Clears recorded entries; with `flagAt` (the owing write's time) the flag too, unless a later change
 * owes an event since (its `eventsOwedAt` is then another). Never throws: the sweep clears what is left.
 */
async function clearOwed(model: Model<OwesEvents>, docId: unknown, keys: string[], flagAt: Date | null | undefined) {
  const unset: Record<string, ''> = {};
  for (const key of keys) unset[`owedEvents.${key}`] = '';
  try {
    if (flagAt) {
      const cleared = await model.updateOne({ _id: docId, eventsOwedAt: flagAt } as never, {
        $unset: { ...unset, eventsOwed: '', eventsOwedAt: '' },
      });
      if (cleared.matchedCount || !keys.length) return;
    }
    if (keys.length) await model.updateOne({ _id: docId } as never, { $unset: unset });
  } catch (err) {
    logger.warn({ err, docId }, 'could not clear recorded owed events; the sweep will');
  }
}

/** The models swept: every one whose schema took the owesEvents plugin. */
function owingModels(): Model<OwesEvents>[] {
  return mongoose
    .modelNames()
    .map((name) => mongoose.model(name) as unknown as Model<OwesEvents>)
    .filter((model) => model.schema.path('eventsOwed') !== undefined);
}

/** How long an owed event is left to the process that wrote it before the sweep records it. */
export const OWED_GRACE_MS = 60_000;

/**
 * Scheduler task: the events owed by documents flagged longer than the grace period are recorded
 * (once: the same ids) and their entries cleared; a flag with no entry left is cleared.
 */
export async function sweepOwedEvents(now = new Date(), graceMs = OWED_GRACE_MS, batch = 200): Promise<number> {
  const cutoff = new Date(now.getTime() - graceMs);
  let recorded = 0;
  for (const model of owingModels()) {
    const docs = (await model
      .find({ eventsOwed: true, eventsOwedAt: mongoose.trusted({ $lt: cutoff }) } as never, {
        _id: 1,
        eventsOwedAt: 1,
        owedEvents: 1,
      })
      .limit(batch)
      .lean()) as unknown as ({ _id: unknown } & OwesEvents)[];
    for (const doc of docs) {
      // As recordOwed does after a write: the entries past the grace period in one insert, then cleared
      // (the flag too when they are all the document owes and nothing owed more since).
      const entries = owedBy(doc).entries.filter(({ at }) => at && at < cutoff);
      if (entries.length) await recordEvents(entries.map(({ event, at }) => ({ event, at: at! })));
      const all = entries.length === Object.keys(doc.owedEvents ?? {}).length;
      await clearOwed(
        model,
        doc._id,
        entries.map(({ key }) => key),
        all ? doc.eventsOwedAt : null,
      );
      recorded += entries.length;
    }
  }
  if (recorded) logger.warn({ events: recorded }, 'recorded account events their state change still owed');
  return recorded;
}

/** /metrics: seconds since the oldest state change whose events are still owed (0 when none). */
export async function owedEventsAgeSeconds(now = new Date()): Promise<number> {
  let oldest: Date | null = null;
  for (const model of owingModels()) {
    const doc = (await model
      .findOne({ eventsOwed: true } as never, { eventsOwedAt: 1 })
      .sort({ eventsOwedAt: 1 })
      .lean()) as OwesEvents | null;
    const at = doc?.eventsOwedAt ? new Date(doc.eventsOwedAt) : null;
    if (at && (!oldest || at < oldest)) oldest = at;
  }
  return oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0;
}
