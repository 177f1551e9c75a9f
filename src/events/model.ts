/** Account events: one per state change of a merchant's object, kept EVENTS_RETENTION_DAYS days. */
import mongoose, { Schema } from 'mongoose';

export interface AccountEvent {
  /** evt_<object kind>_<object id>_<change>: deterministic, so a retried or racing emitter records it once. */
  _id: string;
  merchantId: number;
  type: string;
  objectKind: string;
  objectId: string;
  /** <kind>_<id>: the object's events are looked up by it. */
  objectKey: string;
  /** 1, 2, 3... per object, in recording order: a receiver orders an object's events by it. */
  sequence: number;
  /** <objectKey>#<sequence>, unique: two events of one object never share a sequence number. */
  objectSequence: string;
  /** The object as the API shows it at this change. */
  data: object;
  /** The exact JSON body every endpoint receives (and the events API answers), fixed at recording. */
  body: string;
  createdAt: Date;
  /** YYYY-MM-DD (UTC) of createdAt: the retention sweep removes whole days (no TTL index on FerretDB). */
  day: string;
  /** False until its fan-out job ran: the scheduler sweep fans out those left behind. */
  fannedOut: boolean;
}

const eventSchema = new Schema<AccountEvent>(
  {
    _id: { type: String },
    merchantId: { type: Number, required: true },
    type: { type: String, required: true },
    objectKind: { type: String, required: true },
    objectId: { type: String, required: true },
    objectKey: { type: String, required: true },
    sequence: { type: Number, required: true },
    objectSequence: { type: String, required: true },
    data: { type: Schema.Types.Mixed, required: true },
    body: { type: String, required: true },
    createdAt: { type: Date, required: true },
    day: { type: String, required: true },
    fannedOut: { type: Boolean, default: false },
  },
  { versionKey: false, collection: 'account_events', minimize: false },
);
eventSchema.index({ objectSequence: 1 }, { unique: true });
eventSchema.index({ objectKey: 1, sequence: -1 });
eventSchema.index({ merchantId: 1, createdAt: -1 });
eventSchema.index({ day: 1 });
// The sweep's query: events whose fan-out never ran.
eventSchema.index({ fannedOut: 1, createdAt: 1 });

export const AccountEventModel = mongoose.model<AccountEvent>('AccountEvent', eventSchema);
