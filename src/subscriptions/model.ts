/**
 * Subscriptions, their charges, and the one-time records that make charging safe on FerretDB
 * (no transactions; two conditional updates can both win): a charge exists once per
 * subscription and due date, and an attempt has one recorded outcome, because each is INSERTED
 * under a unique index.
 */
import mongoose, { Schema } from 'mongoose';
import { owesEvents } from '../events/owed-fields';

export const BILLING_CYCLES = ['weekly', 'monthly', 'bimonthly', 'quarterly', 'semiannual', 'annual'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

export type SubscriptionStatus = 'active' | 'cancelled' | 'expired';

export const PAYMENT_METHODS = ['card', 'pix_automatico'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** A Pix Automático mandate's states: CREATED -> APPROVED | REJECTED | EXPIRED; APPROVED -> CANCELLED. */
export const MANDATE_STATUSES = ['CREATED', 'APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED'] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];

/**
 * The payer's authorisation of a Pix Automático subscription (the acquirer's recurrence). Its status
 * moves only after the acquirer's GET of the recurrence says so (mandate.ts); each move is also a
 * MandateChange record, inserted once, which outranks this copy.
 */
export interface Mandate {
  recurrenceId: string;
  /**
   * The unguessable part of the payer's authorisation page's address (/checkout/pix-automatico/<token>),
   * a random UUID as a payment link's guid; absent on mandates opened before the page existed.
   */
  pageToken?: string;
  /** The authorisation's payment at the acquirer (journey 3: the first charge). */
  paymentId: string;
  merchantOrderId: string;
  journey: 2 | 3;
  status: MandateStatus;
  /** Allowed_3R_7D (retry on) or none. */
  retryPolicy: 'Allowed_3R_7D' | 'none';
  amountType: 'fixed' | 'variable';
  /** Variable amounts: the receiver's minimum (sent as MinimumAmount) and our maximum per charge, cents. */
  minimumValue: number | null;
  maximumValue: number | null;
  qrCodeText: string;
  /** data:image/png;base64 of qrCodeText. */
  qrCodeImage: string;
  expiresAt: Date | null;
  approvedAt: Date | null;
  rejectedAt: Date | null;
  expiredAt: Date | null;
  cancelledAt: Date | null;
  cancelledBy: 'merchant' | 'payer' | null;
  /** The acquirer's reason code (the Central Bank's: rejection AP13..., cancellation SLDB, SLCR...) and text. */
  reasonCode: string | null;
  reason: string | null;
}

export interface StoredCard {
  /** Acquirer card token: the only way we can charge the card again. Never shown by the API. */
  token: string;
  brand: string;
  bin: string;
  last4: string;
  holder: string;
  expMonth: number;
  expYear: number;
}

export interface Subscription {
  _id: number;
  merchantId: number;
  value: number;
  /**
   * A variable Pix Automático mandate's amounts set for coming cycles, by due date (setCycleValue); a cycle
   * not named here is charged `value`.
   */
  cycleValues?: Record<string, number> | null;
  billingCycle: BillingCycle;
  firstDueDate: string;
  endDate: string | null;
  maxCycles: number | null;
  retry: boolean;
  status: SubscriptionStatus;
  /** Due date of the next cycle to charge (YYYY-MM-DD); null when no cycle is left or cancelled. */
  nextDueDate: string | null;
  /** 0-based index of that cycle. */
  nextCycle: number;
  /** Absent on subscriptions stored before Pix Automático: a card. */
  paymentMethod?: PaymentMethod;
  /** Absent (null in answers) when paid by pix_automatico. */
  card: StoredCard;
  /** Only when paid by pix_automatico. */
  mandate?: Mandate | null;
  /**
   * mandate.recurrenceId again, at the top level: a recurrence's notice finds its subscription by it, and
   * FerretDB serves only a top-level equality from an index.
   */
  mandateRecurrenceId?: string;
  /** mandate.pageToken again, at the top level (indexed): the payer's page finds its subscription by it. */
  mandatePageToken?: string;
  customer: { name: string; email?: string | null; identity?: string | null };
  description: string | null;
  cancelledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const subscriptionSchema = new Schema<Subscription>(
  {
    _id: { type: Number },
    merchantId: { type: Number, required: true },
    value: { type: Number, required: true },
    cycleValues: { type: Schema.Types.Mixed, default: undefined },
    billingCycle: { type: String, enum: BILLING_CYCLES, required: true },
    firstDueDate: { type: String, required: true },
    endDate: { type: String, default: null },
    maxCycles: { type: Number, default: null },
    retry: { type: Boolean, required: true },
    status: { type: String, enum: ['active', 'cancelled', 'expired'], required: true },
    nextDueDate: { type: String, default: null },
    nextCycle: { type: Number, required: true },
    paymentMethod: { type: String, enum: PAYMENT_METHODS, default: undefined },
    mandateRecurrenceId: { type: String, default: undefined },
    mandatePageToken: { type: String, default: undefined },
    card: {
      // Always set for a card subscription (service.ts); absent for pix_automatico.
      token: { type: String },
      brand: String,
      bin: String,
      last4: String,
      holder: String,
      expMonth: Number,
      expYear: Number,
    },
    // Plain nested paths without defaults: a card subscription stores no mandate key at all.
    mandate: {
      pageToken: String,
      recurrenceId: String,
      paymentId: String,
      merchantOrderId: String,
      journey: Number,
      status: { type: String, enum: MANDATE_STATUSES },
      retryPolicy: String,
      amountType: String,
      minimumValue: Number,
      maximumValue: Number,
      qrCodeText: String,
      qrCodeImage: String,
      expiresAt: Date,
      approvedAt: Date,
      rejectedAt: Date,
      expiredAt: Date,
      cancelledAt: Date,
      cancelledBy: String,
      reasonCode: String,
      reason: String,
    },
    customer: {
      name: { type: String, required: true },
      email: { type: String, default: null },
      identity: { type: String, default: null },
    },
    description: { type: String, default: null },
    cancelledAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false, collection: 'subscriptions' },
);
// The scheduler streams active subscriptions whose next due date has come.
subscriptionSchema.index({ status: 1, nextDueDate: 1 });
subscriptionSchema.index({ merchantId: 1 });
// A recurrence notice names the recurrence: its subscription is found by it.
subscriptionSchema.index({ mandateRecurrenceId: 1 });
// The payer's authorisation page names its mandate by its token.
subscriptionSchema.index({ mandatePageToken: 1 });

// Its writes owe account events in the same write (src/events/outbox.ts).
subscriptionSchema.plugin(owesEvents);
export const SubscriptionModel = mongoose.model<Subscription>('Subscription', subscriptionSchema);

/**
 * A cancellation, inserted once (`_id` = subscription id) before the subscription's status is set.
 * FerretDB writes every update back whole, so a charge run moving the subscription to its next
 * cycle at the same moment can write `active` back over `cancelled`; this record cannot be undone
 * that way: the charge path reads it, treats the subscription as cancelled and restores the status.
 */
export interface SubscriptionCancellation {
  _id: number;
  cancelledAt: Date;
}

const cancellationSchema = new Schema<SubscriptionCancellation>(
  { _id: { type: Number }, cancelledAt: { type: Date, required: true } },
  { versionKey: false, collection: 'subscription_cancellations' },
);

export const SubscriptionCancellationModel = mongoose.model<SubscriptionCancellation>(
  'SubscriptionCancellation',
  cancellationSchema,
);

/**
 * One move of a mandate, inserted once (`_id` `<subscriptionId>-<STATUS>`) when the acquirer's GET
 * confirmed it: a notice applied twice, or two workers at once, record it once, and its event once.
 */
export interface MandateChange {
  _id: string;
  subscriptionId: number;
  status: MandateStatus;
  at: Date;
  by: 'merchant' | 'payer' | null;
  reasonCode: string | null;
  reason: string | null;
}

const mandateChangeSchema = new Schema<MandateChange>(
  {
    _id: { type: String },
    subscriptionId: { type: Number, required: true },
    status: { type: String, enum: MANDATE_STATUSES, required: true },
    at: { type: Date, required: true },
    by: { type: String, default: null },
    reasonCode: { type: String, default: null },
    reason: { type: String, default: null },
  },
  { versionKey: false, collection: 'subscription_mandate_changes' },
);
mandateChangeSchema.index({ subscriptionId: 1 });

export const MandateChangeModel = mongoose.model<MandateChange>('SubscriptionMandateChange', mandateChangeSchema);

export const ChargeStatus = { PENDING: 0, CONFIRMED: 1, DENIED: 2, REFUNDED: 3 } as const;
export type ChargeStatusCode = (typeof ChargeStatus)[keyof typeof ChargeStatus];

export interface SubscriptionCharge {
  _id: number;
  subscriptionId: number;
  merchantId: number;
  dueDate: string;
  cycle: number;
  status: ChargeStatusCode;
  value: number;
  acquirerPaymentId: string;
  /**
   * The acquirer's TID of the confirmed payment, written with the outcome that confirmed it (older charges get
   * theirs from the acquirer, src/subscriptions/charge-tids.ts): an accepted chargeback names its payment by TID.
   */
  acquirerTid?: string | null;
  denialCode: string;
  denialMessage: string;
  /** Sends of this charge to the acquirer: 1 from creation (the first send is under way). */
  attempts: number;
  nextRetryAt: string | null;
  paymentTransactionId: number | null;
  firstDeniedOn: string | null;
  /**
   * Idempotency key and order id of the last attempt when it ended in a communication failure:
   * the next attempt reuses them, so a sale that did reach the acquirer is found, not repeated.
   */
  unsettledIdempotencyKey: string | null;
  unsettledMerchantOrderId: string | null;
  refundedAt: Date | null;
  /**
   * Cents given back by succeeded refunds (src/refunds, through the charge's sale); absent until the
   * first. The charge stays CONFIRMED until it reaches `value`, then is REFUNDED.
   */
  refundedValue?: number | null;
  /**
   * Written by earlier versions: the sale the charge was recorded as at its first refund. No longer written nor
   * read; the sale is found by its origin (src/subscriptions/charge-refunds.ts).
   */
  saleId?: number | null;
  createdAt: Date;
  updatedAt: Date;
}

const chargeSchema = new Schema<SubscriptionCharge>(
  {
    _id: { type: Number },
    subscriptionId: { type: Number, required: true },
    merchantId: { type: Number, required: true },
    dueDate: { type: String, required: true },
    cycle: { type: Number, required: true },
    status: { type: Number, enum: Object.values(ChargeStatus), required: true },
    value: { type: Number, required: true },
    acquirerPaymentId: { type: String, default: '' },
    acquirerTid: { type: String, default: undefined },
    denialCode: { type: String, default: '' },
    denialMessage: { type: String, default: '' },
    attempts: { type: Number, required: true },
    nextRetryAt: { type: String, default: null },
    paymentTransactionId: { type: Number, default: null },
    firstDeniedOn: { type: String, default: null },
    unsettledIdempotencyKey: { type: String, default: null },
    unsettledMerchantOrderId: { type: String, default: null },
    refundedAt: { type: Date, default: null },
    refundedValue: { type: Number, default: undefined },
    saleId: { type: Number, default: undefined },
  },
  { timestamps: true, versionKey: false, collection: 'subscription_charges' },
);
// One charge per subscription and due date, whatever the number of schedulers and workers.
chargeSchema.index({ subscriptionId: 1, dueDate: 1 }, { unique: true });
// The scheduler streams denied charges whose retry day has come.
chargeSchema.index({ status: 1, nextRetryAt: 1 });
// The recovery pass looks for charges left PENDING.
chargeSchema.index({ status: 1, createdAt: 1 });
// A chargeback's accept finds the charge it names (src/refunds/chargebacks.ts).
chargeSchema.index({ acquirerTid: 1 });

// Its writes owe account events in the same write (src/events/outbox.ts).
chargeSchema.plugin(owesEvents);
export const SubscriptionChargeModel = mongoose.model<SubscriptionCharge>('SubscriptionCharge', chargeSchema);

/** The recorded outcome of one attempt (send) of a charge; _id `<chargeId>-<attempt>` makes it once. */
export interface ChargeAttempt {
  _id: string;
  chargeId: number;
  attempt: number;
  idempotencyKey: string;
  merchantOrderId: string;
  status: ChargeStatusCode;
  acquirerPaymentId: string;
  /** The acquirer's TID, when its answer gave one (absent on attempts recorded before it was kept). */
  acquirerTid?: string | null;
  denialCode: string;
  denialMessage: string;
  nextRetryAt: string | null;
  paymentTransactionId: number | null;
  firstDeniedOn: string | null;
  transportError: boolean;
  /**
   * Pix Automático: the day the acquirer was asked to settle this attempt on (the due date, or the retry's day).
   * Absent on card attempts.
   */
  expirationDate?: string | null;
  recordedAt: Date;
}

const attemptSchema = new Schema<ChargeAttempt>(
  {
    _id: { type: String },
    chargeId: { type: Number, required: true },
    attempt: { type: Number, required: true },
    idempotencyKey: String,
    merchantOrderId: String,
    status: Number,
    acquirerPaymentId: String,
    acquirerTid: { type: String, default: undefined },
    denialCode: String,
    denialMessage: String,
    nextRetryAt: { type: String, default: null },
    paymentTransactionId: { type: Number, default: null },
    firstDeniedOn: { type: String, default: null },
    transportError: Boolean,
    expirationDate: { type: String, default: undefined },
    recordedAt: Date,
  },
  { versionKey: false, collection: 'subscription_charge_attempts' },
);
attemptSchema.index({ chargeId: 1, attempt: 1 });
// A Pix Automático settlement notice names its send by the acquirer's PaymentId (pix-settlement.ts).
attemptSchema.index({ acquirerPaymentId: 1 });

export const ChargeAttemptModel = mongoose.model<ChargeAttempt>('SubscriptionChargeAttempt', attemptSchema);

/**
 * The refund claim of the whole-charge refund this project made before charges had partial refunds
 * (`_id` the charge id). No longer written: refunds go through the charge's sale (charge-refunds.ts);
 * the records stay as history.
 */
export interface ChargeRefund {
  _id: number;
  subscriptionId: number;
  requestedAt: Date;
  completedAt: Date | null;
}

const refundSchema = new Schema<ChargeRefund>(
  { _id: { type: Number }, subscriptionId: Number, requestedAt: Date, completedAt: { type: Date, default: null } },
  { versionKey: false, collection: 'subscription_charge_refunds' },
);

export const ChargeRefundModel = mongoose.model<ChargeRefund>('SubscriptionChargeRefund', refundSchema);
