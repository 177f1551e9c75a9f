/**
 * Payment links, the one-charge guard of their pay step, and the Idempotency-Key records of create.
 * Card data is never stored here: only brand, BIN and last four of the card that paid.
 */
import mongoose, { Schema } from 'mongoose';
import type { KeyState } from '../payments/idempotency';
import type { InstallmentOption } from '../platform/installments';

export const LINK_PENDING = 1;
export const LINK_PAID = 2;
/** Never stored: a pending link past its expiry is shown with this status. */
export const LINK_EXPIRED = 3;
export const STATUS_LABELS: Record<number, 'Pendente' | 'Pago' | 'Expirado'> = {
  [LINK_PENDING]: 'Pendente',
  [LINK_PAID]: 'Pago',
  [LINK_EXPIRED]: 'Expirado',
};

/** link_exp_period -> hours the link stays payable after creation. */
export const EXPIRY_HOURS: Record<number, number> = { 1: 24, 2: 48, 3: 72 };

export interface LinkAddress {
  cep: string;
  street: string;
  number: string;
  complement: string;
  neighborhood: string;
  city: string;
  state: string;
  reference: string;
}

export interface LinkPayment {
  acquirerPaymentId: string;
  tid: string | null;
  /**
   * The issuer's authorization code (6 characters): what the payer's receipt shows. Absent on links paid before it was
   * kept.
   */
  authorizationCode?: string | null;
  returnCode: string;
  returnMessage: string;
  brand: string;
  bin: string;
  last4: string;
  /** 'pix' for a link paid by a PIX QR code (no card fields then); absent: card. */
  method?: LinkPaymentMethod;
  installments: number;
  /**
   * The chosen option (src/platform/installments.ts): cents charged in all, each installment, interest-free
   * or not. Absent on links paid before the payer chose.
   */
  total?: number;
  installmentValue?: number;
  interestFree?: boolean;
}

export type LinkPaymentMethod = 'card' | 'pix';

/** How a link offers installments beyond its most (`installments`); absent: all interest-free, no minimum. */
export interface LinkInstallmentPolicy {
  freeInstallments: number;
  interestRateMonthlyBp: number;
  minInstallmentValue: number;
}

export interface PaymentLink {
  _id: number;
  guid: string;
  merchantId: number;
  merchantCompanyName: string;
  value: number;
  description: string;
  payerName: string;
  /** As sent at create (max 20 characters, unchecked) or as saved by the payer step (check digits valid). */
  document: string;
  /** True once the document passed the CPF/CNPJ check (payer step, or a valid one at create). */
  documentValid: boolean;
  email: string;
  mobile: string;
  /** The most installments the payer may choose; a pay step naming none charges this many. */
  installments: number;
  installmentPolicy?: LinkInstallmentPolicy | null;
  /** How the payer may pay: ['card'] (links before PIX), ['pix'] or both. */
  paymentMethods?: LinkPaymentMethod[];
  /** Seconds a PIX QR code of this link lives (never past the link's own expiry). */
  pixExpiresIn?: number;
  linkExpPeriod: number;
  webhookUrl: string;
  status: number;
  address: LinkAddress | null;
  payment: LinkPayment | null;
  /**
   * The card sale the payment is recorded as (src/payment-links/sale.ts): refunds of the link go to
   * that sale. Written with the paid status; absent on links paid before it was recorded until read.
   */
  saleId?: number | null;
  /** Cards declined on this link (approximate under concurrency: $inc); caps card testing through a public link. */
  declinedAttempts: number;
  paymentDate: Date | null;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

const addressSchema = new Schema<LinkAddress>(
  {
    cep: String,
    street: String,
    number: String,
    complement: String,
    neighborhood: String,
    city: String,
    state: String,
    reference: String,
  },
  { _id: false },
);

const paymentSchema = new Schema<LinkPayment>(
  {
    acquirerPaymentId: String,
    tid: String,
    authorizationCode: String,
    returnCode: String,
    returnMessage: String,
    brand: String,
    bin: String,
    last4: String,
    method: String,
    installments: Number,
    total: Number,
    installmentValue: Number,
    interestFree: Boolean,
  },
  { _id: false },
);

const linkSchema = new Schema<PaymentLink>(
  {
    _id: { type: Number },
    guid: { type: String, required: true },
    merchantId: { type: Number, required: true },
    merchantCompanyName: { type: String, default: '' },
    value: { type: Number, required: true },
    description: { type: String, default: '' },
    payerName: { type: String, default: '' },
    document: { type: String, default: '' },
    documentValid: { type: Boolean, default: false },
    email: { type: String, default: '' },
    mobile: { type: String, default: '' },
    installments: { type: Number, default: 1 },
    installmentPolicy: {
      type: new Schema<LinkInstallmentPolicy>(
        { freeInstallments: Number, interestRateMonthlyBp: Number, minInstallmentValue: Number },
        { _id: false },
      ),
      default: null,
    },
    paymentMethods: { type: [String], default: undefined },
    pixExpiresIn: { type: Number },
    linkExpPeriod: { type: Number, default: 2 },
    webhookUrl: { type: String, default: '' },
    status: { type: Number, default: LINK_PENDING },
    address: { type: addressSchema, default: null },
    payment: { type: paymentSchema, default: null },
    saleId: { type: Number, default: undefined },
    declinedAttempts: { type: Number, default: 0 },
    paymentDate: { type: Date, default: null },
    expiresAt: { type: Date, required: true },
  },
  { timestamps: true, versionKey: false, collection: 'payment_links' },
);
linkSchema.index({ guid: 1 }, { unique: true });
linkSchema.index({ merchantId: 1, _id: -1 });

export const PaymentLinkModel = mongoose.model<PaymentLink>('PaymentLink', linkSchema);

/**
 * The one-charge guard: a pay step inserts this document (its _id is the link id) BEFORE calling
 * the acquirer. FerretDB lets two conditional updates both win, but only one insert of an _id.
 * A denial or a transport failure deletes it (the link stays payable); a paid link keeps it forever.
 */
export interface PaymentClaim {
  _id: number;
  /** Sent to the acquirer as the idempotency key; a stale claim taken over keeps it, so a retry cannot charge twice. */
  attemptKey: string;
  merchantOrderId: string;
  state: 'charging' | 'paid';
  /**
   * The installment option charged under attemptKey; a claim taken over keeps it (the acquirer replays
   * that sale, whatever the second payer chose). Absent on claims stored before the payer chose.
   */
  option?: InstallmentOption | null;
  /** The claim's holder token (src/db/claims.ts); absent on claims stored before it. */
  holder?: string | null;
  /** When the claim was taken (or taken over): its lease runs from here. */
  startedAt: Date;
  /** Set with state 'paid': what the link records, so the sweep can write it again if the link lost it. */
  payment?: PaymentLink['payment'];
  paymentDate?: Date | null;
  /** When the payment_link.paid event was stored (the outbox mark); null while it is owed. */
  notifiedAt?: Date | null;
  /** True while the claim is paid and its event owed: the sweep finds such claims by this (an indexed equality). */
  eventOwed?: boolean;
  /** When the sweep last looked at this stale claim without settling it: it goes to the back of the line. */
  checkedAt?: Date | null;
}

const claimSchema = new Schema<PaymentClaim>(
  {
    _id: { type: Number },
    attemptKey: { type: String, required: true },
    merchantOrderId: { type: String, required: true },
    state: { type: String, enum: ['charging', 'paid'], default: 'charging' },
    holder: { type: String },
    startedAt: { type: Date, required: true },
    option: { type: Schema.Types.Mixed, default: null },
    payment: { type: Schema.Types.Mixed, default: null },
    paymentDate: { type: Date, default: null },
    notifiedAt: { type: Date, default: null },
    eventOwed: { type: Boolean, default: false },
    checkedAt: { type: Date, default: null },
  },
  { versionKey: false, collection: 'payment_link_claims' },
);
// The sweep's and /metrics' lookups of open claims: state 'charging', or eventOwed true.
claimSchema.index({ state: 1 });
claimSchema.index({ eventOwed: 1 });

export const PaymentClaimModel = mongoose.model<PaymentClaim>('PaymentClaim', claimSchema);

/**
 * One Idempotency-Key of link creation, per merchant (src/payments/idempotency.ts); kept 24 h
 * (checked on read: no TTL indexes on FerretDB).
 */
export interface LinkIdempotencyRecord {
  /** `${merchantId}:${key}` */
  _id: string;
  requestHash: string;
  /** 'pending': how records stored before the shared module said 'in_progress'. */
  state: KeyState | 'pending';
  linkId: number | null;
  createdAt: Date;
}

const idempotencySchema = new Schema<LinkIdempotencyRecord>(
  {
    _id: { type: String },
    requestHash: { type: String, required: true },
    state: { type: String, enum: ['in_progress', 'reconciling', 'done', 'pending'], default: 'in_progress' },
    linkId: { type: Number, default: null },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'payment_link_idempotency' },
);

export const LinkIdempotencyModel = mongoose.model<LinkIdempotencyRecord>('LinkIdempotency', idempotencySchema);

/**
 * One PIX QR code of a link: `_id` `<link id>.<n>`, n counting the link's QR codes from 1. A new one is
 * made only once the one before has expired, and its insert under that unique id is the claim: of
 * payers asking at once, one creates the charge and the others are shown it. The charge itself is an
 * online PIX sale of the link's merchant (`saleId`), so the acquirer's notices, the PIX sweeps and
 * the sales API follow it as any PIX sale.
 */
export interface LinkPixCharge {
  _id: string;
  linkId: number;
  seq: number;
  /** creating: the claim, before the acquirer answered; waiting: the payer may pay; then one of the ends. */
  /** paid_twice: paid after the link already was; returned once its refund was asked for (src/refunds). */
  state: 'creating' | 'waiting' | 'paid' | 'expired' | 'failed' | 'paid_twice' | 'returned';
  saleId: number | null;
  qrCode: string;
  expiresAt: Date | null;
  createdAt: Date;
  settledAt: Date | null;
}

const pixChargeSchema = new Schema<LinkPixCharge>(
  {
    _id: { type: String },
    linkId: { type: Number, required: true },
    seq: { type: Number, required: true },
    state: { type: String, required: true },
    saleId: { type: Number, default: null },
    qrCode: { type: String, default: '' },
    expiresAt: { type: Date, default: null },
    createdAt: { type: Date, required: true },
    settledAt: { type: Date, default: null },
  },
  { versionKey: false, collection: 'payment_link_pix' },
);
// The link's newest QR code; the link of a PIX sale (its notice); the ones paid after the link was.
pixChargeSchema.index({ linkId: 1, seq: -1 });
pixChargeSchema.index({ saleId: 1 });
pixChargeSchema.index({ state: 1 });

export const LinkPixChargeModel = mongoose.model<LinkPixCharge>('LinkPixCharge', pixChargeSchema);
