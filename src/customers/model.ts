/**
 * A merchant's customers (the payers it sells to more than once) and their saved cards. A saved card keeps what the
 * acquirer needs to charge it again (its token, sealed: src/cards/sealed-tokens.ts) and what a person needs to tell it
 * apart (brand, last four digits, expiry, holder); never the number or the CVV.
 */
import mongoose, { Schema } from 'mongoose';

export interface Customer {
  /** cus_<24 hex>. */
  _id: string;
  merchantId: number;
  name: string;
  /** Lower-cased; searched by equality. */
  email: string | null;
  /** CPF (11 digits) or CNPJ (14 characters), without punctuation; searched by equality. */
  document: string | null;
  documentType: 'CPF' | 'CNPJ' | null;
  /** E.164. */
  phone: string | null;
  metadata: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

const customerSchema = new Schema<Customer>(
  {
    _id: { type: String },
    merchantId: { type: Number, required: true },
    name: { type: String, required: true },
    email: { type: String, default: null },
    document: { type: String, default: null },
    documentType: { type: String, default: null },
    phone: { type: String, default: null },
    metadata: { type: Schema.Types.Mixed, default: {} },
  },
  // minimize off: an empty metadata object is stored as {} (what the API answers), not dropped.
  { timestamps: true, versionKey: false, minimize: false, collection: 'customers' },
);
// The list, newest first, and its cursor (createdAt, then _id).
customerSchema.index({ merchantId: 1, createdAt: -1, _id: -1 });
// Searches by equality: FerretDB pushes equalities down to the companion index of each field.
customerSchema.index({ merchantId: 1, email: 1 });
customerSchema.index({ merchantId: 1, document: 1 });

export const CustomerModel = mongoose.model<Customer>('Customer', customerSchema);

export const CARD_CHECK_STATUSES = ['passed', 'skipped'] as const;
export type CardCheckStatus = (typeof CARD_CHECK_STATUSES)[number];

/** How the card was checked when it was saved. */
export interface CardCheck {
  /** passed: Zero Auth said the card is valid; skipped: the acquirer does not run Zero Auth for its brand. */
  status: CardCheckStatus;
  /** Why it was skipped, in words; null when passed. */
  reason: string | null;
  /** The issuer's id of the Zero Auth, sent on the card's later merchant-initiated charges; null when skipped. */
  issuerTransactionId: string | null;
  checkedAt: Date;
}

/**
 * A saved card. `_id` is `<customer id>:<fingerprint>`: one card per customer and card (number and expiry), and the
 * insert of that `_id` is the claim (src/db/claims.ts) under which one request checks and tokenises it while a twin
 * request waits for its outcome. `state` is `checking` while that runs (the card is not shown), then `saved`.
 */
export interface CustomerCard {
  _id: string;
  /** card_<24 hex>: the card's id in the API. */
  publicId: string;
  merchantId: number;
  customerId: string;
  state: 'checking' | 'saved';
  /** The claim's holder token while checking (src/db/claims.ts); the card's holder name is cardHolder. */
  holder?: string | null;
  /** When the check started (the claim's lease runs from it). */
  claimedAt: Date;
  /** The fingerprint of number and expiry under CARD_FINGERPRINT_KEY (savedCardFingerprint). */
  fingerprint: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  cardHolder: string;
  /** The acquirer's CardToken, sealed (src/cards/sealed-tokens.ts, bound to `_id`); null while checking. */
  sealedToken: string | null;
  check: CardCheck | null;
  /**
   * What charges this card on its own, e.g. "subscription 42" (card-uses.ts): a card in use is not deleted (409).
   * Kept on the card so that its deletion and a new use, both single-document writes, cannot both succeed.
   */
  usedBy: string[];
  createdAt: Date;
  updatedAt: Date;
}

const cardCheckSchema = new Schema<CardCheck>(
  {
    status: { type: String, enum: CARD_CHECK_STATUSES, required: true },
    reason: { type: String, default: null },
    issuerTransactionId: { type: String, default: null },
    checkedAt: { type: Date, required: true },
  },
  { _id: false },
);

const customerCardSchema = new Schema<CustomerCard>(
  {
    _id: { type: String },
    publicId: { type: String, required: true },
    merchantId: { type: Number, required: true },
    customerId: { type: String, required: true },
    state: { type: String, enum: ['checking', 'saved'], required: true },
    holder: { type: String, default: null },
    claimedAt: { type: Date, required: true },
    fingerprint: { type: String, required: true },
    brand: { type: String, required: true },
    last4: { type: String, required: true },
    expMonth: { type: Number, required: true },
    expYear: { type: Number, required: true },
    cardHolder: { type: String, required: true },
    sealedToken: { type: String, default: null },
    check: { type: cardCheckSchema, default: null },
    usedBy: { type: [String], default: [] },
  },
  { timestamps: true, versionKey: false, collection: 'customer_cards' },
);
// A card is read by its API id; unique, so no two cards ever answer to one id.
customerCardSchema.index({ publicId: 1 }, { unique: true });
// A customer's cards: its list, and what its deletion forgets.
customerCardSchema.index({ customerId: 1 });

export const CustomerCardModel = mongoose.model<CustomerCard>('CustomerCard', customerCardSchema);
