/**
 * What the card/PIX client (client.ts) takes and returns: the acquirer's status values and our
 * shapes of its requests and answers, and where its notifications reach us.
 */

/** The acquirer's Payment.Status values. */
export const AcquirerStatus = {
  NotFinished: 0,
  Authorized: 1,
  PaymentConfirmed: 2,
  Denied: 3,
  Voided: 10,
  Refunded: 11,
  Pending: 12,
  Aborted: 13,
  Scheduled: 20,
} as const;

export type AcquirerCardBrand =
  'Visa' | 'Master' | 'Amex' | 'Elo' | 'Aura' | 'JCB' | 'Diners' | 'Discover' | 'Hipercard';

export interface AcquirerCustomer {
  name: string;
  identity?: string;
  identityType?: 'CPF' | 'CNPJ';
}

export interface ClearCardData {
  number: string;
  holder: string;
  expMonth: number;
  expYear: number;
  cvv?: string;
  brand: string;
}

export interface TokenCardData {
  cardToken: string;
  brand: string;
  cvv?: string;
}

export interface CardSaleRequest {
  /** The caller's idempotency key; the RequestId sent to the acquirer is derived from it. */
  idempotencyKey: string;
  /** Alphanumeric, at most 50 characters; unique per sale on our side. */
  merchantOrderId: string;
  amountCents: number;
  installments: number;
  /** true = authorize and capture at once; false = authorize only (capture later). */
  capture: boolean;
  recurrent?: boolean;
  /** Ask the acquirer for a CardToken to charge this card again later. */
  saveCard?: boolean;
  customer: AcquirerCustomer;
  card: ClearCardData | TokenCardData;
  softDescriptor?: string;
}

export interface CardSaleResult {
  paymentId: string;
  merchantOrderId: string;
  /** Acquirer Payment.Status (see AcquirerStatus). */
  status: number;
  /** Authorized (1) or captured (2). A denial is approved false with the ReturnCode. */
  approved: boolean;
  returnCode: string;
  returnMessage: string;
  amountCents: number;
  capturedAmountCents?: number;
  tid?: string;
  proofOfSale?: string;
  authorizationCode?: string;
  cardToken?: string;
}

export interface PixChargeRequest {
  idempotencyKey: string;
  merchantOrderId: string;
  amountCents: number;
  customer: AcquirerCustomer;
  /** QR code lifetime in seconds (max 86400). Default: the acquirer's (2 h in the sandbox). */
  expiresInSeconds?: number;
}

export interface PixChargeResult {
  paymentId: string;
  merchantOrderId: string;
  status: number;
  returnCode: string;
  returnMessage: string;
  amountCents: number;
  /** EMV copy-and-paste code. */
  qrCodeString: string;
  qrCodeBase64Image?: string;
  expiresAt?: string;
  proofOfSale?: string;
  acquirerTransactionId?: string;
}

/** A sale as the query host describes it (card or PIX). */
export interface AcquirerSale {
  paymentId: string;
  merchantOrderId: string;
  type: 'CreditCard' | 'DebitCard' | 'Pix';
  status: number;
  amountCents: number;
  capturedAmountCents: number;
  voidedAmountCents: number;
  returnCode: string;
  returnMessage: string;
  tid?: string;
  proofOfSale?: string;
  authorizationCode?: string;
  cardToken?: string;
  /** Brand and the number as the acquirer masks it (first six and last four digits shown). */
  card?: { brand: string; maskedNumber: string };
  qrCodeString?: string;
  expiresAt?: string;
  receivedDate?: string;
  capturedDate?: string;
  voidedDate?: string;
  /** The acquirer's answer as received (the card is masked by the acquirer). */
  raw: Record<string, unknown>;
}

export interface PaymentUpdateResult {
  status: number;
  returnCode: string;
  returnMessage: string;
  reasonCode?: number;
  reasonMessage?: string;
  tid?: string;
  proofOfSale?: string;
  authorizationCode?: string;
}

/**
 * Card/PIX notifications: the acquirer POSTs {PaymentId, ChangeType} to one URL agreed at
 * onboarding. Ours is PUBLIC_BASE_URL + PAYMENT_NOTIFICATION_PATH, signed in
 * NOTIFICATION_SIGNATURE_HEADER as `sha256=<hex HMAC-SHA256 of the raw body>` keyed with
 * ACQUIRER_NOTIFICATION_SECRET.
 */
export const PAYMENT_NOTIFICATION_PATH = '/api/v1/online/sales/notifications/';
export const NOTIFICATION_SIGNATURE_HEADER = 'X-Acquirer-Signature';
