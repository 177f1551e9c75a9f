/**
 * Chargebacks received from the acquirer. Three collections:
 *
 * - chargeback_notices: every notice as received, once (its _id is the notice's fingerprint, so the
 *   same notice posted twice is stored once), with when it was applied.
 * - chargeback_events: the facts the notices and our accept/refuse calls establish, each inserted
 *   once under a unique _id (received, lifecycle step, accepted, refused). Insert-only.
 * - chargebacks: one document per chargeback, a projection recomputed from all its events. Because
 *   the projection is a pure function of the set of events, duplicates and any arrival order give
 *   the same result, and no counter is ever incremented (FerretDB can lose concurrent $inc).
 *
 * Payloads are kept as JSON text: the acquirer's keys are not ours to trust as MongoDB field names.
 */
import mongoose, { Schema } from 'mongoose';
import type { NoticeKind } from '../../jobs/chargeback-notice';
import { owesEvents } from '../events/owed-fields';

export type { NoticeKind };

export interface ChargebackNotice {
  /** sha256 of the notice's canonical JSON (keys sorted). */
  _id: string;
  kind: NoticeKind;
  /** The notice as JSON (what the worker applies). */
  raw: string;
  /** Evidence: the request body exactly as received, base64 (any charset), and its Content-Type. */
  receivedBody?: string;
  receivedContentType?: string;
  receivedAt: Date;
  appliedAt: Date | null;
  /**
   * Whether appliedAt is set, written with it: the sweep and the needs_attention count read by this equality (FerretDB
   * cannot index null).
   */
  applied?: boolean;
  /**
   * The BullMQ job that applies this record: unique per stored record (never derived from the content,
   * so a job id left in Redis by another run or another record cannot swallow the add). The sweep
   * replaces it when it queues the record again.
   */
  jobId?: string;
  /** How it was settled: applied, or a lifecycle step the acquirer never confirmed (not applied). */
  result?: 'applied' | 'unconfirmed';
  /** When a job last gave up waiting for the acquirer to confirm it (it stays unapplied; the sweep asks again). */
  unconfirmedAt?: Date;
}

const noticeSchema = new Schema<ChargebackNotice>(
  {
    _id: { type: String },
    kind: { type: String, enum: ['new', 'lifecycle'], required: true },
    raw: { type: String, required: true },
    receivedBody: { type: String },
    receivedContentType: { type: String },
    receivedAt: { type: Date, required: true },
    appliedAt: { type: Date, default: null },
    applied: { type: Boolean, default: false },
    jobId: { type: String },
    result: { type: String, enum: ['applied', 'unconfirmed'] },
    unconfirmedAt: { type: Date },
  },
  { versionKey: false, collection: 'chargeback_notices' },
);
// The sweep of notices left unapplied and their needs_attention count.
noticeSchema.index({ applied: 1, receivedAt: 1 });

export const ChargebackNoticeModel = mongoose.model<ChargebackNotice>('ChargebackNotice', noticeSchema);

export type EventKind = 'received' | 'lifecycle' | 'accepted' | 'refused';

export interface ChargebackEvent {
  /**
   * received:<ec>:<idChargeback> | lifecycle:<ec>:<idCase>:<date>:<hash> | accepted:<ec>:<idChargeback> |
   * refused:<ec>:<idChargeback>
   */
  _id: string;
  kind: EventKind;
  establishmentNumber: string;
  idChargeback: string | null;
  idCase: string | null;
  /** The acquirer's date of the fact (yyyy-MM-dd for lifecycle steps), or our clock for accept/refuse. */
  at: Date;
  /** JSON text: the consult item for `received`; {message, executionDate, ActionCicleDate} for `lifecycle`. */
  data: string;
  createdAt: Date;
}

const eventSchema = new Schema<ChargebackEvent>(
  {
    _id: { type: String },
    kind: { type: String, enum: ['received', 'lifecycle', 'accepted', 'refused'], required: true },
    establishmentNumber: { type: String, required: true },
    idChargeback: { type: String, default: null },
    idCase: { type: String, default: null },
    at: { type: Date, required: true },
    data: { type: String, default: '{}' },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'chargeback_events' },
);
eventSchema.index({ establishmentNumber: 1, idChargeback: 1 });
eventSchema.index({ establishmentNumber: 1, idCase: 1 });

export const ChargebackEventModel = mongoose.model<ChargebackEvent>('ChargebackEvent', eventSchema);

/**
 * PENDING: received, not handled. REFUSED: defended, outcome awaited. ACCEPTED / WON / LOST: in history. UNRECEIVED:
 * only later facts known so far.
 */
export type ChargebackStatus = 'PENDING' | 'REFUSED' | 'ACCEPTED' | 'WON' | 'LOST' | 'UNRECEIVED';

export interface Chargeback {
  /** <establishmentNumber>:<idChargeback> */
  _id: string;
  establishmentNumber: string;
  idChargeback: string;
  idCase: string | null;
  status: ChargebackStatus;
  /** The consult item of the new-chargeback notice, as JSON text ('' until received). */
  item: string;
  /** Lifecycle steps, oldest first, as JSON text [{action, actionDate}]. */
  lifecycle: string;
  receptionDate: string | null;
  treatmentDeadline: string | null;
  acceptedAt: Date | null;
  refusedAt: Date | null;
  /** When it entered history: acceptance time, or the date of the final lifecycle step. */
  outcomeAt: Date | null;
  /** How many events the projection was computed from (insert-only, so it only grows). */
  eventCount: number;
  updatedAt: Date;
}

const chargebackSchema = new Schema<Chargeback>(
  {
    _id: { type: String },
    establishmentNumber: { type: String, required: true },
    idChargeback: { type: String, required: true },
    idCase: { type: String, default: null },
    status: { type: String, required: true },
    item: { type: String, default: '' },
    lifecycle: { type: String, default: '[]' },
    receptionDate: { type: String, default: null },
    treatmentDeadline: { type: String, default: null },
    acceptedAt: { type: Date, default: null },
    refusedAt: { type: Date, default: null },
    outcomeAt: { type: Date, default: null },
    eventCount: { type: Number, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'chargebacks' },
);
chargebackSchema.index({ status: 1, establishmentNumber: 1 });
// Lifecycle authorization finds a case's chargebacks by idCase.
chargebackSchema.index({ idCase: 1, establishmentNumber: 1 });
// History: a merchant's chargebacks by establishment, most recent outcome first.
chargebackSchema.index({ establishmentNumber: 1, outcomeAt: -1 });
chargebackSchema.index({ outcomeAt: -1 });

// Its writes owe account events in the same write (src/events/outbox.ts).
chargebackSchema.plugin(owesEvents);
export const ChargebackModel = mongoose.model<Chargeback>('Chargeback', chargebackSchema);
