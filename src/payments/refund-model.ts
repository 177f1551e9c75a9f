/**
 * Refunds of card sales and the documents whose unique-index inserts guard them (FerretDB applies
 * conditional updates without a lock, so two can both "win"; an insert under a unique index cannot):
 *
 * - a refund takes the next admission slot of its sale ("<saleId>:<n>", unique): two requests that
 *   read the same refunds both try slot n, one wins, the other reads again, so the sum of pending
 *   and succeeded refunds is checked against what is left with nobody admitting in between;
 * - the send lane of a sale (`_id` its sale id): whoever holds it is the one process sending that
 *   sale's refunds to the acquirer, one at a time.
 */
import mongoose, { Schema } from 'mongoose';
import type { KeyState } from './idempotency';
import { owesEvents, type OwesEvents } from '../events/owed-fields';

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Why the merchant refunds (docs/api/refunds.md). */
export const REFUND_REASONS = [
  'requested_by_customer',
  'item_returned',
  'shipping_fee',
  'duplicate',
  'fraudulent',
  'other',
] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** With the events its writes owe (src/events/outbox.ts). */
export interface Refund extends OwesEvents {
  _id: number;
  saleId: number;
  merchantId: number;
  /**
   * `chargeback`: not a refund but the hold an accepted chargeback takes on the whole captured value
   * (src/refunds/chargebacks.ts): admitted under the same slots, never sent to the acquirer, never
   * shown as a refund. Absent on refunds.
   */
  kind?: 'refund' | 'chargeback';
  /** The chargeback ("<establishment>:<idChargeback>") of a `chargeback` hold. */
  chargebackId?: string | null;
  /** "<saleId>:<n>": the n-th refund of its sale, unique (the admission guard). */
  slot: string;
  valueCents: number;
  reason: RefundReason | null;
  metadata: Record<string, string> | null;
  status: RefundStatus;
  /** The acquirer's cancel code of a failed refund (43 low balance, 40 too late...). */
  acquirerCode: string | null;
  /** Why it failed, for the merchant. */
  failureReason: string | null;
  /**
   * Set when the void is sent (cleared when it is known not to have happened): the acquirer's
   * VoidedAmount of the sale before this refund, so an unknown outcome is settled by reading it.
   * `accepted`: a PIX refund the acquirer took (Status 12): it completes by the acquirer's notice,
   * and is never sent again.
   */
  sent: { at: Date; voidedBefore: number; requestKey: string; accepted?: boolean } | null;
  /** When a void was last sent for it: the acquirer wants CANCEL_SPACING_MS between cancels on one sale. */
  attemptedAt: Date | null;
  /** The holder token of the sale's CONFIRMED transition claim, when this refund took it (the sale's first). */
  confirmedClaimHolder: string | null;
  /** The Idempotency-Key use that made it ("<merchantId>:<key>" and that use's createdAt). */
  idempotencyRecordId: string | null;
  idempotencyRecordCreatedAt: Date | null;
  settledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const refundSchema = new Schema<Refund>(
  {
    _id: { type: Number },
    saleId: { type: Number, required: true },
    merchantId: { type: Number, required: true },
    kind: { type: String, enum: ['refund', 'chargeback'], default: 'refund' },
    chargebackId: { type: String, default: null },
    slot: { type: String, required: true },
    valueCents: { type: Number, required: true },
    reason: { type: String, default: null },
    metadata: { type: Schema.Types.Mixed, default: null },
    status: { type: String, enum: REFUND_STATUSES, required: true },
    acquirerCode: { type: String, default: null },
    failureReason: { type: String, default: null },
    sent: {
      type: new Schema({ at: Date, voidedBefore: Number, requestKey: String, accepted: Boolean }, { _id: false }),
      default: null,
    },
    attemptedAt: { type: Date, default: null },
    confirmedClaimHolder: { type: String, default: null },
    idempotencyRecordId: { type: String, default: null },
    idempotencyRecordCreatedAt: { type: Date, default: null },
    settledAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false, collection: 'refunds' },
);
refundSchema.index({ slot: 1 }, { unique: true });
refundSchema.index({ saleId: 1 });
// The sweep of refunds left pending.
refundSchema.index({ status: 1, createdAt: 1 });
refundSchema.index({ idempotencyRecordId: 1 });

// Its writes owe account events in the same write (src/events/outbox.ts).
refundSchema.plugin(owesEvents);
export const RefundModel = mongoose.model<Refund>('Refund', refundSchema);

/** The claim on sending a sale's refunds (src/db/claims.ts): `_id` the sale id. */
export interface RefundLane {
  _id: number;
  holder?: string | null;
  startedAt: Date;
}

const laneSchema = new Schema<RefundLane>(
  { _id: { type: Number }, holder: { type: String }, startedAt: { type: Date, required: true } },
  { versionKey: false, collection: 'refund_lanes' },
);

export const RefundLaneModel = mongoose.model<RefundLane>('RefundLane', laneSchema);

/** Idempotency-Key of a refund request: `_id` "<merchantId>:<key>" (src/payments/idempotency.ts). */
export interface RefundIdempotencyRecord {
  _id: string;
  merchantId: number;
  bodyHash: string;
  state: KeyState;
  refundId: number | null;
  response: { status: number; body: Record<string, unknown> } | null;
  createdAt: Date;
}

const idempotencySchema = new Schema<RefundIdempotencyRecord>(
  {
    _id: { type: String },
    merchantId: { type: Number, required: true },
    bodyHash: { type: String, required: true },
    state: { type: String, enum: ['in_progress', 'reconciling', 'done'], required: true },
    refundId: { type: Number, default: null },
    response: { type: Schema.Types.Mixed, default: null },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'refund_idempotency' },
);

export const RefundIdempotencyModel = mongoose.model<RefundIdempotencyRecord>('RefundIdempotency', idempotencySchema);
