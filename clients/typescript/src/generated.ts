/**
 * GENERATED from the Swagger document (version 1.0) by clients/typescript/scripts/generate.ts
 * (npm run client:generate). Do not edit: regenerate.
 */
/* eslint-disable */
import { ApiGroup, type OperationSpec, type RequestOptions, type Transport } from './transport';
import { CardEncryption } from './cards';

// Definitions of the document
export interface ErrorDetail {
  detail: string;
}

/**
 * Field-level validation errors: field name to the list of its messages. Several fields may be
 * reported at once. A request that cannot be read at all (malformed JSON, an unsupported body
 * encoding, a NUL character in the path or query string) is answered {"detail": "..."} instead.
 */
export interface FieldErrors {
  /** Only when the request could not be read; then the one key */
  detail?: string;
  [key: string]: unknown;
}

export interface Liveness {
  status: 'ok';
}

export interface Readiness {
  status: 'ready' | 'unavailable';
  /** MongoDB answered a ping */
  mongodb: boolean;
  /** Redis answered a ping */
  redis: boolean;
}

/**
 * The acquirer's error body passed through as received ({code, message}), or our own refusal before
 * any acquirer call ({detail})
 */
export interface AcquirerError {
  code?: string;
  message?: string;
  detail?: string;
}

/**
 * One of: our validation, a map of each bad field (or non_field_errors) to its messages, checked
 * before any acquirer call; the acquirer's business error passed through as received ({code,
 * message}); or {detail} when the request could not be read (a body that is not JSON)
 */
export interface ChargebackBadRequest {
  code?: string;
  message?: string;
  detail?: string;
  [key: string]: unknown;
}

/**
 * Filters forwarded to the acquirer. Only these fields are accepted: any other key is a 400 naming it
 * (nothing else is forwarded). For a merchant credential, establishmentNumber must list only its own
 * establishments; when absent it is set to all of them.
 */
export interface ChargebackConsultFilter {
  /**
   * yyyy-MM-dd; required by the acquirer for DONE; span <= 180 days
   *
   * Format: date.
   */
  startNotificationPeriod?: string;
  /** Format: date. */
  endNotificationPeriod?: string;
  /** 1 Visa, 2 Mastercard, 3 Amex, 7 Elo, 40 Hipercard */
  cardAssociationCode?: number;
  process?: Array<string>;
  reason?: Array<string>;
  establishmentNumber?: Array<number>;
  /**
   * Case number at the acquirer
   *
   * Format: int64.
   */
  idCase?: number;
  tid?: string;
  nsu?: string;
}

/** A chargeback as the acquirer describes it (consult item; also the new-chargeback notice) */
export interface ChargebackItem {
  /**
   * Case number at the acquirer
   *
   * Format: int64.
   */
  idCase?: number;
  /**
   * Chargeback number at the acquirer
   *
   * Format: int64.
   */
  idChargeback?: number;
  /** Format: int64. */
  establishmentNumber?: number;
  process?: string;
  /** Format: date. */
  treatmentDeadline?: string | null;
  remainingDaysToTreat?: number;
  /** Decimal reais (the acquirer's unit for chargebacks) */
  transactionAmount?: number;
  actionTakenCode?: string;
  transactionDetails?: {
    [key: string]: unknown;
  };
  chargebackDetails?: {
    reasonCode?: string;
    reasonDescription?: string;
    /** Format: date. */
    receptionDate?: string | null;
    issuerDocument?: Array<IssuerDocument>;
  };
  lifecycle?: {
    action?: string;
    actionDate?: string;
  };
}

/** The acquirer's pagination envelope, as received */
export interface ChargebackPage {
  content?: Array<ChargebackItem>;
  pageable?: {
    [key: string]: unknown;
  };
  last?: boolean;
  totalElements?: number;
  totalPages?: number;
  number?: number;
  first?: boolean;
  numberOfElements?: number;
  size?: number;
  empty?: boolean;
}

/**
 * Only these fields are forwarded to the acquirer; any other key (here or in an item) is a 400 naming
 * it.
 */
export interface AcceptRequest {
  updateChargeback: Array<{
    /** Format: int64. */
    establishmentNumber: number;
    /**
     * Chargeback number at the acquirer
     *
     * Format: int64.
     */
    idChargeback: number;
  }>;
  /** E-mail of the person handling the dispute */
  userName?: string;
}

export type AcceptReply = Array<{
  /** Format: int64. */
  establishmentNumber?: number;
  /**
   * Chargeback number at the acquirer
   *
   * Format: int64.
   */
  idChargeback?: number;
  code?: string;
  message?: string;
}>;

/** Only these fields are forwarded to the acquirer; any other key is a 400 naming it. */
export interface RefuseRequest {
  /** Format: int64. */
  establishmentNumber: number;
  /**
   * Chargeback number at the acquirer
   *
   * Format: int64.
   */
  idChargeback: number;
  /**
   * Case number of the chargeback (the evidence file is named after it)
   *
   * Format: int64.
   */
  IdCase: number;
  /** Justification; the acquirer allows at most 100 characters (its code 905) */
  reasonToRefuse?: string;
  /**
   * The evidence document in base64: TIFF, PDF or JPEG by its content, at most 8388608 bytes (8 MB)
   * decoded, at most 10 pages (PDF page objects, TIFF directories).
   *
   * Format: byte.
   */
  file: string;
  /**
   * The document name: IdCase followed by the extension (.tif, .tiff, .pdf, .jpeg, any case). The part
   * before the extension must equal IdCase, and the extension must agree with the content.
   */
  fileName: string;
  userName?: string;
}

export interface RefuseReply {
  code?: string;
  message?: string;
}

export interface LifecycleEntry {
  action?: string;
  actionDate?: string;
  message?: string;
  /** Format: date. */
  ActionCicleDate?: string;
  /** Format: date. */
  executionDate?: string;
  /** Format: int64. */
  establishmentNumber?: number;
  /**
   * Case number at the acquirer
   *
   * Format: int64.
   */
  caseId?: number;
}

export interface IssuerDocument {
  idDocumento?: number;
  nameFile?: string;
}

export interface SupportDocument {
  dateInclusion?: string;
  nameFile?: string;
  codigo?: number;
  mensagem?: string;
  /** Format: byte. */
  file?: string;
}

export interface PendingChargebacks {
  results: Array<PendingChargeback>;
}

/** A pending chargeback: the consult item of its notice, as the acquirer sent it, and its status */
export interface PendingChargeback {
  /**
   * Case number at the acquirer
   *
   * Format: int64.
   */
  idCase: number;
  /**
   * Chargeback number at the acquirer
   *
   * Format: int64.
   */
  idChargeback: number;
  /** Format: int64. */
  establishmentNumber: number;
  process?: string;
  /** Format: date. */
  treatmentDeadline?: string | null;
  remainingDaysToTreat?: number;
  /** Decimal reais (the acquirer's unit for chargebacks) */
  transactionAmount?: number;
  actionTakenCode?: string;
  transactionDetails?: {
    [key: string]: unknown;
  };
  chargebackDetails?: {
    reasonCode?: string;
    reasonDescription?: string;
    /** Format: date. */
    receptionDate?: string | null;
    issuerDocument?: Array<IssuerDocument>;
  };
  lifecycle?: {
    action?: string;
    actionDate?: string;
  };
  status: 'PENDING';
}

export interface PendingCount {
  count: number;
}

/**
 * A handled chargeback: the fields of its notice (none but its ids when it was accepted before its
 * notice came) plus how it ended
 */
export interface ChargebackHistoryItem {
  /**
   * Case number; null when accepted before its notice came
   *
   * Format: int64.
   */
  idCase: number | null;
  /**
   * Chargeback number at the acquirer
   *
   * Format: int64.
   */
  idChargeback: number;
  /** Format: int64. */
  establishmentNumber: number;
  process?: string;
  /** Format: date. */
  treatmentDeadline?: string | null;
  remainingDaysToTreat?: number;
  /** Decimal reais (the acquirer's unit for chargebacks) */
  transactionAmount?: number;
  actionTakenCode?: string;
  transactionDetails?: {
    [key: string]: unknown;
  };
  chargebackDetails?: {
    reasonCode?: string;
    reasonDescription?: string;
    /** Format: date. */
    receptionDate?: string | null;
    issuerDocument?: Array<IssuerDocument>;
  };
  /** ACCEPTED: the merchant accepted it; WIN/LOSS: final lifecycle step of a refused one */
  outcome: 'ACCEPTED' | 'WIN' | 'LOSS';
  /**
   * Acceptance time, or the date of the final lifecycle step (midnight UTC)
   *
   * Format: date-time.
   */
  outcomeDate: string;
  /** How it was answered through this service; null when answered elsewhere */
  handling: 'ACCEPTED' | 'REFUSED' | null;
  /** Format: date-time. */
  acceptedAt?: string | null;
  /** Format: date-time. */
  refusedAt?: string | null;
  lifecycle: Array<{
    action?: string;
    actionDate?: string;
  }>;
}

export interface ChargebackHistory {
  results: Array<ChargebackHistoryItem>;
}

export interface LifecycleNotice {
  /** Format: int64. */
  establishmentNumber: number;
  /**
   * Case number at the acquirer
   *
   * Format: int64.
   */
  caseId: number;
  /** Lifecycle text; "A favor do Estabelecimento" (win) and "A favor do Emissor" (loss) are final */
  message: string;
  /** Format: date. */
  executionDate?: string;
  /** Format: date. */
  ActionCicleDate: string;
}

export interface NoticeReceipt {
  received?: boolean;
  duplicate?: boolean;
}

export interface SubscriptionCreate {
  /** Amount of each charge, in cents. A number with a fraction gives "A valid integer is required." */
  value: number;
  /**
   * Time between due dates. Months count from the first due date, clamped to the month end (Jan 31 then
   * Feb 28, Mar 31)
   */
  billingCycle: 'weekly' | 'monthly' | 'bimonthly' | 'quarterly' | 'semiannual' | 'annual';
  /**
   * Due date of the first charge (UTC day); today or later
   *
   * Format: date.
   */
  firstDueDate: string;
  /**
   * The card encrypted as in checkout: base64 of the RSA (PKCS#1 v1.5) encryption, with the service
   * public key, of the JSON {"number","holder","expMonth","expYear","cvv"}. It is turned into an
   * acquirer card token at once; only the token, brand, BIN, last four, holder and expiry are kept
   */
  encryptedCard: string;
  /** Retry soft-declined charges on the retry schedule. false: each charge is sent once */
  retry?: boolean;
  /**
   * Optional last day a charge may fall due; the subscription expires after it
   *
   * Format: date.
   */
  endDate?: string | null;
  /** Optional number of cycles (charges); the subscription expires after the last */
  maxCycles?: number | null;
  customer?: {
    /** Customer name sent to the acquirer; default: the card holder */
    name?: string;
    /** CPF or CNPJ, digits only */
    identity?: string;
  };
  description?: string | null;
}

export interface Subscription {
  /** Subscription id */
  id: number;
  /**
   * active: charged on each due date. cancelled: by the merchant; no new charge and no retry. expired:
   * the last cycle (endDate or maxCycles) was charged and no charge is pending or awaiting a retry
   */
  status: 'active' | 'cancelled' | 'expired';
  /** Cents per charge */
  value: number;
  /** value in currency units (reais) */
  amount: number;
  billingCycle: 'weekly' | 'monthly' | 'bimonthly' | 'quarterly' | 'semiannual' | 'annual';
  /**
   * First due date
   *
   * Format: date.
   */
  firstDueDate: string;
  /**
   * Due date of the next charge to be created; null when none is left or the subscription is not active
   *
   * Format: date.
   */
  nextDueDate: string | null;
  /**
   * Last day a charge may fall due
   *
   * Format: date.
   */
  endDate: string | null;
  maxCycles: number | null;
  retry: boolean;
  /** What is kept of the card; the acquirer card token is never shown */
  card: {
    brand?: string;
    bin?: string;
    last4?: string;
    holder?: string;
    expMonth?: number;
    expYear?: number;
  };
  customer: {
    name?: string;
    identity?: string | null;
  };
  description: string | null;
  /** Format: date-time. */
  cancelledAt: string | null;
  /**
   * ISO 8601, UTC
   *
   * Format: date-time.
   */
  createdAt: string;
  /**
   * ISO 8601, UTC
   *
   * Format: date-time.
   */
  updatedAt: string;
}

export interface SubscriptionEnvelope {
  status: 'success';
  data: Subscription;
}

/** To know whether a charge was denied, use status, not denialCode. */
export interface SubscriptionCharge {
  /** Charge id */
  id: number;
  /** Owning subscription */
  subscriptionId: number;
  /** 0 PENDING (created, first send under way), 1 CONFIRMED, 2 DENIED, 3 REFUNDED */
  status: 0 | 1 | 2 | 3;
  /** Amount of this charge in cents: the amount charged at the acquirer, the same on every retry */
  value: number;
  /** value in currency units (value / 100) */
  amount: number;
  /**
   * Due date of the cycle this charge bills
   *
   * Format: date.
   */
  dueDate: string;
  /**
   * PaymentId of the last sale at the acquirer; empty string until the acquirer answers with one (and
   * after a communication failure)
   */
  acquirerPaymentId: string;
  /**
   * Acquirer return code of the denied attempt; empty string unless status is 2. transport_error means a
   * communication failure with the acquirer (retried); subscription_cancelled means the subscription was
   * cancelled after the charge was created and before it was sent (never sent, never retried). Hard
   * declines, never retried: 57, 78, 41, 43, 14, 54, 62, 59; any other code is retried
   */
  denialCode: string;
  /** Acquirer message of the denied attempt; empty string unless status is 2 */
  denialMessage: string;
  /**
   * Times the charge was sent to the acquirer, retries included (1 while the first send is under way).
   * Always 1 when the subscription has retry off
   */
  attempts: number;
  /**
   * Day of the next retry (YYYY-MM-DD). Set only on a denied charge with a retry scheduled; null
   * otherwise: final denial (hard decline or retries used up), retry off, or a cancelled or expired
   * subscription. Status 2 with nextRetryAt null is final
   *
   * Format: date.
   */
  nextRetryAt: string | null;
  /** Financial transaction created on confirmation (kept after a refund); null when none */
  paymentTransactionId: number | null;
  /**
   * ISO 8601, UTC
   *
   * Format: date-time.
   */
  createdAt: string;
  /**
   * ISO 8601, UTC
   *
   * Format: date-time.
   */
  updatedAt: string;
}

export interface SubscriptionChargeList {
  status: 'success';
  /** Every charge of the subscription, oldest due date first */
  data: Array<SubscriptionCharge>;
}

export interface SubscriptionChargeEnvelope {
  status: 'success';
  data: SubscriptionCharge;
}

export interface TokenRequest {
  /** The complete e-mail of the user (case-insensitive); the short login name is not accepted */
  username: string;
  /** Format: password. */
  password: string;
}

export interface TokenPair {
  /** Access token (JWT), sent as Authorization: Bearer <access> */
  access: string;
  /** Refresh token (JWT). Not rotated by refresh: it stays valid until it expires */
  refresh: string;
}

export interface RefreshRequest {
  /** The refresh token of a token pair */
  refresh: string;
}

export interface AccessToken {
  /** A new access token (JWT) */
  access: string;
}

/**
 * The merchant bound to the credential. Merchant fields are null for a staff user and for the system
 * token without X-Merchant-Id.
 */
export interface Me {
  /** Merchant id */
  id: number | null;
  company_name: string | null;
  /**
   * Short login name (not the e-mail): the user's own for a JWT; the merchant's first user for a
   * merchant token or the system token naming a merchant; null for the system token alone
   */
  username: string | null;
  /** E-mail of the same user */
  email: string | null;
  role: 'merchant' | 'staff' | 'system';
  /** Kind of credential the request carried */
  credential: 'jwt' | 'merchant_token' | 'system';
  /** Whether cancel-capture may refund a CONFIRMED sale */
  allow_void_on_confirmed: boolean | null;
  /** Acquirer establishment numbers (EC) of the merchant */
  establishment_numbers: Array<string>;
}

export interface CommercialContact {
  /** Contact id (pk) */
  id: number;
  /** Full name; leading and trailing spaces are trimmed */
  name: string;
  /**
   * E-mail, stored lower-cased. Not unique: a shared team mailbox may serve several contacts
   *
   * Format: email.
   */
  email: string;
  /**
   * Brazilian phone number, as Brazilians type it: (11) 98765-4321, 11987654321, +55 11 98765-4321, 011
   * 98765 4321 (spaces, dots, hyphens, parentheses allowed); stored and returned as E.164. Mobile: 9
   * digits starting with 9; landline: 8 digits starting with 2 to 5. null clears it
   */
  phone: string | null;
  /** Role or job title; null clears it */
  title: string | null;
  /** Whether the contact is currently in charge; inactive contacts stay listed and linked */
  active: boolean;
  /**
   * Ids of the merchants this contact serves. Every id must be an existing merchant (400 names each one
   * that is not); repeated ids are kept once. On PATCH the list replaces the current one
   */
  merchant_ids: Array<number>;
  /**
   * ISO 8601, UTC
   *
   * Format: date-time.
   */
  created_at: string;
  /**
   * ISO 8601, UTC
   *
   * Format: date-time.
   */
  updated_at: string;
}

export interface CommercialContactCreate {
  /** Full name; leading and trailing spaces are trimmed */
  name: string;
  /**
   * E-mail, stored lower-cased. Not unique: a shared team mailbox may serve several contacts
   *
   * Format: email.
   */
  email: string;
  /**
   * Brazilian phone number, as Brazilians type it: (11) 98765-4321, 11987654321, +55 11 98765-4321, 011
   * 98765 4321 (spaces, dots, hyphens, parentheses allowed); stored and returned as E.164. Mobile: 9
   * digits starting with 9; landline: 8 digits starting with 2 to 5. null clears it
   */
  phone?: string | null;
  /** Role or job title; null clears it */
  title?: string | null;
  /** Whether the contact is currently in charge; inactive contacts stay listed and linked */
  active?: boolean;
  /**
   * Ids of the merchants this contact serves. Every id must be an existing merchant (400 names each one
   * that is not); repeated ids are kept once. On PATCH the list replaces the current one
   */
  merchant_ids?: Array<number>;
}

/**
 * Any subset of the contact fields; an absent field keeps its current value. An empty object changes
 * nothing
 */
export interface CommercialContactPatch {
  /** Full name; leading and trailing spaces are trimmed */
  name?: string;
  /**
   * E-mail, stored lower-cased. Not unique: a shared team mailbox may serve several contacts
   *
   * Format: email.
   */
  email?: string;
  /**
   * Brazilian phone number, as Brazilians type it: (11) 98765-4321, 11987654321, +55 11 98765-4321, 011
   * 98765 4321 (spaces, dots, hyphens, parentheses allowed); stored and returned as E.164. Mobile: 9
   * digits starting with 9; landline: 8 digits starting with 2 to 5. null clears it
   */
  phone?: string | null;
  /** Role or job title; null clears it */
  title?: string | null;
  active?: boolean;
  /**
   * Ids of the merchants this contact serves. Every id must be an existing merchant (400 names each one
   * that is not); repeated ids are kept once. On PATCH the list replaces the current one
   */
  merchant_ids?: Array<number>;
}

/** The single global CEO contact; it belongs to no merchant and no portfolio */
export interface GlobalCeo {
  /** Full name; leading and trailing spaces are trimmed */
  name: string;
  /**
   * E-mail, stored lower-cased. Not unique: a shared team mailbox may serve several contacts
   *
   * Format: email.
   */
  email: string;
  /**
   * Brazilian phone number, as Brazilians type it: (11) 98765-4321, 11987654321, +55 11 98765-4321, 011
   * 98765 4321 (spaces, dots, hyphens, parentheses allowed); stored and returned as E.164. Mobile: 9
   * digits starting with 9; landline: 8 digits starting with 2 to 5. null clears it
   */
  phone: string | null;
  /** Role or job title; null clears it */
  title: string | null;
  /**
   * When the CEO was first registered (ISO 8601, UTC)
   *
   * Format: date-time.
   */
  created_at: string;
  /**
   * Last PUT (ISO 8601, UTC)
   *
   * Format: date-time.
   */
  updated_at: string;
}

/** The whole CEO contact: it replaces the current one; an absent optional field becomes null */
export interface GlobalCeoPut {
  /** Full name; leading and trailing spaces are trimmed */
  name: string;
  /**
   * E-mail, stored lower-cased. Not unique: a shared team mailbox may serve several contacts
   *
   * Format: email.
   */
  email: string;
  /**
   * Brazilian phone number, as Brazilians type it: (11) 98765-4321, 11987654321, +55 11 98765-4321, 011
   * 98765 4321 (spaces, dots, hyphens, parentheses allowed); stored and returned as E.164. Mobile: 9
   * digits starting with 9; landline: 8 digits starting with 2 to 5. null clears it
   */
  phone?: string | null;
  /** Role or job title; null clears it */
  title?: string | null;
}

export interface PreCaptureRequest {
  payment_method: 'card' | 'pix';
  /** Amount in cents. A fraction gives {"value": ["A valid integer is required."]} */
  value: number;
  /** Card only; a PIX sale has 1 */
  installments?: number;
  /**
   * Card sale: base64 of the JSON {"number","holder","expMonth","expYear","cvv"} encrypted with the
   * service RSA public key, PKCS#1 v1.5 padding (as in checkout). Decrypted in memory only; the number
   * and CVV are never stored or logged (brand, BIN and last four are kept).
   */
  encrypted_card?: string;
  /**
   * Card sale instead of encrypted_card: a card_token this merchant got from an earlier sale with
   * save_card
   */
  card_token?: string;
  /** Card sale with encrypted_card: return a card_token for later sales */
  save_card?: boolean;
  payer: {
    name: string;
    /** CPF or CNPJ with valid check digits (punctuation allowed). Required for PIX. */
    document?: string;
  };
  /** The merchant's own order reference, echoed back */
  order_reference?: string;
  /** PIX only: seconds the QR code stays payable. Default: the acquirer default (2 hours). */
  pix_expires_in?: number;
}

export interface OnlineSale {
  /** Sale id, used by capture, cancel-capture and pix/status */
  id: number;
  /**
   * true when the acquirer accepted the sale: the card was authorized (sale_status PRE_CAPTURED) or the
   * PIX charge was created (PENDING, awaiting the payer). false for a denial (sale_status DENIED, with
   * denial_code and denial_message). HTTP 200 alone is not approval.
   */
  approved: boolean;
  /** See the README, Online sales, for the states and transitions */
  sale_status:
    | 'PROCESSING'
    | 'PRE_CAPTURED'
    | 'CONFIRMED'
    | 'CANCELLED'
    | 'REFUNDED'
    | 'DENIED'
    | 'FAILED'
    | 'PENDING'
    | 'EXPIRED';
  payment_method: 'card' | 'pix';
  /** Amount in cents */
  value: number;
  installments?: number;
  /** The merchant's order reference, as sent */
  order_reference?: string | null;
  /** What is kept of the card: brand, BIN, last four. Null for PIX. */
  card?: {
    brand?: string;
    bin?: string;
    last4?: string;
  } | null;
  /**
   * Only when save_card was true and the card was approved: charge the card again with card_token (this
   * merchant only). Shown once.
   */
  card_token?: string;
  /**
   * In an Idempotency-Key replay of an answer that carried card_token: the token was issued (it is shown
   * only once and not repeated)
   */
  card_token_issued?: boolean;
  pix?: {
    /** PIX copy-and-paste (EMV) code for the payer */
    qr_code?: string;
    /** Format: date-time. */
    expires_at?: string | null;
    /** Format: date-time. */
    paid_at?: string | null;
  } | null;
  /** Acquirer return code of a denial (e.g. 05, 51, 57); null otherwise */
  denial_code?: string | null;
  denial_message?: string | null;
  acquirer?: {
    payment_id?: string | null;
    tid?: string | null;
    authorization_code?: string | null;
    /** NSU */
    proof_of_sale?: string | null;
  };
  /** The outcome of an acquirer call on this sale is being confirmed */
  reconciling?: boolean;
  /** Format: date-time. */
  captured_at?: string | null;
  /** Format: date-time. */
  cancelled_at?: string | null;
  /** Format: date-time. */
  refunded_at?: string | null;
  /** Format: date-time. */
  created_at?: string;
  /** Format: date-time. */
  updated_at?: string;
}

export interface OnlineSaleResponse {
  status: 'success';
  data: OnlineSale;
}

export interface PixStatusResponse {
  status: 'success';
  data: {
    id?: number;
    /** PENDING awaiting the payer; CONFIRMED paid; EXPIRED not paid in time */
    sale_status?: 'PROCESSING' | 'PENDING' | 'CONFIRMED' | 'EXPIRED' | 'REFUNDED' | 'FAILED';
    paid?: boolean;
    /** Cents */
    value?: number;
    /** Copy-and-paste code */
    qr_code?: string | null;
    /** Format: date-time. */
    expires_at?: string | null;
    /** Format: date-time. */
    paid_at?: string | null;
    reconciling?: boolean;
    /** Format: date-time. */
    updated_at?: string;
  };
}

export interface SaleGatewayError {
  detail: string;
  sale_id?: number;
  sale_status?:
    | 'PROCESSING'
    | 'PRE_CAPTURED'
    | 'CONFIRMED'
    | 'CANCELLED'
    | 'REFUNDED'
    | 'DENIED'
    | 'FAILED'
    | 'PENDING'
    | 'EXPIRED';
  reconciling?: boolean;
}

export interface PaymentNotice {
  /** The acquirer PaymentId */
  PaymentId: string;
  /**
   * 1 status changed (applied: the sale is read from the acquirer and settled); other types are stored
   * and ignored
   */
  ChangeType: number;
  RecurrentPaymentId?: string;
}

export interface CardPublicKey {
  /**
   * Key id: the RFC 7638 JWK thumbprint (SHA-256, base64url) of the key. A new kid means the key was
   * rotated: fetch it again.
   */
  kid: string;
  /** Encrypt with RSA PKCS#1 v1.5 padding (not OAEP) */
  algorithm: 'RSAES-PKCS1-v1_5';
  /** Modulus length in bits */
  key_size: number;
  /** The RSA public key, PEM (SPKI, "BEGIN PUBLIC KEY") */
  public_key: string;
  /** During a rotation, the replaced key, still accepted until previous_accepted_until; else null */
  previous_kid: string | null;
  /**
   * When cards encrypted with the previous key stop being accepted; null when none is
   *
   * Format: date-time.
   */
  previous_accepted_until: string | null;
}

export interface PaymentLinkCreate {
  /** Amount in cents. A number with a fraction gives {"value": ["A valid integer is required."]} */
  value: number;
  /** Set from the credential; ignored if sent */
  merchant?: number;
  description?: string;
  /** Payer name pre-filled at checkout */
  payer_name?: string;
  /** Legacy alias of payer_name; payer_name wins when both are sent */
  merchant_name?: string;
  /** Payer CPF or CNPJ (check digits are verified at the checkout payer step) */
  document?: string;
  /**
   * Payer e-mail; never shown in responses
   *
   * Format: email.
   */
  email?: string;
  /**
   * Payer phone, Brazilian, as Brazilians type it: (11) 98765-4321, 11987654321, +55 11 98765-4321, 011
   * 98765 4321 (at most 20 characters as sent). Stored and answered as E.164 (+5511987654321); a number
   * that is not a Brazilian mobile or landline is a field error.
   */
  mobile?: string;
  number_of_installments?: number;
  /** 1 = 24 h, 2 = 48 h, 3 = 72 h after creation */
  link_exp_period?: 1 | 2 | 3;
  /**
   * Public HTTPS URL receiving signed events of this link (see the webhooks tag). Refused with
   * {"webhookUrl": ["Enter a safe public HTTPS URL"]} for http, credentials in the URL, localhost, names
   * resolving to any internal address, numeric IP forms of internal addresses, and unresolvable hosts.
   */
  webhookUrl?: string;
  /** Alias of webhookUrl */
  webhook_url?: string;
  /** Alias of webhookUrl */
  callbackUrl?: string;
  /** Alias of webhookUrl */
  callback_url?: string;
}

export interface PaymentLink {
  /** Keep it to follow the payment */
  id: number;
  /** 1 Pendente, 2 Pago, 3 Expirado (a pending link past expires_at) */
  status: 1 | 2 | 3;
  status_label: 'Pendente' | 'Pago' | 'Expirado';
  merchant_id: number;
  merchant_company_name: string;
  /** Cents */
  value: number;
  description: string;
  payer_name: string;
  /** Repeats payer_name (compatibility); not the merchant name */
  merchant_name: string;
  document: string;
  /** E.164 (+5511987654321), or empty when none was sent */
  mobile: string;
  link_exp_period: 1 | 2 | 3;
  number_of_installments: number;
  /** Format: uuid. */
  payment_link_guid: string;
  /**
   * The checkout page (step 1) under PUBLIC_BASE_URL: give this URL to the payer
   *
   * Format: uri.
   */
  payment_link_url: string;
  /**
   * Null until paid; ISO 8601 with offset once paid
   *
   * Format: date-time.
   */
  payment_date: string | null;
  /** Empty when the link has none */
  webhookUrl: string;
  /**
   * ISO 8601 with UTC offset (+00:00)
   *
   * Format: date-time.
   */
  created_at: string;
  /**
   * When the link stops being payable
   *
   * Format: date-time.
   */
  expires_at?: string;
}

export interface CheckoutLink {
  guid: string;
  /** 1 Pendente, 2 Pago, 3 Expirado */
  status: 1 | 2 | 3;
  statusLabel: string;
  paid: boolean;
  expired: boolean;
  /** Cents */
  amount: number;
  description?: string;
  merchantCompanyName: string;
  /** Installments of the charge, fixed by the link */
  installments: number;
  /** Format: date-time. */
  expiresAt: string;
  /** The payer name saved by the payer step (or pre-filled by the merchant) */
  payerName: string;
  /** The payer document MASKED (***.456.***-**); the full document is never returned */
  payerDocument?: string;
  /** A CPF/CNPJ with valid check digits is on file */
  payerDocumentSaved?: boolean;
  /** The address saved by the address step, or null */
  address?: {
    [key: string]: string;
  } | null;
  /** PEM RSA public key: encrypt the card JSON with it, RSAES-PKCS1-v1_5, base64 */
  publicKey: string;
  encryption?: 'RSAES-PKCS1-V1_5';
  /** Set once paid */
  receipt?: {
    /** Format: date-time. */
    paymentDate?: string;
    amount?: number;
    installments?: number;
    cardBrand?: string;
    cardLast4?: string;
    /**
     * The issuer's authorization code (6 characters), what the receipt shows; null on links paid before it
     * was kept
     */
    authorization?: string | null;
    /** The acquirer's transaction id (20 digits): the page shows it only where it fits on one line */
    tid?: string | null;
    merchantCompanyName?: string;
    description?: string;
  } | null;
}

export interface CheckoutPayer {
  payer_name: string;
  /** Alias of payer_name; payer_name wins */
  merchant_name?: string;
  /**
   * CPF (11 digits) or CNPJ (14 characters, the new alphanumeric form included), punctuation allowed;
   * check digits verified
   */
  document: string;
}

export interface CheckoutAddress {
  /** 8 digits, dash optional */
  cep: string;
  street?: string;
  number?: string;
  complement?: string;
  neighborhood?: string;
  city?: string;
  /** UF, e.g. SP */
  state?: string;
  reference?: string;
}

export interface CheckoutPay {
  /**
   * base64 of RSAES-PKCS1-v1_5(publicKey, UTF-8 JSON {"number","holder","expMonth","expYear","cvv"}).
   * Any decryption or parsing failure gives the same 400 {"encrypted_card": [...]}; a readable card with
   * a bad field names it: number (Luhn, brand), expiry, cvv (3 digits, 4 for Amex), holder.
   */
  encrypted_card: string;
}

export interface CheckoutPayResult {
  /** false: the card was denied; the link stays payable (status 1) and another card may be tried */
  approved: boolean;
  denial?: {
    /** The acquirer's ReturnCode, as the merchant's webhook carries it */
    code?: string;
    /** The acquirer's ReturnMessage (English), as the merchant's webhook carries it */
    message?: string;
    /**
     * What the payer reads: Portuguese, chosen by the return code (a generic text for unknown codes and
     * flagged cards)
     */
    payerMessage?: string;
  } | null;
  checkout: CheckoutLink;
}

export interface WebhookSecret {
  /** whsec_<base64 of 32 bytes>. Verify with any Standard Webhooks library (e.g. npm standardwebhooks). */
  secret: string;
  /** Format: date-time. */
  created_at: string;
  /** Format: date-time. */
  rotated_at?: string | null;
  /**
   * Until then the previous secret also signs: webhook-signature carries two space-separated v1
   * signatures
   *
   * Format: date-time.
   */
  previous_secret_valid_until?: string | null;
}

export interface WebhookAttempt {
  /** Format: date-time. */
  at?: string;
  trigger?: 'scheduled' | 'redelivery';
  /** Null when no HTTP answer came (timeout, refused connection, unsafe URL) */
  status_code?: number | null;
  duration_ms?: number;
  success?: boolean;
  error?: string | null;
}

export interface WebhookEvent {
  /** The webhook-id header */
  id?: string;
  type?: 'payment_link.paid' | 'payment_link.payment_denied';
  sequence?: number;
  url?: string;
  /** failed: every scheduled attempt failed; gone: the receiver answered 410 */
  state?: 'pending' | 'delivered' | 'failed' | 'gone';
  /** Format: date-time. */
  created_at?: string;
  /** Format: date-time. */
  delivered_at?: string | null;
  /** The exact JSON body sent */
  payload?: {
    [key: string]: unknown;
  };
  attempts?: Array<WebhookAttempt>;
}

// Types of the operations (inline bodies, queries, answers and header options)
export type GetSwaggerResponse = {
  [key: string]: unknown;
};

export interface ConsultChargebacksQuery {
  status: 'PENDING' | 'DONE';
  /** 0 is the first page */
  page?: number;
  pageSize?: number;
  orderBy?: 'receptionDate' | 'treatmentDeadline';
  Order?: 'asc' | 'desc';
}

export type GetChargebackLifecycleResponse = Array<LifecycleEntry>;

export type ListIssuerDocumentsResponse = Array<IssuerDocument>;

export type GetSupportDocumentResponse = Array<SupportDocument>;

export interface ListHandledChargebacksQuery {
  limit?: number;
  offset?: number;
}

export type ReceiveChargebackNotificationBody = {
  [key: string]: unknown;
};

export interface ReceiveChargebackNotificationOptions extends RequestOptions {
  /**
   * Header x-notification-secret.
   *
   * The shared notification secret
   */
  notificationSecret: string;
}

export interface ListCommercialContactsQuery {
  /** true: only active contacts; false: only inactive ones; absent: all */
  active?: boolean;
}

export type ListCommercialContactsResponse = Array<CommercialContact>;

export interface ListMerchantCommercialContactsQuery {
  /** true: only active contacts; false: only inactive ones; absent: all */
  active?: boolean;
}

export type ListMerchantCommercialContactsResponse = Array<CommercialContact>;

export type GetGlobalCeoResponse = GlobalCeo | null;

export interface PreCaptureSaleOptions extends RequestOptions {
  /**
   * Header Idempotency-Key.
   *
   * Recommended. Per merchant, kept 24 h. The same key with the same body replays the first answer
   * (header Idempotent-Replayed: true) without a second authorization; the same key with a different
   * body is 422; the same key while the first request still runs, or while its timed-out outcome is
   * being confirmed, is 409 (retry later to get the answer). A key whose request failed validation or
   * reached no acquirer (502 with FAILED) may be used again.
   */
  idempotencyKey?: string;
}

export interface ReceivePaymentNotificationOptions extends RequestOptions {
  /**
   * Header X-Acquirer-Signature.
   *
   * sha256=<hex HMAC-SHA256 of the raw body>
   */
  acquirerSignature: string;
}

export type ReceivePaymentNotificationResponse = {
  received?: boolean;
  duplicate?: boolean;
};

export interface CreatePaymentLinkOptions extends RequestOptions {
  /**
   * Header Idempotency-Key.
   *
   * Optional, per merchant, kept 24 h. The same key with the same body replays the first answer (header
   * Idempotent-Replayed: true) and creates no second link; the same key with a different body is 422;
   * the same key while the first request still runs is 409.
   */
  idempotencyKey?: string;
}

export type ListLinkWebhookEventsResponse = {
  results?: Array<WebhookEvent>;
};

export type RedeliverWebhookEventResponse = {
  detail?: string;
  id?: string;
};

/** Every operation, by operationId: what the transport sends. */
export const operations = {
  getLiveness: { operationId: 'getLiveness', method: 'GET', path: '/healthz', auth: false, response: 'json' },
  getReadiness: { operationId: 'getReadiness', method: 'GET', path: '/readyz', auth: false, response: 'json' },
  getSwagger: {
    operationId: 'getSwagger',
    method: 'GET',
    path: '/api/docs/swagger.json',
    auth: false,
    response: 'json',
  },
  consultChargebacks: {
    operationId: 'consultChargebacks',
    method: 'POST',
    path: '/api/v1/acquirer/chargeback/consult/',
    auth: true,
    response: 'json',
  },
  acceptChargebacks: {
    operationId: 'acceptChargebacks',
    method: 'PUT',
    path: '/api/v1/acquirer/chargeback/accept/',
    auth: true,
    response: 'json',
  },
  refuseChargeback: {
    operationId: 'refuseChargeback',
    method: 'PUT',
    path: '/api/v1/acquirer/chargeback/refuse/',
    auth: true,
    response: 'json',
  },
  getChargebackLifecycle: {
    operationId: 'getChargebackLifecycle',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/lifecycle/{idCase}/',
    auth: true,
    response: 'json',
  },
  listIssuerDocuments: {
    operationId: 'listIssuerDocuments',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/list-issuer-documents/{establishmentNumber}/{idChargeback}/',
    auth: true,
    response: 'json',
  },
  downloadIssuerDocument: {
    operationId: 'downloadIssuerDocument',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/document-issuer/{establishmentNumber}/{idDocumento}/',
    auth: true,
    response: 'binary',
  },
  getSupportDocument: {
    operationId: 'getSupportDocument',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/support-document/{establishmentNumber}/{idChargeback}/',
    auth: true,
    response: 'json',
  },
  listPendingChargebacks: {
    operationId: 'listPendingChargebacks',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/contested/',
    auth: true,
    response: 'json',
  },
  listHandledChargebacks: {
    operationId: 'listHandledChargebacks',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/contested/history/',
    auth: true,
    response: 'json',
  },
  countPendingChargebacks: {
    operationId: 'countPendingChargebacks',
    method: 'GET',
    path: '/api/v1/acquirer/chargeback/pending-count/',
    auth: true,
    response: 'json',
  },
  receiveChargebackNotification: {
    operationId: 'receiveChargebackNotification',
    method: 'POST',
    path: '/api/v1/acquirer/chargeback/notifications/',
    auth: false,
    response: 'json',
  },
  createSubscription: {
    operationId: 'createSubscription',
    method: 'POST',
    path: '/api/v1/subscriptions/',
    auth: true,
    response: 'json',
  },
  getSubscription: {
    operationId: 'getSubscription',
    method: 'GET',
    path: '/api/v1/subscriptions/{id}/',
    auth: true,
    response: 'json',
  },
  cancelSubscription: {
    operationId: 'cancelSubscription',
    method: 'PUT',
    path: '/api/v1/subscriptions/{id}/cancel/',
    auth: true,
    response: 'json',
  },
  listSubscriptionCharges: {
    operationId: 'listSubscriptionCharges',
    method: 'GET',
    path: '/api/v1/subscriptions/{id}/charges/',
    auth: true,
    response: 'json',
  },
  refundSubscriptionCharge: {
    operationId: 'refundSubscriptionCharge',
    method: 'PUT',
    path: '/api/v1/subscriptions/{id}/charges/{chargeId}/refund/',
    auth: true,
    response: 'json',
  },
  createToken: { operationId: 'createToken', method: 'POST', path: '/api/token/', auth: false, response: 'json' },
  refreshToken: {
    operationId: 'refreshToken',
    method: 'POST',
    path: '/api/token/refresh/',
    auth: false,
    response: 'json',
  },
  getMe: { operationId: 'getMe', method: 'GET', path: '/api/v1/me/', auth: true, response: 'json' },
  listCommercialContacts: {
    operationId: 'listCommercialContacts',
    method: 'GET',
    path: '/api/v1/commercial-contacts/',
    auth: true,
    response: 'json',
  },
  createCommercialContact: {
    operationId: 'createCommercialContact',
    method: 'POST',
    path: '/api/v1/commercial-contacts/',
    auth: true,
    response: 'json',
  },
  updateCommercialContact: {
    operationId: 'updateCommercialContact',
    method: 'PATCH',
    path: '/api/v1/commercial-contacts/{pk}/',
    auth: true,
    response: 'json',
  },
  listMerchantCommercialContacts: {
    operationId: 'listMerchantCommercialContacts',
    method: 'GET',
    path: '/api/v1/merchants/{id}/commercial-contacts/',
    auth: true,
    response: 'json',
  },
  getGlobalCeo: {
    operationId: 'getGlobalCeo',
    method: 'GET',
    path: '/api/v1/global-ceo/',
    auth: true,
    response: 'json',
  },
  putGlobalCeo: {
    operationId: 'putGlobalCeo',
    method: 'PUT',
    path: '/api/v1/global-ceo/',
    auth: true,
    response: 'json',
  },
  getMetrics: { operationId: 'getMetrics', method: 'GET', path: '/metrics', auth: false, response: 'text' },
  preCaptureSale: {
    operationId: 'preCaptureSale',
    method: 'POST',
    path: '/api/v1/online/sales/pre-capture/',
    auth: true,
    response: 'json',
  },
  captureSale: {
    operationId: 'captureSale',
    method: 'PUT',
    path: '/api/v1/online/sales/{id}/capture/',
    auth: true,
    response: 'json',
  },
  cancelSale: {
    operationId: 'cancelSale',
    method: 'PUT',
    path: '/api/v1/online/sales/{id}/cancel-capture/',
    auth: true,
    response: 'json',
  },
  getSale: { operationId: 'getSale', method: 'GET', path: '/api/v1/online/sales/{id}/', auth: true, response: 'json' },
  getPixStatus: {
    operationId: 'getPixStatus',
    method: 'GET',
    path: '/api/v1/online/sales/{id}/pix/status/',
    auth: true,
    response: 'json',
  },
  receivePaymentNotification: {
    operationId: 'receivePaymentNotification',
    method: 'POST',
    path: '/api/v1/online/sales/notifications/',
    auth: false,
    response: 'json',
  },
  getCardPublicKey: {
    operationId: 'getCardPublicKey',
    method: 'GET',
    path: '/api/v1/cards/public-key/',
    auth: false,
    response: 'json',
  },
  createPaymentLink: {
    operationId: 'createPaymentLink',
    method: 'POST',
    path: '/api/v1/payment-links/',
    auth: true,
    response: 'json',
  },
  getPaymentLink: {
    operationId: 'getPaymentLink',
    method: 'GET',
    path: '/api/v1/payment-links/{id}/',
    auth: true,
    response: 'json',
  },
  loadCheckout: {
    operationId: 'loadCheckout',
    method: 'GET',
    path: '/api/v1/checkout-links/{guid}',
    auth: false,
    response: 'json',
  },
  setCheckoutPayer: {
    operationId: 'setCheckoutPayer',
    method: 'PATCH',
    path: '/api/v1/checkout-links/{guid}/payer',
    auth: false,
    response: 'json',
  },
  setCheckoutAddress: {
    operationId: 'setCheckoutAddress',
    method: 'PATCH',
    path: '/api/v1/checkout-links/{guid}/address',
    auth: false,
    response: 'json',
  },
  payCheckout: {
    operationId: 'payCheckout',
    method: 'PUT',
    path: '/api/v1/checkout-links/{guid}/pay',
    auth: false,
    response: 'json',
  },
  getCheckoutPage: {
    operationId: 'getCheckoutPage',
    method: 'GET',
    path: '/checkout/{guid}',
    auth: false,
    response: 'text',
  },
  getCheckoutAsset: {
    operationId: 'getCheckoutAsset',
    method: 'GET',
    path: '/checkout/assets/{file}',
    auth: false,
    response: 'text',
  },
  getWebhookSecret: {
    operationId: 'getWebhookSecret',
    method: 'GET',
    path: '/api/v1/webhooks/secret/',
    auth: true,
    response: 'json',
  },
  rotateWebhookSecret: {
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/api/v1/webhooks/secret/rotate/',
    auth: true,
    response: 'json',
  },
  listLinkWebhookEvents: {
    operationId: 'listLinkWebhookEvents',
    method: 'GET',
    path: '/api/v1/payment-links/{id}/webhooks/',
    auth: true,
    response: 'json',
  },
  redeliverWebhookEvent: {
    operationId: 'redeliverWebhookEvent',
    method: 'POST',
    path: '/api/v1/payment-links/{id}/webhooks/{eventId}/redeliver/',
    auth: true,
    response: 'json',
  },
} satisfies Record<string, OperationSpec>;

export type OperationId = keyof typeof operations;

/** The documented error answers of each operation: status to body. */
export interface OperationErrors {
  getLiveness: {
    400: FieldErrors;
    503: ErrorDetail;
  };
  getReadiness: {
    400: FieldErrors;
    503: Readiness;
  };
  getSwagger: {
    400: FieldErrors;
    503: ErrorDetail;
  };
  consultChargebacks: {
    400: ChargebackBadRequest;
    401: ErrorDetail;
    403: AcquirerError;
    412: AcquirerError;
    413: ErrorDetail;
    415: ErrorDetail;
    500: AcquirerError;
    502: ErrorDetail;
    503: ErrorDetail;
  };
  acceptChargebacks: {
    400: ChargebackBadRequest;
    401: ErrorDetail;
    403: AcquirerError;
    412: AcquirerError;
    413: ErrorDetail;
    415: ErrorDetail;
    500: AcquirerError;
    502: ErrorDetail;
    503: ErrorDetail;
  };
  refuseChargeback: {
    400: ChargebackBadRequest;
    401: ErrorDetail;
    403: AcquirerError;
    412: AcquirerError;
    413: ErrorDetail;
    415: ErrorDetail;
    500: AcquirerError;
    502: ErrorDetail;
    503: ErrorDetail;
  };
  getChargebackLifecycle: {
    400: ChargebackBadRequest;
    401: ErrorDetail;
    403: AcquirerError;
    412: AcquirerError;
    500: AcquirerError;
    502: ErrorDetail;
    503: ErrorDetail;
  };
  listIssuerDocuments: {
    400: ChargebackBadRequest;
    401: ErrorDetail;
    403: AcquirerError;
    412: AcquirerError;
    500: AcquirerError;
    502: ErrorDetail;
    503: ErrorDetail;
  };
  downloadIssuerDocument: {
    400: ChargebackBadRequest;
    401: ErrorDetail;
    403: AcquirerError;
    412: AcquirerError;
    500: AcquirerError;
    502: ErrorDetail;
    503: ErrorDetail;
  };
  getSupportDocument: {
    400: ChargebackBadRequest;
    401: ErrorDetail;
    403: AcquirerError;
    412: AcquirerError;
    500: AcquirerError;
    502: ErrorDetail;
    503: ErrorDetail;
  };
  listPendingChargebacks: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    500: ErrorDetail;
    503: ErrorDetail;
  };
  listHandledChargebacks: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    500: ErrorDetail;
    503: ErrorDetail;
  };
  countPendingChargebacks: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    500: ErrorDetail;
    503: ErrorDetail;
  };
  receiveChargebackNotification: {
    400: FieldErrors;
    401: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  createSubscription: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    502: ErrorDetail;
    503: ErrorDetail;
  };
  getSubscription: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  cancelSubscription: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  listSubscriptionCharges: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  refundSubscriptionCharge: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    502: ErrorDetail;
    503: ErrorDetail;
  };
  createToken: {
    400: FieldErrors;
    401: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    429: ErrorDetail;
    503: ErrorDetail;
  };
  refreshToken: {
    400: FieldErrors;
    401: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    429: ErrorDetail;
    503: ErrorDetail;
  };
  getMe: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    503: ErrorDetail;
  };
  listCommercialContacts: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    503: ErrorDetail;
  };
  createCommercialContact: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  updateCommercialContact: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  listMerchantCommercialContacts: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  getGlobalCeo: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    503: ErrorDetail;
  };
  putGlobalCeo: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  getMetrics: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    429: ErrorDetail;
    503: ErrorDetail;
  };
  preCaptureSale: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    422: ErrorDetail;
    500: ErrorDetail;
    502: SaleGatewayError;
    503: ErrorDetail;
  };
  captureSale: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    502: SaleGatewayError;
    503: ErrorDetail;
  };
  cancelSale: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    502: SaleGatewayError;
    503: ErrorDetail;
  };
  getSale: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  getPixStatus: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  receivePaymentNotification: {
    400: FieldErrors;
    401: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  getCardPublicKey: {
    400: FieldErrors;
    503: ErrorDetail;
  };
  createPaymentLink: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    422: ErrorDetail;
    503: ErrorDetail;
  };
  getPaymentLink: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  loadCheckout: {
    400: FieldErrors;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  setCheckoutPayer: {
    400: FieldErrors;
    404: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  setCheckoutAddress: {
    400: FieldErrors;
    404: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  payCheckout: {
    400: FieldErrors;
    404: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    429: ErrorDetail;
    502: ErrorDetail;
    503: ErrorDetail;
  };
  getCheckoutPage: {
    400: FieldErrors;
    404: unknown;
    503: ErrorDetail;
  };
  getCheckoutAsset: {
    400: FieldErrors;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  getWebhookSecret: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    503: ErrorDetail;
  };
  rotateWebhookSecret: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  listLinkWebhookEvents: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  redeliverWebhookEvent: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    429: ErrorDetail;
    503: ErrorDetail;
  };
}

/**
 * Process liveness and readiness probes
 *
 * Tag "health" of the document.
 */
export class HealthApi extends ApiGroup {
  /**
   * Process is alive
   *
   * Public: no credential.
   *
   * GET /healthz
   */
  getLiveness(options?: RequestOptions): Promise<Liveness> {
    return this.transport.call<Liveness>(operations.getLiveness, {}, options);
  }

  /**
   * MongoDB and Redis answer
   *
   * Public: no credential.
   *
   * GET /readyz
   */
  getReadiness(options?: RequestOptions): Promise<Readiness> {
    return this.transport.call<Readiness>(operations.getReadiness, {}, options);
  }
}

/**
 * This API description
 *
 * Tag "docs" of the document.
 */
export class DocsApi extends ApiGroup {
  /**
   * Swagger 2.0 description of this API (version 1.0)
   *
   * Public: no credential.
   *
   * GET /api/docs/swagger.json
   */
  getSwagger(options?: RequestOptions): Promise<GetSwaggerResponse> {
    return this.transport.call<GetSwaggerResponse>(operations.getSwagger, {}, options);
  }
}

/**
 * The acquirer's chargeback operations proxied for merchants (its status and body pass through as
 * received), the intake of its chargeback notifications, and the pending, pending-count and history
 * views built from them.
 *
 * Tag "chargebacks" of the document.
 */
export class ChargebacksApi extends ApiGroup {
  /**
   * Consult chargebacks at the acquirer
   *
   * Query status PENDING (awaiting treatment) or DONE (handled). The JSON filter body is forwarded with
   * its documented fields only (any other key is a 400).
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No or invalid credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/acquirer/chargeback/consult/
   */
  consultChargebacks(
    body: ChargebackConsultFilter | undefined,
    query: ConsultChargebacksQuery,
    options?: RequestOptions,
  ): Promise<ChargebackPage> {
    return this.transport.call<ChargebackPage>(operations.consultChargebacks, { body, query }, options);
  }

  /**
   * Accept chargebacks
   *
   * Accepting treats the sale as invalid and agrees to the reversal. On an acquirer 2xx the accepted
   * chargebacks leave the pending list at once.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No or invalid credential: 401. Another kind of credential: 403.
   *
   * PUT /api/v1/acquirer/chargeback/accept/
   */
  acceptChargebacks(body: AcceptRequest, options?: RequestOptions): Promise<AcceptReply> {
    return this.transport.call<AcceptReply>(operations.acceptChargebacks, { body }, options);
  }

  /**
   * Refuse a chargeback with evidence
   *
   * Refusing defends the sale with an evidence document. Checked here before the acquirer is called,
   * each a 400 naming the rule: the content is TIFF, PDF or JPEG (by its first bytes) and the extension
   * of fileName agrees; at most 8 MB decoded; at most 10 pages; the document name equals IdCase, the
   * extension NOT being part of the name (fileName = IdCase + "." + extension, e.g. 5000123.pdf). On an
   * acquirer 2xx the chargeback leaves the pending list at once.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No or invalid credential: 401. Another kind of credential: 403.
   *
   * PUT /api/v1/acquirer/chargeback/refuse/
   */
  refuseChargeback(body: RefuseRequest, options?: RequestOptions): Promise<RefuseReply> {
    return this.transport.call<RefuseReply>(operations.refuseChargeback, { body }, options);
  }

  /**
   * Lifecycle of a chargeback case
   *
   * A merchant may read only a case of one of its establishments: one we hold a chargeback of, received
   * by notice, and whose steps the acquirer names for that establishment (403 otherwise, whatever case a
   * refusal named). The system token reads any. The payload has the fields of the lifecycle
   * notification, ActionCicleDate included.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No or invalid credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/lifecycle/{idCase}/
   *
   * @param idCase Case id
   */
  getChargebackLifecycle(idCase: string | number, options?: RequestOptions): Promise<GetChargebackLifecycleResponse> {
    return this.transport.call<GetChargebackLifecycleResponse>(
      operations.getChargebackLifecycle,
      { pathParams: { idCase } },
      options,
    );
  }

  /**
   * List the issuer documents of a chargeback (step 1 of 2)
   *
   * Step 1 of the document flow: list, then download each with GET
   * document-issuer/{establishmentNumber}/{idDocumento}/ using idDocumento from this list.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No or invalid credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/list-issuer-documents/{establishmentNumber}/{idChargeback}/
   *
   * @param establishmentNumber Establishment number (EC) at the acquirer; must be one of the calling
   * merchant's
   *
   * @param idChargeback Chargeback id
   */
  listIssuerDocuments(
    establishmentNumber: string | number,
    idChargeback: string | number,
    options?: RequestOptions,
  ): Promise<ListIssuerDocumentsResponse> {
    return this.transport.call<ListIssuerDocumentsResponse>(
      operations.listIssuerDocuments,
      { pathParams: { establishmentNumber, idChargeback } },
      options,
    );
  }

  /**
   * Download an issuer document (step 2 of 2)
   *
   * Step 2 of the document flow: idDocumento comes from GET list-issuer-documents/. The raw bytes are
   * streamed as received with the acquirer's Content-Type and Content-Disposition (never converted to
   * JSON).
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No or invalid credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/document-issuer/{establishmentNumber}/{idDocumento}/
   *
   * @param establishmentNumber Establishment number (EC) at the acquirer; must be one of the calling
   * merchant's
   *
   * @param idDocumento Document id from the listing
   */
  downloadIssuerDocument(
    establishmentNumber: string | number,
    idDocumento: string | number,
    options?: RequestOptions,
  ): Promise<Uint8Array> {
    return this.transport.call<Uint8Array>(
      operations.downloadIssuerDocument,
      { pathParams: { establishmentNumber, idDocumento } },
      options,
    );
  }

  /**
   * The defense document attached on refusal
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No or invalid credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/support-document/{establishmentNumber}/{idChargeback}/
   *
   * @param establishmentNumber Establishment number (EC) at the acquirer; must be one of the calling
   * merchant's
   *
   * @param idChargeback Chargeback id
   */
  getSupportDocument(
    establishmentNumber: string | number,
    idChargeback: string | number,
    options?: RequestOptions,
  ): Promise<GetSupportDocumentResponse> {
    return this.transport.call<GetSupportDocumentResponse>(
      operations.getSupportDocument,
      { pathParams: { establishmentNumber, idChargeback } },
      options,
    );
  }

  /**
   * Pending chargebacks
   *
   * Chargebacks received by notice and not yet accepted or refused, nearest treatmentDeadline first. A
   * merchant sees its own establishments'; the system token sees all, or one merchant's with
   * X-Merchant-Id.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No or invalid credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/contested/
   */
  listPendingChargebacks(options?: RequestOptions): Promise<PendingChargebacks> {
    return this.transport.call<PendingChargebacks>(operations.listPendingChargebacks, {}, options);
  }

  /**
   * Handled chargebacks
   *
   * One item per chargeback: accepted ones, and refused ones once they have a final outcome (win or
   * loss). Most recent outcome first.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No or invalid credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/contested/history/
   */
  listHandledChargebacks(query?: ListHandledChargebacksQuery, options?: RequestOptions): Promise<ChargebackHistory> {
    return this.transport.call<ChargebackHistory>(operations.listHandledChargebacks, { query }, options);
  }

  /**
   * Number of pending chargebacks
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token. No or invalid credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/acquirer/chargeback/pending-count/
   */
  countPendingChargebacks(options?: RequestOptions): Promise<PendingCount> {
    return this.transport.call<PendingCount>(operations.countPendingChargebacks, {}, options);
  }

  /**
   * Intake of the acquirer's chargeback notifications
   *
   * Called by the acquirer, not by merchants. Authenticated by the shared secret
   * CHARGEBACK_NOTIFICATION_SECRET in the x-notification-secret header. Body: a new chargeback (one
   * consult item, unwrapped) or a lifecycle change {establishmentNumber, caseId, message, executionDate,
   * ActionCicleDate}. The secret is checked before the body is read; a body is at most 64 KB. The notice
   * is stored durably before the 202; the same notice twice is stored once; a worker applies it. A
   * lifecycle step is a hint: it is applied only once the acquirer's own lifecycle of the case shows it
   * for that establishment (asked again for up to two days).
   *
   * Public: no credential.
   *
   * POST /api/v1/acquirer/chargeback/notifications/
   */
  receiveChargebackNotification(
    body: ReceiveChargebackNotificationBody,
    options: ReceiveChargebackNotificationOptions,
  ): Promise<NoticeReceipt> {
    return this.transport.call<NoticeReceipt>(
      operations.receiveChargebackNotification,
      { body, headers: { 'x-notification-secret': options?.notificationSecret } },
      options,
    );
  }
}

/**
 * Recurring card charges: subscriptions, their charges (retried on a schedule) and refunds
 *
 * Tag "subscriptions" of the document.
 */
export class SubscriptionsApi extends ApiGroup {
  /**
   * Create a subscription
   *
   * The card is tokenized at the acquirer at once (502 when the acquirer cannot be reached). The
   * scheduler creates a charge on each due date (UTC day) and sends it to the acquirer. When
   * firstDueDate is today (UTC), the first charge is created and queued with the subscription: it is
   * listed at once, status 0 PENDING until the acquirer answers, with no wait for the next scheduler
   * tick.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No or invalid credential: 401. Another
   * kind of credential: 403.
   *
   * POST /api/v1/subscriptions/
   */
  createSubscription(body: SubscriptionCreate, options?: RequestOptions): Promise<SubscriptionEnvelope> {
    return this.transport.call<SubscriptionEnvelope>(operations.createSubscription, { body }, options);
  }

  /**
   * Read a subscription
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No or invalid credential: 401. Another
   * kind of credential: 403.
   *
   * GET /api/v1/subscriptions/{id}/
   *
   * @param id Subscription id
   */
  getSubscription(id: string | number, options?: RequestOptions): Promise<SubscriptionEnvelope> {
    return this.transport.call<SubscriptionEnvelope>(operations.getSubscription, { pathParams: { id } }, options);
  }

  /**
   * Cancel a subscription
   *
   * No new charge is created and no retry is scheduled (every charge's nextRetryAt becomes null).
   * Cancelling a cancelled subscription returns it unchanged.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No or invalid credential: 401. Another
   * kind of credential: 403.
   *
   * PUT /api/v1/subscriptions/{id}/cancel/
   *
   * @param id Subscription id
   */
  cancelSubscription(id: string | number, options?: RequestOptions): Promise<SubscriptionEnvelope> {
    return this.transport.call<SubscriptionEnvelope>(operations.cancelSubscription, { pathParams: { id } }, options);
  }

  /**
   * List the charges of a subscription
   *
   * Every charge, oldest due date first, with the fields of the spec's Subscription charge table.
   * Another merchant's subscription or an unknown id: 404.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No or invalid credential: 401. Another
   * kind of credential: 403.
   *
   * GET /api/v1/subscriptions/{id}/charges/
   *
   * @param id Subscription id
   */
  listSubscriptionCharges(id: string | number, options?: RequestOptions): Promise<SubscriptionChargeList> {
    return this.transport.call<SubscriptionChargeList>(
      operations.listSubscriptionCharges,
      { pathParams: { id } },
      options,
    );
  }

  /**
   * Refund a confirmed charge
   *
   * Voids the captured sale at the acquirer and moves the charge from 1 CONFIRMED to 3 REFUNDED (its
   * paymentTransactionId is kept). Concurrent calls refund once; refunding a REFUNDED charge returns it
   * unchanged.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No or invalid credential: 401. Another
   * kind of credential: 403.
   *
   * PUT /api/v1/subscriptions/{id}/charges/{chargeId}/refund/
   *
   * @param id Subscription id
   *
   * @param chargeId Charge id
   */
  refundSubscriptionCharge(
    id: string | number,
    chargeId: string | number,
    options?: RequestOptions,
  ): Promise<SubscriptionChargeEnvelope> {
    return this.transport.call<SubscriptionChargeEnvelope>(
      operations.refundSubscriptionCharge,
      { pathParams: { id, chargeId } },
      options,
    );
  }
}

/**
 * Token pair, refresh and the identity bound to a credential
 *
 * Tag "auth" of the document.
 */
export class AuthApi extends ApiGroup {
  /**
   * Obtain an access and refresh token pair
   *
   * username is the complete e-mail (case-insensitive), never the short login name. Any failure (unknown
   * e-mail, wrong password, login name as username, missing or non-string fields) is 401 with the same
   * body, and an unknown e-mail takes as long as a wrong password. Access tokens live 900 s
   * (JWT_ACCESS_TTL_SECONDS, default 900 = 15 min); refresh tokens 604800 s (JWT_REFRESH_TTL_SECONDS,
   * default 604800 = 7 days). Both are HS256 JWTs. Rate limited per client IP: 10 requests per 60 s
   * sliding window (TOKEN_RATE_LIMIT, TOKEN_RATE_WINDOW_SECONDS), counted separately for token and
   * refresh and shared by every web process. Over the limit: 429 with Retry-After.
   *
   * Public: no credential.
   *
   * POST /api/token/
   */
  createToken(body: TokenRequest, options?: RequestOptions): Promise<TokenPair> {
    return this.transport.call<TokenPair>(operations.createToken, { body }, options);
  }

  /**
   * Get a new access token with a refresh token
   *
   * The refresh token is not rotated and stays valid until it expires. An access token is refused here,
   * as a refresh token is refused as a bearer credential. Expired, tampered, unsigned (alg none) or
   * otherwise-signed tokens are 401. Access tokens live 900 s (JWT_ACCESS_TTL_SECONDS, default 900 = 15
   * min); refresh tokens 604800 s (JWT_REFRESH_TTL_SECONDS, default 604800 = 7 days). Both are HS256
   * JWTs. Rate limited per client IP: 10 requests per 60 s sliding window (TOKEN_RATE_LIMIT,
   * TOKEN_RATE_WINDOW_SECONDS), counted separately for token and refresh and shared by every web
   * process. Over the limit: 429 with Retry-After.
   *
   * Public: no credential.
   *
   * POST /api/token/refresh/
   */
  refreshToken(body: RefreshRequest, options?: RequestOptions): Promise<AccessToken> {
    return this.transport.call<AccessToken>(operations.refreshToken, { body }, options);
  }

  /**
   * The merchant bound to the credential
   *
   * username is the short login name, not the e-mail. A merchant user's JWT or a merchant token: its
   * merchant. The system token: the merchant named by X-Merchant-Id, or, without that header, only role
   * system with the merchant fields null. A staff user's JWT: the staff user, merchant fields null.
   *
   * Bearer credential: a JWT access token of a merchant or staff user, or an individual merchant token
   * (mt_...), or the system token. No or invalid credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/me/
   */
  getMe(options?: RequestOptions): Promise<Me> {
    return this.transport.call<Me>(operations.getMe, {}, options);
  }
}

/**
 * Commercial managers linked to merchants, and the global CEO contact. Staff credentials only
 *
 * Tag "commercial-contacts" of the document.
 */
export class CommercialContactsApi extends ApiGroup {
  /**
   * List commercial contacts, alphabetical
   *
   * Bearer credential: a JWT access token of a staff user, or the system token. No or invalid
   * credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/commercial-contacts/
   */
  listCommercialContacts(
    query?: ListCommercialContactsQuery,
    options?: RequestOptions,
  ): Promise<ListCommercialContactsResponse> {
    return this.transport.call<ListCommercialContactsResponse>(operations.listCommercialContacts, { query }, options);
  }

  /**
   * Create a commercial contact
   *
   * Bearer credential: a JWT access token of a staff user, or the system token. No or invalid
   * credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/commercial-contacts/
   */
  createCommercialContact(body: CommercialContactCreate, options?: RequestOptions): Promise<CommercialContact> {
    return this.transport.call<CommercialContact>(operations.createCommercialContact, { body }, options);
  }

  /**
   * Change some fields of a commercial contact
   *
   * Only the fields sent change; an absent field keeps its value.
   *
   * Bearer credential: a JWT access token of a staff user, or the system token. No or invalid
   * credential: 401. Another kind of credential: 403.
   *
   * PATCH /api/v1/commercial-contacts/{pk}/
   *
   * @param pk Contact id
   */
  updateCommercialContact(
    pk: string | number,
    body: CommercialContactPatch,
    options?: RequestOptions,
  ): Promise<CommercialContact> {
    return this.transport.call<CommercialContact>(
      operations.updateCommercialContact,
      { pathParams: { pk }, body },
      options,
    );
  }

  /**
   * List a merchant's commercial contacts, alphabetical
   *
   * The contacts whose merchant_ids contain this merchant; an empty list when none is linked.
   *
   * Bearer credential: a JWT access token of a staff user, or the system token. No or invalid
   * credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/merchants/{id}/commercial-contacts/
   *
   * @param id Merchant id
   */
  listMerchantCommercialContacts(
    id: string | number,
    query?: ListMerchantCommercialContactsQuery,
    options?: RequestOptions,
  ): Promise<ListMerchantCommercialContactsResponse> {
    return this.transport.call<ListMerchantCommercialContactsResponse>(
      operations.listMerchantCommercialContacts,
      { pathParams: { id }, query },
      options,
    );
  }

  /**
   * Read the global CEO contact
   *
   * Bearer credential: a JWT access token of a staff user, or the system token. No or invalid
   * credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/global-ceo/
   */
  getGlobalCeo(options?: RequestOptions): Promise<GetGlobalCeoResponse> {
    return this.transport.call<GetGlobalCeoResponse>(operations.getGlobalCeo, {}, options);
  }

  /**
   * Register or replace the global CEO contact
   *
   * Creates the CEO contact or replaces it whole. Concurrent PUTs leave exactly one record: the last one
   * written.
   *
   * Bearer credential: a JWT access token of a staff user, or the system token. No or invalid
   * credential: 401. Another kind of credential: 403.
   *
   * PUT /api/v1/global-ceo/
   */
  putGlobalCeo(body: GlobalCeoPut, options?: RequestOptions): Promise<GlobalCeo> {
    return this.transport.call<GlobalCeo>(operations.putGlobalCeo, { body }, options);
  }
}

/**
 * What operators watch (Prometheus)
 *
 * Tag "metrics" of the document.
 */
export class MetricsApi extends ApiGroup {
  /**
   * Prometheus metrics of this process
   *
   * HTTP basic auth with DASHBOARD_USER / DASHBOARD_PASSWORD (as /admin/queues). Request counts and
   * durations by route template and status, queue depth per queue and state (read from Redis), acquirer
   * call latency and errors, process figures. Worker processes serve their job figures on their own
   * METRICS_PORT.
   *
   * Public: no credential.
   *
   * GET /metrics
   */
  getMetrics(options?: RequestOptions): Promise<string> {
    return this.transport.call<string>(operations.getMetrics, {}, options);
  }
}

/**
 * Online card and PIX sales through the acquirer: pre-capture, capture, cancel, PIX status
 *
 * Tag "online-sales" of the document.
 */
export class SalesApi extends ApiGroup {
  /**
   * Start an online sale: authorize a card (capture later) or create a PIX charge
   *
   * HTTP 200 does not mean approval: check data.approved and data.sale_status. An approved card is
   * PRE_CAPTURED (capture or cancel it later); a denied card is 200 with approved false, sale_status
   * DENIED, denial_code and denial_message, and can be neither captured nor cancelled. A PIX sale is
   * PENDING with the copy-and-paste code (data.pix.qr_code) and its expiry; it becomes CONFIRMED when
   * the acquirer notifies the payment. On 502 the body tells whether nothing was charged (sale_status
   * FAILED) or the outcome is being confirmed (reconciling true).
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No or invalid credential: 401. Another
   * kind of credential: 403.
   *
   * POST /api/v1/online/sales/pre-capture/
   */
  preCaptureSale(body: PreCaptureRequest, options?: PreCaptureSaleOptions): Promise<OnlineSaleResponse> {
    return this.transport.call<OnlineSaleResponse>(
      operations.preCaptureSale,
      { body, headers: { 'Idempotency-Key': options?.idempotencyKey } },
      options,
    );
  }

  /**
   * Capture a pre-captured card sale
   *
   * PRE_CAPTURED becomes CONFIRMED (full amount). Two captures at once capture once: one gets 200, the
   * other 409 while the first runs or 400 after. A PIX sale, or a sale in another state, is 400 with the
   * reason. Another merchant's sale is 404, like an unknown id (its existence is not revealed).
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No or invalid credential: 401. Another
   * kind of credential: 403.
   *
   * PUT /api/v1/online/sales/{id}/capture/
   *
   * @param id Sale id (from the pre-capture answer)
   */
  captureSale(id: string | number, options?: RequestOptions): Promise<OnlineSaleResponse> {
    return this.transport.call<OnlineSaleResponse>(operations.captureSale, { pathParams: { id } }, options);
  }

  /**
   * Cancel a card sale: void a pre-captured one, refund a confirmed one
   *
   * PRE_CAPTURED is voided (CANCELLED). CONFIRMED is refunded (REFUNDED) only when the merchant's
   * allow_void_on_confirmed setting is on; otherwise 400 saying so. A PIX sale or any other state is 400
   * with the reason. Another merchant's sale is 404.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No or invalid credential: 401. Another
   * kind of credential: 403.
   *
   * PUT /api/v1/online/sales/{id}/cancel-capture/
   *
   * @param id Sale id (from the pre-capture answer)
   */
  cancelSale(id: string | number, options?: RequestOptions): Promise<OnlineSaleResponse> {
    return this.transport.call<OnlineSaleResponse>(operations.cancelSale, { pathParams: { id } }, options);
  }

  /**
   * Read an online sale (stored data only)
   *
   * The sale as recorded, card or PIX. After a 502 with reconciling true, this shows the settled outcome
   * once reconciling is false. Never calls the acquirer. Another merchant's sale is 404.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...),
   * or the system token with X-Merchant-Id naming the merchant. No or invalid credential: 401. Another
   * kind of credential: 403.
   *
   * GET /api/v1/online/sales/{id}/
   *
   * @param id Sale id (from the pre-capture answer)
   */
  getSale(id: string | number, options?: RequestOptions): Promise<OnlineSaleResponse> {
    return this.transport.call<OnlineSaleResponse>(operations.getSale, { pathParams: { id } }, options);
  }

  /**
   * Current PIX payment status of a sale (stored data only)
   *
   * Reads only what is stored (updated by the acquirer notifications): it never calls the acquirer. An
   * unpaid charge past its expiry reads EXPIRED. A card sale is 400. A merchant token sees its own sales
   * only (another merchant's is 404); the system token sees any sale, or only the merchant named in
   * X-Merchant-Id.
   *
   * Bearer credential: an individual merchant token (mt_...), or the system token. No or invalid
   * credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/online/sales/{id}/pix/status/
   *
   * @param id Sale id (from the pre-capture answer)
   */
  getPixStatus(id: string | number, options?: RequestOptions): Promise<PixStatusResponse> {
    return this.transport.call<PixStatusResponse>(operations.getPixStatus, { pathParams: { id } }, options);
  }

  /**
   * Acquirer card/PIX notification intake
   *
   * Called by the acquirer, not by merchants. Authenticated by X-Acquirer-Signature: "sha256=" + hex
   * HMAC-SHA256 of the raw body keyed with ACQUIRER_NOTIFICATION_SECRET (compared in constant time). The
   * raw notice is stored (one document per body, so retries are one notice) and 200 is answered at once;
   * a worker reads the sale from the acquirer and settles ours. Repeated or out-of-order notices change
   * nothing twice.
   *
   * Public: no credential.
   *
   * POST /api/v1/online/sales/notifications/
   */
  receivePaymentNotification(
    body: PaymentNotice,
    options: ReceivePaymentNotificationOptions,
  ): Promise<ReceivePaymentNotificationResponse> {
    return this.transport.call<ReceivePaymentNotificationResponse>(
      operations.receivePaymentNotification,
      { body, headers: { 'X-Acquirer-Signature': options?.acquirerSignature } },
      options,
    );
  }
}

/**
 * The public key that encrypts cards (encrypted_card of sales, subscriptions and the checkout). No
 * credential.
 *
 * Tag "cards" of the document.
 */
export class CardsApi extends CardEncryption {
  /**
   * The public key to encrypt cards with
   *
   * encrypted_card = base64(RSAES-PKCS1-v1_5(public_key, UTF-8 JSON of the card)). The card JSON:
   * number: string: 12 to 19 digits passing the Luhn check; spaces and hyphens are ignored; holder:
   * string: the name printed on the card, 1 to 25 characters after trimming; expMonth: integer 1 to 12,
   * as a JSON number (12) or a string of 1 or 2 digits ("05"); expYear: integer, 4 digits (2031) or 2
   * digits meaning 20YY (31), as a JSON number or a string of digits; the card is valid through the end
   * of that month; cvv: string: 3 digits (4 for Amex). Cards encrypted with a previous key are accepted
   * until previous_accepted_until (at least 7 days after a rotation); the answer may be cached 3600 s.
   * Examples for Node and openssl: docs/cards.md.
   *
   * Public: no credential.
   *
   * GET /api/v1/cards/public-key/
   */
  getCardPublicKey(options?: RequestOptions): Promise<CardPublicKey> {
    return this.transport.call<CardPublicKey>(operations.getCardPublicKey, {}, options);
  }
}

/**
 * Payment links: a URL of a public checkout page the payer opens to pay by card
 *
 * Tag "payment-links" of the document.
 */
export class PaymentLinksApi extends ApiGroup {
  /**
   * Create a payment link
   *
   * The merchant comes from the credential only. Every bad field is reported at once as a field map. The
   * response never shows the e-mail. Aliases: merchant_name for payer_name; webhook_url, callbackUrl,
   * callback_url for webhookUrl.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No or invalid credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/payment-links/
   */
  createPaymentLink(body: PaymentLinkCreate, options?: CreatePaymentLinkOptions): Promise<PaymentLink> {
    return this.transport.call<PaymentLink>(
      operations.createPaymentLink,
      { body, headers: { 'Idempotency-Key': options?.idempotencyKey } },
      options,
    );
  }

  /**
   * Read a payment link of the caller
   *
   * Status 2 (Pago) once paid, with payment_date. Another merchant's link is 404.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No or invalid credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/payment-links/{id}/
   */
  getPaymentLink(id: string | number, options?: RequestOptions): Promise<PaymentLink> {
    return this.transport.call<PaymentLink>(operations.getPaymentLink, { pathParams: { id } }, options);
  }
}

/**
 * Public checkout of a payment link: the page and the four calls it makes. No credential.
 *
 * Tag "checkout" of the document.
 */
export class CheckoutApi extends ApiGroup {
  /**
   * Load a checkout
   *
   * What the page needs: amount, description, merchant company name, installments, expiry, status,
   * payerName, the RSA public key, and the receipt once paid.
   *
   * Public: no credential.
   *
   * GET /api/v1/checkout-links/{guid}
   *
   * @param guid payment_link_guid of the link
   */
  loadCheckout(guid: string | number, options?: RequestOptions): Promise<CheckoutLink> {
    return this.transport.call<CheckoutLink>(operations.loadCheckout, { pathParams: { guid } }, options);
  }

  /**
   * Payer step: name and CPF/CNPJ
   *
   * Public: no credential.
   *
   * PATCH /api/v1/checkout-links/{guid}/payer
   *
   * @param guid payment_link_guid of the link
   */
  setCheckoutPayer(guid: string | number, body: CheckoutPayer, options?: RequestOptions): Promise<CheckoutLink> {
    return this.transport.call<CheckoutLink>(operations.setCheckoutPayer, { pathParams: { guid }, body }, options);
  }

  /**
   * Address step
   *
   * cep is required; the other lines are optional and replace what was saved.
   *
   * Public: no credential.
   *
   * PATCH /api/v1/checkout-links/{guid}/address
   *
   * @param guid payment_link_guid of the link
   */
  setCheckoutAddress(guid: string | number, body: CheckoutAddress, options?: RequestOptions): Promise<CheckoutLink> {
    return this.transport.call<CheckoutLink>(operations.setCheckoutAddress, { pathParams: { guid }, body }, options);
  }

  /**
   * Pay step: charge the encrypted card
   *
   * Decrypts the card, checks Luhn, expiry and CVV shape, and charges it through the acquirer as a
   * captured sale with the link's installments. Needs the payer step done (payer name and a valid
   * CPF/CNPJ on the link), else 400. Approved: 200 approved true, the link is paid (status 2,
   * payment_date set). Denied: 200 approved false with the denial; the link stays payable. Of many
   * concurrent pays exactly one charges; the others get 409. One client address may make
   * CHECKOUT_PAY_RATE_LIMIT pay calls (default 30) per CHECKOUT_PAY_RATE_WINDOW_SECONDS (default 600)
   * across all links, counted in Redis and shared by every web process; over it the answer is 429 with
   * Retry-After. The limit is generous because phones on mobile networks share addresses (CGNAT). While
   * Redis is down the limit is not applied (payment needs no Redis; the per-link stop after 10 declines
   * still holds).
   *
   * Public: no credential.
   *
   * PUT /api/v1/checkout-links/{guid}/pay
   *
   * @param guid payment_link_guid of the link
   */
  payCheckout(guid: string | number, body: CheckoutPay, options?: RequestOptions): Promise<CheckoutPayResult> {
    return this.transport.call<CheckoutPayResult>(operations.payCheckout, { pathParams: { guid }, body }, options);
  }

  /**
   * The checkout page (HTML): payment_link_url points here
   *
   * Public: no credential.
   *
   * GET /checkout/{guid}
   *
   * @param guid payment_link_guid of the link
   */
  getCheckoutPage(guid: string | number, options?: RequestOptions): Promise<string> {
    return this.transport.call<string>(operations.getCheckoutPage, { pathParams: { guid } }, options);
  }

  /**
   * Static assets of the checkout page (checkout.js, checkout.css, forge.min.js)
   *
   * Public: no credential.
   *
   * GET /checkout/assets/{file}
   */
  getCheckoutAsset(file: string | number, options?: RequestOptions): Promise<string> {
    return this.transport.call<string>(operations.getCheckoutAsset, { pathParams: { file } }, options);
  }
}

/**
 * Events POSTed to a payment link's webhookUrl, signed per Standard Webhooks: headers webhook-id
 * (msg_<link>_<sequence>, the same on every retry), webhook-timestamp (unix seconds),
 * webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>" with the merchant secret). Body
 * {"type", "timestamp", "data": {..., "sequence"}}; types payment_link.paid and
 * payment_link.payment_denied; data.sequence increases per link so receivers can ignore stale events.
 * Any 2xx is success; 410 stops retries; redirects are not followed; others retry with exponential
 * backoff and jitter, 16 attempts over about 3 days.
 *
 * Tag "webhooks" of the document.
 */
export class WebhooksApi extends ApiGroup {
  /**
   * Read the webhook signing secret (created on first read)
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No or invalid credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/webhooks/secret/
   */
  getWebhookSecret(options?: RequestOptions): Promise<WebhookSecret> {
    return this.transport.call<WebhookSecret>(operations.getWebhookSecret, {}, options);
  }

  /**
   * Rotate the webhook signing secret
   *
   * The new secret signs at once; the previous one keeps signing beside it for 24 hours, so a receiver
   * can switch without rejecting events.
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No or invalid credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/webhooks/secret/rotate/
   */
  rotateWebhookSecret(options?: RequestOptions): Promise<WebhookSecret> {
    return this.transport.call<WebhookSecret>(operations.rotateWebhookSecret, {}, options);
  }

  /**
   * Webhook events of a link, each with every delivery attempt
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No or invalid credential: 401. Another kind of credential: 403.
   *
   * GET /api/v1/payment-links/{id}/webhooks/
   */
  listLinkWebhookEvents(id: string | number, options?: RequestOptions): Promise<ListLinkWebhookEventsResponse> {
    return this.transport.call<ListLinkWebhookEventsResponse>(
      operations.listLinkWebhookEvents,
      { pathParams: { id } },
      options,
    );
  }

  /**
   * Deliver an event once more
   *
   * One more attempt, queued now, with the same webhook-id and body (a fresh timestamp and signature);
   * recorded with trigger redelivery. Works on any event, delivered or not. At most 5 per event per hour
   * and 100 per merchant per 10 minutes (429 with Retry-After).
   *
   * Bearer credential: a JWT access token of a merchant user, or an individual merchant token (mt_...).
   * No or invalid credential: 401. Another kind of credential: 403.
   *
   * POST /api/v1/payment-links/{id}/webhooks/{eventId}/redeliver/
   */
  redeliverWebhookEvent(
    id: string | number,
    eventId: string | number,
    options?: RequestOptions,
  ): Promise<RedeliverWebhookEventResponse> {
    return this.transport.call<RedeliverWebhookEventResponse>(
      operations.redeliverWebhookEvent,
      { pathParams: { id, eventId } },
      options,
    );
  }
}

/** The groups of the client, one per tag. */
export abstract class GeneratedClient {
  readonly health: HealthApi;
  readonly docs: DocsApi;
  readonly chargebacks: ChargebacksApi;
  readonly subscriptions: SubscriptionsApi;
  readonly auth: AuthApi;
  readonly commercialContacts: CommercialContactsApi;
  readonly metrics: MetricsApi;
  readonly sales: SalesApi;
  readonly cards: CardsApi;
  readonly paymentLinks: PaymentLinksApi;
  readonly checkout: CheckoutApi;
  readonly webhooks: WebhooksApi;
  protected constructor(transport: Transport) {
    this.health = new HealthApi(transport);
    this.docs = new DocsApi(transport);
    this.chargebacks = new ChargebacksApi(transport);
    this.subscriptions = new SubscriptionsApi(transport);
    this.auth = new AuthApi(transport);
    this.commercialContacts = new CommercialContactsApi(transport);
    this.metrics = new MetricsApi(transport);
    this.sales = new SalesApi(transport);
    this.cards = new CardsApi(transport);
    this.paymentLinks = new PaymentLinksApi(transport);
    this.checkout = new CheckoutApi(transport);
    this.webhooks = new WebhooksApi(transport);
  }
}
