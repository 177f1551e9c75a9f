/**
 * Online sales and the documents whose unique-index inserts guard their one-time effects
 * (FerretDB applies conditional updates without a lock, so two can both "win"; an insert
 * under a unique index cannot).
 */
import mongoose, { Schema } from 'mongoose';
import type { KeyState } from './idempotency';
import { owesEvents } from '../events/owed-fields';

export const PAYMENT_STATUSES = [
  /** Authorization or PIX creation sent; answer not yet known (reconciliation pending when it stays so). */
  'PROCESSING',
  /** Card authorized, not captured. */
  'PRE_CAPTURED',
  /** Card captured, or PIX paid. */
  'CONFIRMED',
  /** Authorization voided before capture. */
  'CANCELLED',
  /** Captured card sale refunded: all of what was captured. */
  'REFUNDED',
  /** Captured card sale of which part was refunded (src/refunds); REFUNDED once all of it is. */
  'PARTIALLY_REFUNDED',
  /** Card refused by the issuer: not a sale. */
  'DENIED',
  /** Gateway failure: nothing charged. */
  'FAILED',
  /** PIX charge waiting for the payer. */
  'PENDING',
  /** PIX charge not paid before its expiry. */
  'EXPIRED',
] as const;

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type PaymentMethod = 'card' | 'pix';
export type SaleOperation = 'authorize' | 'capture' | 'void' | 'refund';

/** What a sale recorded after the fact stands for (src/sales/settled-sales.ts): a paid link, a subscription charge. */
export const SALE_ORIGIN_KINDS = ['payment_link', 'subscription_charge'] as const;
export type SaleOrigin = { kind: (typeof SALE_ORIGIN_KINDS)[number]; id: number };

export interface Payment {
  _id: number;
  merchantId: number;
  /** Our order id at the acquirer (alphanumeric, unique): reconciliation looks the sale up by it. */
  merchantOrderId: string;
  /** The merchant's own order reference, as sent. */
  orderReference: string | null;
  paymentMethod: PaymentMethod;
  amountCents: number;
  installments: number;
  status: PaymentStatus;
  payer: { name: string; document: string | null; documentType: 'CPF' | 'CNPJ' | null };
  /** Brand, BIN and last four only: the card number is never stored. */
  card: { brand: string; bin: string; last4: string; fromToken: boolean } | null;
  acquirer: {
    paymentId: string | null;
    status: number | null;
    returnCode: string | null;
    returnMessage: string | null;
    tid: string | null;
    proofOfSale: string | null;
    authorizationCode: string | null;
  };
  denial: { code: string; message: string } | null;
  pix: { qrCode: string; expiresAt: Date | null; paidAt: Date | null } | null;
  /** Set while the outcome of an acquirer call is unknown; a queued job settles it. */
  /** `inFlight`: no answer came (timeout, dropped connection), so the call may still be running at the acquirer. */
  reconciliation: {
    operation: SaleOperation;
    fromStatus: PaymentStatus;
    since: Date;
    reason: string;
    inFlight?: boolean;
  } | null;
  /**
   * Whether `reconciliation` is set, written by the same writes: a top-level equality FerretDB
   * serves from an index, so the stuck-reconciliation sweep reads only these sales, not them all.
   */
  reconciling?: boolean;
  /** The Idempotency-Key record that created this sale, so reconciliation can complete its answer. */
  idempotencyRecordId: string | null;
  /**
   * That record's createdAt: which use of the key made this sale. A key is used again once a use is
   * freed (nothing charged) or expired, under the same record id; only this tells the uses apart.
   */
  idempotencyRecordCreatedAt?: Date | null;
  /**
   * The answer a pre-capture with an Idempotency-Key gave (card token left out), written in the
   * same write that recorded the acquirer's answer: a replay of the key reads it here (and only
   * here), so the key record needs no second write after the acquirer call.
   */
  idempotentAnswer: { status: number; body: Record<string, unknown> } | null;
  /** The request body's hash under that key, so a replay is checked against the sale alone. */
  idempotencyBodyHash?: string | null;
  /**
   * The sequence number of the last account event of this payment's own object (`sale_<id>`) that one of its moves
   * owed, written by that move: the next move numbers its event from here, with no read of the last event. Absent on
   * payments stored before it existed (their next event reads the last one, as before).
   */
  eventSeq?: number;
  /**
   * `acquirer.paymentId` again, at the top level: FerretDB serves only top-level equality from an
   * index, and the acquirer's notices find their sale by it (a sale recorded before this field is
   * found through the order id the acquirer gives for the PaymentId).
   */
  acquirerPaymentId?: string | null;
  /** `acquirer.tid` again, at the top level (indexed): an accepted chargeback names its sale by TID. */
  acquirerTid?: string | null;
  capturedAt: Date | null;
  /** Cents captured: all of `amountCents`, or less by a partial capture; null until captured (absent on older ones). */
  capturedValue?: number | null;
  /** Cents refunded by succeeded refunds (src/refunds); absent until the first (a cancel-capture refund: all). */
  refundedValue?: number | null;
  cancelledAt: Date | null;
  refundedAt: Date | null;
  /**
   * Set on a sale recorded for a charge another area made (a paid link, a subscription charge), so its
   * refunds go through src/refunds; absent on a sale made by pre-capture.
   */
  origin?: SaleOrigin | null;
  createdAt: Date;
  updatedAt: Date;
}

const saleSchema = new Schema<Payment>(
  {
    _id: { type: Number },
    merchantId: { type: Number, required: true },
    merchantOrderId: { type: String, required: true },
    orderReference: { type: String, default: null },
    paymentMethod: { type: String, enum: ['card', 'pix'], required: true },
    amountCents: { type: Number, required: true },
    installments: { type: Number, required: true },
    status: { type: String, enum: PAYMENT_STATUSES, required: true },
    payer: {
      name: { type: String, required: true },
      document: { type: String, default: null },
      documentType: { type: String, default: null },
    },
    card: {
      type: new Schema({ brand: String, bin: String, last4: String, fromToken: Boolean }, { _id: false }),
      default: null,
    },
    acquirer: {
      paymentId: { type: String, default: null },
      status: { type: Number, default: null },
      returnCode: { type: String, default: null },
      returnMessage: { type: String, default: null },
      tid: { type: String, default: null },
      proofOfSale: { type: String, default: null },
      authorizationCode: { type: String, default: null },
    },
    denial: { type: new Schema({ code: String, message: String }, { _id: false }), default: null },
    pix: { type: new Schema({ qrCode: String, expiresAt: Date, paidAt: Date }, { _id: false }), default: null },
    reconciliation: {
      type: new Schema(
        { operation: String, fromStatus: String, since: Date, reason: String, inFlight: Boolean },
        { _id: false },
      ),
      default: null,
    },
    reconciling: { type: Boolean, default: false },
    idempotencyRecordId: { type: String, default: null },
    idempotencyRecordCreatedAt: { type: Date, default: null },
    idempotentAnswer: { type: Schema.Types.Mixed, default: null },
    idempotencyBodyHash: { type: String, default: null },
    eventSeq: { type: Number },
    acquirerPaymentId: { type: String, default: null },
    acquirerTid: { type: String, default: null },
    capturedAt: { type: Date, default: null },
    capturedValue: { type: Number, default: null },
    refundedValue: { type: Number, default: null },
    cancelledAt: { type: Date, default: null },
    refundedAt: { type: Date, default: null },
    origin: { type: new Schema({ kind: String, id: Number }, { _id: false }), default: undefined },
  },
  { timestamps: true, versionKey: false, collection: 'online_sales' },
);
saleSchema.index({ merchantOrderId: 1 }, { unique: true });
// Not unique: sales still PROCESSING have no PaymentId, and FerretDB has no partial indexes.
saleSchema.index({ acquirerPaymentId: 1 });
saleSchema.index({ acquirerTid: 1 });
saleSchema.index({ merchantId: 1, createdAt: -1 });
// The scheduler's sweep of unsettled sales.
saleSchema.index({ status: 1, createdAt: 1 });
// The sweep of reconciliations stuck over 10 minutes.
saleSchema.index({ reconciling: 1, 'reconciliation.since': 1 });
// The sweep of PIX sales past expiry with no notice applied.
saleSchema.index({ status: 1, 'pix.expiresAt': 1 });
saleSchema.index({ idempotencyRecordId: 1 });

// Its writes owe account events in the same write (src/events/outbox.ts).
saleSchema.plugin(owesEvents);
export const PaymentModel = mongoose.model<Payment>('OnlineSale', saleSchema);

/**
 * One document per state a sale leaves: `_id` "<saleId>:<fromStatus>". Whoever inserts it owns
 * the transition out of that state (capture or void of PRE_CAPTURED, refund of CONFIRMED, the
 * payment of a PENDING PIX...), so two concurrent operations never both reach the acquirer.
 * Deleted again when the operation is known not to have happened.
 */
export interface SaleTransition {
  _id: string;
  saleId: number;
  fromStatus: PaymentStatus;
  operation: SaleOperation | 'settle';
  /** The claim's holder token (src/db/claims.ts); absent on transitions stored before it. */
  holder?: string | null;
  createdAt: Date;
}

const transitionSchema = new Schema<SaleTransition>(
  {
    _id: { type: String },
    saleId: { type: Number, required: true },
    fromStatus: { type: String, required: true },
    operation: { type: String, required: true },
    holder: { type: String },
  },
  { timestamps: { createdAt: true, updatedAt: false }, versionKey: false, collection: 'online_sale_transitions' },
);
transitionSchema.index({ saleId: 1 });

export const SaleTransitionModel = mongoose.model<SaleTransition>('SaleTransition', transitionSchema);

/**
 * Idempotency-Key of a pre-capture: `_id` "<merchantId>:<key>", inserted before any work so two
 * requests with the same key cannot both authorize. Holds the first answer for 24 hours.
 */
export interface SaleIdempotencyRecord {
  _id: string;
  merchantId: number;
  bodyHash: string;
  state: KeyState;
  saleId: number | null;
  response: { status: number; body: unknown } | null;
  createdAt: Date;
}

const idempotencySchema = new Schema<SaleIdempotencyRecord>(
  {
    _id: { type: String },
    merchantId: { type: Number, required: true },
    bodyHash: { type: String, required: true },
    state: { type: String, enum: ['in_progress', 'reconciling', 'done'], required: true },
    saleId: { type: Number, default: null },
    response: { type: Schema.Types.Mixed, default: null },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'online_sale_idempotency' },
);
idempotencySchema.index({ createdAt: 1 });

export const SaleIdempotencyModel = mongoose.model<SaleIdempotencyRecord>('SaleIdempotency', idempotencySchema);

/** A card the acquirer tokenized for a merchant. The token is stored only as a SHA-256 hash. */
export interface SavedCard {
  _id: string;
  merchantId: number;
  brand: string;
  bin: string;
  last4: string;
  createdAt: Date;
}

const savedCardSchema = new Schema<SavedCard>(
  { _id: { type: String }, merchantId: { type: Number, required: true }, brand: String, bin: String, last4: String },
  { timestamps: { createdAt: true, updatedAt: false }, versionKey: false, collection: 'online_sale_cards' },
);
savedCardSchema.index({ merchantId: 1 });

export const SavedCardModel = mongoose.model<SavedCard>('SavedCard', savedCardSchema);

/**
 * A card/PIX notification from the acquirer, stored raw before anything else happens. `_id` is
 * the SHA-256 of the exact body, so the acquirer's retries of one notice are one document.
 */
export interface PaymentNotice {
  _id: string;
  raw: string;
  paymentId: string;
  changeType: number;
  receivedAt: Date;
  appliedAt: Date | null;
  /**
   * Whether appliedAt is set, written with it: the sweep of unapplied notices reads by this equality (FerretDB cannot
   * index null).
   */
  applied?: boolean;
  /**
   * The job that applies it (src/queue recordJobId): the sweep queues the notice again only when that job will not run.
   */
  jobId?: string;
  result: string | null;
}

const noticeSchema = new Schema<PaymentNotice>(
  {
    _id: { type: String },
    raw: { type: String, required: true },
    paymentId: { type: String, required: true },
    changeType: { type: Number, required: true },
    receivedAt: { type: Date, required: true },
    appliedAt: { type: Date, default: null },
    applied: { type: Boolean, default: false },
    jobId: { type: String },
    result: { type: String, default: null },
  },
  { versionKey: false, collection: 'acquirer_payment_notices' },
);
noticeSchema.index({ paymentId: 1 });
// The sweep of notices left unapplied.
noticeSchema.index({ applied: 1, receivedAt: 1 });
// The count of notices unapplied for long (salesNeedingAttention, which also counts notices stored before `applied`
// existed).
noticeSchema.index({ appliedAt: 1, receivedAt: 1 });

export const PaymentNoticeModel = mongoose.model<PaymentNotice>('PaymentNotice', noticeSchema);
