/**
 * The fields of a document whose writes owe account events (src/events/outbox.ts), as a schema
 * plugin. Kept apart from the outbox's code so that a model imports nothing but mongoose for it.
 */
import { Schema } from 'mongoose';
import type { NewEvent } from './recording';

/** One owed event as stored in the object's document. */
export interface OwedEntry {
  event: NewEvent;
  at: Date;
}

/** The fields an event-owning document carries (absent: nothing owed). */
export interface OwesEvents {
  eventsOwed?: boolean;
  eventsOwedAt?: Date | null;
  owedEvents?: Record<string, OwedEntry> | null;
}

/** The schema plugin of every model whose writes owe events: its fields, and the sweep's index. */
export function owesEvents(schema: Schema): void {
  schema.add({
    eventsOwed: { type: Boolean },
    eventsOwedAt: { type: Date },
    owedEvents: { type: Schema.Types.Mixed },
  });
  schema.index({ eventsOwed: 1, eventsOwedAt: 1 });
}
