/**
 * GENERATED from the Swagger document (version 1.0) by clients/typescript/scripts/generate.ts
 * (npm run client:generate). Do not edit: regenerate.
 */
/* eslint-disable */
import type { RequestOptions } from './transport';

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
  /**
   * Amount of each charge, in cents. A number with a fraction gives "A valid integer is required: value
   * is in cents (1050 = R$ 10,50)."
   */
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
   * Not in the contract. card (the default): each charge is a card sale on encryptedCard.
   * pix_automatico: the payer authorises the recurrence once in their bank app (the mandate's QR code,
   * see pixAutomatico); no card. docs/api/pix-automatico.md
   */
  paymentMethod?: 'card' | 'pix_automatico';
  /**
   * Required with paymentMethod card (the default); refused with pix_automatico. The card encrypted as
   * in checkout: base64 of the RSA (PKCS#1 v1.5) encryption, with the service public key, of the JSON
   * {"number","holder","expMonth","expYear","cvv"}. It is turned into an acquirer card token at once;
   * only the token, brand, BIN, last four, holder and expiry are kept
   */
  encryptedCard?: string;
  /**
   * Required with paymentMethod pix_automatico, refused otherwise. retry true sends the retry policy
   * Allowed_3R_7D (a failed charge retried at most 3 times in 7 days), false none. billingCycle: weekly,
   * monthly, quarterly, semiannual or annual (the Central Bank has no bimonthly). customer.name and
   * customer.identity are required; description (up to 35 characters) is the plan the payer sees
   */
  pixAutomatico?: {
    /**
     * 2: the QR code only authorises; the first charge is sent on the calendar. 3: the QR code pays the
     * first charge (value) now and authorises the rest
     */
    journey: 2 | 3;
    /**
     * Variable amounts: the most one charge may be, in cents (a charge above it is refused before it is
     * sent). Absent: every charge is value (fixed amount)
     */
    maximumValue?: number;
    /**
     * Variable amounts only: the least one charge may be, in cents, sent to the acquirer as the
     * recurrence's MinimumAmount (the payer cannot set a ceiling below it). Default: 1
     */
    minimumValue?: number;
  };
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

export interface SubscriptionCycleValue {
  /**
   * The coming cycle's due date (one of the subscription's due dates)
   *
   * Format: date.
   */
  dueDate: string;
  /** The cycle's amount in cents, between the mandate's minimumValue and maximumValue */
  value: number;
}

export interface SubscriptionMandate {
  /**
   * CREATED: the QR code waits for the payer. APPROVED: the payer authorised it (charges can be sent).
   * REJECTED: the payer refused it. EXPIRED: not authorised in time. CANCELLED: by the merchant or the
   * payer (cancellation says which). Moves only after the acquirer confirmed it (a notice alone moves
   * nothing); REJECTED, EXPIRED and CANCELLED cancel the subscription (no charge is sent)
   */
  status: 'CREATED' | 'APPROVED' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';
  /**
   * The payer's authorisation page (public, in Portuguese, phone-sized): the QR code, the plan, the
   * amount and the state as it moves; send it to the payer. null on a mandate opened before the page
   * existed
   */
  authorizationUrl: string | null;
  journey: 2 | 3;
  /** The acquirer's RecurrenceId */
  acquirerRecurrenceId: string;
  retryPolicy: 'Allowed_3R_7D' | 'none';
  amountType: 'fixed' | 'variable';
  /** Variable amounts: cents; null when fixed */
  minimumValue: number | null;
  /** Variable amounts: cents; null when fixed */
  maximumValue: number | null;
  /** The authorisation QR code, data:image/png;base64,...; null once the mandate left CREATED */
  qrCodeImage: string | null;
  /** The same as copy-and-paste text (Pix Copia e Cola); null once the mandate left CREATED */
  qrCodeText: string | null;
  /**
   * When the QR code expires if not authorised
   *
   * Format: date-time.
   */
  expiresAt: string | null;
  /**
   * When the payer authorised it (as the acquirer dates it)
   *
   * Format: date-time.
   */
  approvedAt: string | null;
  /**
   * When the payer refused it
   *
   * Format: date-time.
   */
  rejectedAt: string | null;
  /**
   * When it expired unauthorised
   *
   * Format: date-time.
   */
  expiredAt: string | null;
  /** The acquirer's (Central Bank) rejection code and text; null unless REJECTED */
  rejection: {
    code?: string;
    reason?: string;
  } | null;
  /** Who cancelled it, when, and why (code: the Central Bank reason code); null unless CANCELLED */
  cancellation: {
    by?: 'merchant' | 'payer';
    /** Format: date-time. */
    at?: string;
    code?: string;
    reason?: string;
  } | null;
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
  /** What is kept of the card; the acquirer card token is never shown. null with pix_automatico */
  card: {
    brand?: string;
    bin?: string;
    last4?: string;
    holder?: string;
    expMonth?: number;
    expYear?: number;
  } | null;
  /** Not in the contract: shown only on a subscription paid by Pix Automático (absent: a card) */
  paymentMethod?: 'pix_automatico';
  mandate?: SubscriptionMandate;
  /**
   * Not in the contract: only with paymentMethod pix_automatico. A variable mandate's amounts set for
   * coming cycles (setSubscriptionCycleValue), by due date; every other cycle is charged value
   */
  cycleValues?: {
    [key: string]: number;
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
  /**
   * 0 PENDING (created, first send under way; Pix Automático: also sent and scheduled at the acquirer
   * until the due date settles it), 1 CONFIRMED, 2 DENIED, 3 REFUNDED
   */
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
   * declines, never retried: 57, 78, 41, 43, 14, 54, 62, 59; any other code is retried. Pix Automático
   * (never sent, never retried): window_missed (its 10-to-2-day window passed), amount_above_maximum
   * (above the mandate's maximumValue), mandate_not_approved, acquirer_<code> (refused by the acquirer);
   * any other code is the payer's bank's settlement failure (e.g. AM04), retried under Allowed_3R_7D
   */
  denialCode: string;
  /** Acquirer message of the denied attempt; empty string unless status is 2 */
  denialMessage: string;
  /**
   * Times the charge was sent to the acquirer, retries included (1 while the first send is under way).
   * Always 1 when the subscription has retry off; at most 4 for Pix Automático (3 retries)
   */
  attempts: number;
  /**
   * Day of the next retry (YYYY-MM-DD). Set only on a denied charge with a retry scheduled; null
   * otherwise: final denial (hard decline or retries used up), retry off, or a cancelled or expired
   * subscription. Status 2 with nextRetryAt null is final. Pix Automático: the day the retry is sent and
   * settles on, within 7 days of dueDate and before the next cycle
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
  /**
   * Not in the contract: shown only once something of the charge was refunded (absent before, so a
   * charge never refunded reads exactly as the contract shows it). Cents given back by succeeded
   * refunds; status stays 1 CONFIRMED until it reaches value, then 3 REFUNDED
   */
  refunded_value?: number;
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
  /**
   * Acquirer establishment numbers (EC) of the merchant, as digit strings without leading zeros; the
   * chargeback routes take each as it is (text or number). null without a merchant
   */
  establishment_numbers: Array<string> | null;
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
  /**
   * Amount in cents. A fraction gives {"value": ["A valid integer is required: value is in cents (1050 =
   * R$ 10,50)."]}
   */
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
  /** See docs/api/sales.md for the states and transitions */
  sale_status:
    | 'PROCESSING'
    | 'PRE_CAPTURED'
    | 'CONFIRMED'
    | 'CANCELLED'
    | 'REFUNDED'
    | 'PARTIALLY_REFUNDED'
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
  /** Cents captured: the whole value, or less after a partial capture; null until captured */
  captured_value?: number | null;
  /** Format: date-time. */
  captured_at?: string | null;
  /**
   * Cents given back by succeeded refunds (docs/api/refunds.md); 0 when none. PARTIALLY_REFUNDED while
   * it is less than captured_value, REFUNDED once it is all of it
   */
  refunded_value?: number;
  /** Format: date-time. */
  cancelled_at?: string | null;
  /** Format: date-time. */
  refunded_at?: string | null;
  /** Format: date-time. */
  created_at?: string;
  /** Format: date-time. */
  updated_at?: string;
  /**
   * Only on a sale recorded for a charge another area made (docs/api/refunds.md): a paid payment link,
   * or a subscription charge (recorded at its first refund). Absent on a sale made by pre-capture
   */
  origin?: {
    kind: 'payment_link' | 'subscription_charge';
    /** The payment link id, or the subscription charge id */
    id: number;
  };
}

export interface OnlineSaleResponse {
  status: 'success';
  data: OnlineSale;
}

export interface PixStatusResponse {
  status: 'success';
  data: {
    id?: number;
    /**
     * PENDING awaiting the payer; CONFIRMED paid; EXPIRED not paid in time; PARTIALLY_REFUNDED or REFUNDED
     * paid, then refunded in part or whole (docs/api/refunds.md)
     */
    sale_status?: 'PROCESSING' | 'PENDING' | 'CONFIRMED' | 'EXPIRED' | 'PARTIALLY_REFUNDED' | 'REFUNDED' | 'FAILED';
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
    | 'PARTIALLY_REFUNDED'
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

export interface CaptureRequest {
  /**
   * Cents to capture, at most the authorized value; less captures part of the sale, once (the rest of
   * the authorization is released). Absent: everything authorized.
   */
  value?: number;
}

export interface RefundRequest {
  /** Cents to give back, at most what is left to refund. Absent: all that is left. */
  value?: number;
  /** Why the money goes back */
  reason?: 'requested_by_customer' | 'item_returned' | 'shipping_fee' | 'duplicate' | 'fraudulent' | 'other';
  /** Your own keys and string values (at most 20), echoed back */
  metadata?: {
    [key: string]: string;
  };
}

export interface Refund {
  id: number;
  sale_id: number;
  /** Cents */
  value: number;
  reason?: 'requested_by_customer' | 'item_returned' | 'shipping_fee' | 'duplicate' | 'fraudulent' | 'other' | null;
  metadata?: {
    [key: string]: string;
  } | null;
  /**
   * pending: accepted, not yet confirmed by the acquirer; succeeded: the money went back; failed: it did
   * not (failure_reason says why)
   */
  status: 'pending' | 'succeeded' | 'failed';
  /** The acquirer's cancel code of a failed refund (43, 40...) */
  acquirer_code?: string | null;
  failure_reason?: string | null;
  /** Format: date-time. */
  created_at: string;
  /** Format: date-time. */
  updated_at: string;
  /**
   * When it became succeeded or failed
   *
   * Format: date-time.
   */
  settled_at?: string | null;
}

export interface RefundResponse {
  status: 'success';
  data: Refund;
}

export interface RefundListResponse {
  status: 'success';
  data: Array<Refund>;
}

export interface ChargeRefundRequest {
  /**
   * Cents to give back, at most what is left to refund of the charge. Absent (or no body): all that is
   * left.
   */
  value?: number;
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

/** A new customer; only name is required */
export interface CustomerCreate {
  /** Full name or company name; leading and trailing spaces are trimmed */
  name: string;
  /**
   * E-mail, stored lower-cased; not unique. null clears it
   *
   * Format: email.
   */
  email?: string | null;
  /**
   * CPF or CNPJ (the alphanumeric CNPJ too), punctuation allowed, with correct check digits; stored and
   * answered without punctuation. null clears it
   */
  document?: string | null;
  /**
   * Brazilian phone with its area code, as Brazilians type it ((11) 98765-4321, +55 11 98765-4321...);
   * stored and answered as E.164. null clears it
   */
  phone?: string | null;
  /**
   * Your own keys and string values (at most 20 keys of up to 40 characters, values of up to 500),
   * answered back. On PATCH it replaces the whole object; {} clears it
   */
  metadata?: {
    [key: string]: string;
  };
}

/** Any subset of the fields; an absent field keeps its value, null clears an optional one */
export interface CustomerPatch {
  /** Full name or company name; leading and trailing spaces are trimmed */
  name?: string;
  /**
   * E-mail, stored lower-cased; not unique. null clears it
   *
   * Format: email.
   */
  email?: string | null;
  /**
   * CPF or CNPJ (the alphanumeric CNPJ too), punctuation allowed, with correct check digits; stored and
   * answered without punctuation. null clears it
   */
  document?: string | null;
  /**
   * Brazilian phone with its area code, as Brazilians type it ((11) 98765-4321, +55 11 98765-4321...);
   * stored and answered as E.164. null clears it
   */
  phone?: string | null;
  /**
   * Your own keys and string values (at most 20 keys of up to 40 characters, values of up to 500),
   * answered back. On PATCH it replaces the whole object; {} clears it
   */
  metadata?: {
    [key: string]: string;
  };
}

export interface Customer {
  /** cus_<24 hex> */
  id: string;
  /** Full name or company name; leading and trailing spaces are trimmed */
  name: string;
  email: string | null;
  /** Without punctuation */
  document: string | null;
  document_type: 'CPF' | 'CNPJ' | null;
  /** E.164 */
  phone: string | null;
  metadata: {
    [key: string]: string;
  };
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

export interface CustomerList {
  results: Array<Customer>;
  /** Pass as cursor for the next page; null: last page */
  next_cursor: string | null;
}

export interface CustomerCardSave {
  /**
   * The card JSON encrypted with the service public key (RSAES-PKCS1-v1_5, base64), as a sale's
   * encrypted_card: docs/cards.md. Decrypted in memory only; the number and the CVV are never kept
   */
  encrypted_card: string;
}

/** How the card was checked when it was saved */
export interface CustomerCardCheck {
  /**
   * passed: the issuer said the card is valid (Zero Auth, nothing charged); skipped: the acquirer does
   * not run Zero Auth for this brand, so the card was saved unchecked
   */
  status: 'passed' | 'skipped';
  /** Why the check was skipped; null when passed */
  reason: string | null;
  /**
   * When the card was checked (or the check skipped), ISO 8601, UTC
   *
   * Format: date-time.
   */
  checked_at: string;
}

export interface CustomerCard {
  /** card_<24 hex> */
  id: string;
  customer_id: string;
  /** The acquirer's spelling: Visa, Master, Elo, Amex... */
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  holder: string;
  check: CustomerCardCheck;
  /**
   * ISO 8601, UTC
   *
   * Format: date-time.
   */
  created_at: string;
}

export interface CustomerCardList {
  /** The customer's saved cards, newest first */
  results: Array<CustomerCard>;
}

/** Zero Auth refused the card: it was not saved */
export interface CustomerCardRefused {
  /** The issuer's refusal in words, and what to do about it */
  detail: string;
  /** The issuer's code (ABECS): 05, 51, 57... */
  return_code: string;
  /** The acquirer's own text */
  return_message: string;
}

export interface PaymentLinkCreate {
  /**
   * Amount in cents. A number with a fraction gives {"value": ["A valid integer is required: value is in
   * cents (1050 = R$ 10,50)."]}
   */
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
  /**
   * The most installments the payer may choose at checkout (the options: GET
   * /api/v1/checkout-links/{guid}/installments); a pay step naming none charges this many
   */
  number_of_installments?: number;
  /**
   * Up to this many installments the payer pays no interest. Default: all of them when
   * interest_rate_monthly is 0, else 1. More than number_of_installments is a field error
   */
  free_installments?: number;
  /**
   * Monthly interest beyond the free installments, in basis points (199 = 1.99% a month), applied by the
   * Price table: the payer pays n equal installments rounded half up to the cent
   */
  interest_rate_monthly?: number;
  /** Cents: options whose installment would be smaller are not offered (one installment always is) */
  min_installment_value?: number;
  /** How the payer may pay at checkout: ["card"] (default), ["pix"] or ["card", "pix"] */
  payment_methods?: Array<'card' | 'pix'>;
  /**
   * Seconds each PIX QR code lives (60 to 86400, default 1800); a code made near the link's end lives
   * only until the link expires
   */
  pix_expires_in?: number;
  /** 1 = 24 h, 2 = 48 h, 3 = 72 h after creation */
  link_exp_period?: 1 | 2 | 3;
  /**
   * Public HTTPS URL on port 443 (or a port the deployment allows) receiving signed events of this link
   * (see the webhooks tag). Refused with {"webhookUrl": ["Enter a safe public HTTPS URL"]} for http,
   * credentials in the URL, localhost, names resolving to any internal address, numeric IP forms of
   * internal addresses, and unresolvable hosts; with {"webhookUrl": ["Enter a safe public HTTPS URL on
   * port 443 (not 6379)"]} for any other port.
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
  payment_methods: Array<'card' | 'pix'>;
  /** Seconds each PIX QR code lives */
  pix_expires_in: number;
  /** The most installments the payer may choose */
  number_of_installments: number;
  free_installments: number;
  /** Basis points a month */
  interest_rate_monthly: number;
  /** Cents */
  min_installment_value: number;
  /** Null until paid: the installments the payer chose and what was charged */
  payment: {
    /** What the payer chose */
    installments: number;
    /** Cents of each installment (interest-free: rounded down; the first carries the rest) */
    installment_value: number;
    /** Cents charged in all (the value, or more with interest) */
    total: number;
    interest_free: boolean;
  } | null;
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
  /**
   * On reads (getPaymentLink), not on create: the card sale the payment is recorded as, null until paid.
   * Refund the link through that sale: POST /api/v1/online/sales/{sale_id}/refunds/
   */
  sale_id?: number | null;
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
  /**
   * The most installments the payer may choose (the options: GET
   * /api/v1/checkout-links/{guid}/installments)
   */
  installments: number;
  /** How the payer may pay: card, PIX (POST .../pix gives the QR code) or both */
  paymentMethods: Array<'card' | 'pix'>;
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
    /** How the link was paid (card fields are empty for PIX) */
    method?: 'card' | 'pix';
    /** Cents: the link's value */
    amount?: number;
    /** What the payer chose */
    installments?: number;
    /** Cents of each installment (interest-free: rounded down; the first carries the rest) */
    installmentValue?: number;
    /** Cents charged in all: the amount, or more with interest */
    total?: number;
    interestFree?: boolean;
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
  /**
   * How many installments the payer chose: one of GET /api/v1/checkout-links/{guid}/installments.
   * Absent: the link's number_of_installments, as before the payer could choose
   */
  installments?: number;
}

export interface CheckoutPayResult {
  /** false: the card was denied; the link stays payable (status 1) and another card may be tried */
  approved: boolean;
  denial?: {
    /** The acquirer's ReturnCode (the merchant's webhook carries it as denial.return_code) */
    code?: string;
    /** The acquirer's ReturnMessage, English (the webhook's denial.return_message) */
    message?: string;
    /**
     * What the payer reads: Portuguese, chosen by the return code (a generic text for unknown codes and
     * flagged cards)
     */
    payerMessage?: string;
  } | null;
  checkout: CheckoutLink;
}

export interface CheckoutInstallments {
  /** Cents: the link's value */
  amount: number;
  /** The link's number_of_installments */
  max_installments: number;
  /** From 1 installment up, those whose installment is at least the link's minimum */
  options: Array<{
    installments: number;
    /** Cents of each installment (interest-free: rounded down; the first carries the rest) */
    installment_value: number;
    /** Cents the payer pays in all */
    total: number;
    interest_free: boolean;
    /** Portuguese, e.g. "3x de R$ 33,33 sem juros" */
    label: string;
  }>;
}

export interface CheckoutPix {
  /**
   * The newest QR code: none yet; creating (ask again in a moment); waiting for the payer; paid (the
   * link is paid: load the checkout for the receipt); expired (POST for a new one); failed (the acquirer
   * refused it: POST again); paid_twice (paid after the link already was: its money goes back), then
   * returned once that refund was asked of the acquirer
   */
  status: 'none' | 'creating' | 'waiting' | 'paid' | 'expired' | 'failed' | 'paid_twice' | 'returned';
  linkPaid: boolean;
  /** Cents */
  amount: number;
  /** The PIX copy-and-paste code (EMV), while waiting */
  qrCode: string | null;
  /** data:image/png;base64 of the QR code, while waiting */
  qrCodeImage: string | null;
  /** Format: date-time. */
  expiresAt: string | null;
  /** Until the QR code expires, while waiting */
  secondsLeft: number | null;
}

export interface CheckoutPixWait {
  /** Why, in English, with the wait in seconds */
  detail: string;
  /**
   * When the link waits after failed codes (absent when a backing service is down): what the payer
   * reads, Portuguese, naming no time (the page counts down Retry-After)
   */
  payerMessage?: string;
}

export interface MandateCheckout {
  /**
   * waiting: the QR code waits for the payer (until expiresAt); approved: the payer authorised it;
   * rejected: the payer refused it; expired: not authorised in time (also once expiresAt passed, before
   * the acquirer says so); cancelled: by the merchant or the payer
   */
  status: 'waiting' | 'approved' | 'rejected' | 'expired' | 'cancelled';
  /** The merchant's company name */
  merchantName: string;
  /** What is paid for (the description the bank app shows) */
  plan: string;
  amountType: 'fixed' | 'variable';
  /** Cents: each charge (fixed), or the first one (variable) */
  value: number;
  /** Variable amounts: the most one charge may be, cents ("até R$ X"); null when fixed */
  maximumValue: number | null;
  billingCycle: 'weekly' | 'monthly' | 'quarterly' | 'semiannual' | 'annual';
  /** Format: date. */
  firstDueDate: string;
  journey: 2 | 3;
  /** Journey 3: the cents the QR code pays now with the authorisation; null on journey 2 */
  payNow: number | null;
  payerName: string;
  /** The CPF or CNPJ masked (***.456.***-**) */
  payerDocument: string;
  /** data:image/png;base64 of the QR code, while waiting */
  qrCodeImage: string | null;
  /** The copy-and-paste code (EMV), while waiting */
  qrCodeText: string | null;
  /** Format: date-time. */
  expiresAt: string | null;
  /** Until the QR code expires, while waiting */
  secondsLeft: number | null;
  /** Who cancelled, when cancelled */
  cancelledBy: 'merchant' | 'payer' | null;
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
  /**
   * Why the attempt failed, null when it succeeded: timeout (no connection or no answer within the
   * timeout), connection_refused, connection_failed (reset, unreachable, closed), tls (certificate or
   * handshake), dns (the host no longer resolves), http_status (an answer other than 2xx, redirects
   * included: see status_code), unsafe_url (the URL no longer passes the safety rules)
   */
  error?: 'timeout' | 'connection_refused' | 'connection_failed' | 'tls' | 'dns' | 'http_status' | 'unsafe_url' | null;
}

export interface WebhookEvent {
  /** The webhook-id header */
  id?: string;
  type?:
    | 'payment_link.paid'
    | 'payment_link.payment_denied'
    | 'payment_link.refund_succeeded'
    | 'payment_link.refund_failed'
    | 'payment_link.pix_expired'
    | 'payment_link.paid_twice';
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

export interface WebhookEndpointCreate {
  /**
   * Public HTTPS URL on port 443 (or a port the deployment allows) receiving signed events. Refused with
   * {"url": ["Enter a safe public HTTPS URL"]} for http, credentials in the URL, localhost, names
   * resolving to any internal address and unresolvable hosts, and with {"url": ["Enter a safe public
   * HTTPS URL on port 443 (not 6379)"]} for any other port
   */
  url: string;
  /** Event types this endpoint receives, or ["*"] for every type */
  enabled_events: Array<
    | '*'
    | 'sale.authorized'
    | 'sale.denied'
    | 'sale.captured'
    | 'sale.cancelled'
    | 'sale.refunded'
    | 'refund.pending'
    | 'refund.succeeded'
    | 'refund.failed'
    | 'pix.paid'
    | 'pix.expired'
    | 'payment_link.paid'
    | 'payment_link.payment_denied'
    | 'payment_link.pix_expired'
    | 'payment_link.paid_twice'
    | 'subscription.created'
    | 'subscription.cancelled'
    | 'subscription.mandate_approved'
    | 'subscription.mandate_rejected'
    | 'subscription.mandate_expired'
    | 'subscription.mandate_cancelled'
    | 'subscription_charge.confirmed'
    | 'subscription_charge.denied'
    | 'subscription_charge.refunded'
    | 'chargeback.received'
    | 'chargeback.updated'
    | 'chargeback.accepted'
    | 'chargeback.refused'
  >;
  description?: string;
  /** A disabled endpoint receives nothing; enabling it again clears the reason */
  enabled?: boolean;
}

export interface WebhookEndpointUpdate {
  /**
   * Public HTTPS URL on port 443 (or a port the deployment allows) receiving signed events. Refused with
   * {"url": ["Enter a safe public HTTPS URL"]} for http, credentials in the URL, localhost, names
   * resolving to any internal address and unresolvable hosts, and with {"url": ["Enter a safe public
   * HTTPS URL on port 443 (not 6379)"]} for any other port
   */
  url?: string;
  /** Event types this endpoint receives, or ["*"] for every type */
  enabled_events?: Array<
    | '*'
    | 'sale.authorized'
    | 'sale.denied'
    | 'sale.captured'
    | 'sale.cancelled'
    | 'sale.refunded'
    | 'refund.pending'
    | 'refund.succeeded'
    | 'refund.failed'
    | 'pix.paid'
    | 'pix.expired'
    | 'payment_link.paid'
    | 'payment_link.payment_denied'
    | 'payment_link.pix_expired'
    | 'payment_link.paid_twice'
    | 'subscription.created'
    | 'subscription.cancelled'
    | 'subscription.mandate_approved'
    | 'subscription.mandate_rejected'
    | 'subscription.mandate_expired'
    | 'subscription.mandate_cancelled'
    | 'subscription_charge.confirmed'
    | 'subscription_charge.denied'
    | 'subscription_charge.refunded'
    | 'chargeback.received'
    | 'chargeback.updated'
    | 'chargeback.accepted'
    | 'chargeback.refused'
  >;
  description?: string;
  /** A disabled endpoint receives nothing; enabling it again clears the reason */
  enabled?: boolean;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  enabled_events: Array<string>;
  enabled: boolean;
  /**
   * Why the service disabled this endpoint (every attempt of a delivery failed, about 3 days, ending
   * "last: <failure category>[ <HTTP status>]"); null otherwise
   */
  disabled_reason?: string | null;
  /** Format: date-time. */
  disabled_at?: string | null;
  /** Format: date-time. */
  created_at: string;
  /** Format: date-time. */
  updated_at: string;
}

export interface WebhookEndpointWithSecret {
  id: string;
  url: string;
  description: string;
  enabled_events: Array<string>;
  enabled: boolean;
  /**
   * Why the service disabled this endpoint (every attempt of a delivery failed, about 3 days, ending
   * "last: <failure category>[ <HTTP status>]"); null otherwise
   */
  disabled_reason?: string | null;
  /** Format: date-time. */
  disabled_at?: string | null;
  /** Format: date-time. */
  created_at: string;
  /** Format: date-time. */
  updated_at: string;
  /**
   * whsec_<base64>: shown only here (creation, rotation). Verify deliveries with any Standard Webhooks
   * library
   */
  secret: string;
  /**
   * After a rotation the previous secret also signs until then (two v1 signatures)
   *
   * Format: date-time.
   */
  previous_secret_valid_until?: string | null;
}

export interface WebhookEndpointAttempt {
  /** Format: date-time. */
  at: string;
  trigger: 'scheduled' | 'redelivery';
  status_code?: number | null;
  duration_ms: number;
  success: boolean;
  /**
   * Why the attempt failed, null when it succeeded: timeout (no connection or no answer within the
   * timeout), connection_refused, connection_failed (reset, unreachable, closed), tls (certificate or
   * handshake), dns (the host no longer resolves), http_status (an answer other than 2xx, redirects
   * included: see status_code), unsafe_url (the URL no longer passes the safety rules)
   */
  error?: 'timeout' | 'connection_refused' | 'connection_failed' | 'tls' | 'dns' | 'http_status' | 'unsafe_url' | null;
}

export interface WebhookEndpointDelivery {
  /** <event id>.<endpoint id> */
  id: string;
  /** The webhook-id header */
  event_id: string;
  event_type: string;
  /** failed: every scheduled attempt failed; gone: the receiver answered 410 */
  state: 'pending' | 'delivered' | 'failed' | 'gone';
  attempt_count: number;
  /** Format: date-time. */
  created_at: string;
  /** Format: date-time. */
  delivered_at?: string | null;
  attempts: Array<WebhookEndpointAttempt>;
}

export interface AccountEvent {
  /** evt_<object kind>_<object id>_<change>; the webhook-id header */
  id: string;
  type:
    | 'sale.authorized'
    | 'sale.denied'
    | 'sale.captured'
    | 'sale.cancelled'
    | 'sale.refunded'
    | 'refund.pending'
    | 'refund.succeeded'
    | 'refund.failed'
    | 'pix.paid'
    | 'pix.expired'
    | 'payment_link.paid'
    | 'payment_link.payment_denied'
    | 'payment_link.pix_expired'
    | 'payment_link.paid_twice'
    | 'subscription.created'
    | 'subscription.cancelled'
    | 'subscription.mandate_approved'
    | 'subscription.mandate_rejected'
    | 'subscription.mandate_expired'
    | 'subscription.mandate_cancelled'
    | 'subscription_charge.confirmed'
    | 'subscription_charge.denied'
    | 'subscription_charge.refunded'
    | 'chargeback.received'
    | 'chargeback.updated'
    | 'chargeback.accepted'
    | 'chargeback.refused';
  /** Format: date-time. */
  created_at: string;
  object: {
    kind: string;
    id: string;
  };
  /** 1, 2, 3... per object in recording order: ignore an event older than the object's last one seen */
  sequence: number;
  /** The object as the API shows it */
  data: {
    [key: string]: unknown;
  };
}

export interface AccountEventList {
  results: Array<AccountEvent>;
  /** Pass as cursor for the next page; null: last page */
  next_cursor: string | null;
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

export interface CreateRefundOptions extends RequestOptions {
  /**
   * Header Idempotency-Key.
   *
   * Recommended. Per merchant, kept 24 h. The same key with the same sale and body replays the first
   * answer (header Idempotent-Replayed: true) without a second refund; with another body it is 422.
   */
  idempotencyKey?: string;
}

export interface RefundSubscriptionChargeOptions extends RequestOptions {
  /**
   * Header Idempotency-Key.
   *
   * Recommended with a value. Per merchant, kept 24 h, shared with createRefund. The same key with the
   * same charge and body replays its refund (no second one); with another body it is 422.
   */
  idempotencyKey?: string;
}

export interface ListCustomersQuery {
  /** Only customers with this e-mail (case does not matter) */
  email?: string;
  /** Only customers with this CPF or CNPJ (punctuation does not matter) */
  document?: string;
  limit?: number;
  /** next_cursor of the last page */
  cursor?: string;
}

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

export type ListWebhookEndpointsResponse = {
  results: Array<WebhookEndpoint>;
};

export type ListWebhookEndpointDeliveriesResponse = {
  results: Array<WebhookEndpointDelivery>;
};

export type RedeliverWebhookEndpointDeliveryResponse = {
  detail?: string;
  id?: string;
};

export interface ListEventsQuery {
  type?:
    | 'sale.authorized'
    | 'sale.denied'
    | 'sale.captured'
    | 'sale.cancelled'
    | 'sale.refunded'
    | 'refund.pending'
    | 'refund.succeeded'
    | 'refund.failed'
    | 'pix.paid'
    | 'pix.expired'
    | 'payment_link.paid'
    | 'payment_link.payment_denied'
    | 'payment_link.pix_expired'
    | 'payment_link.paid_twice'
    | 'subscription.created'
    | 'subscription.cancelled'
    | 'subscription.mandate_approved'
    | 'subscription.mandate_rejected'
    | 'subscription.mandate_expired'
    | 'subscription.mandate_cancelled'
    | 'subscription_charge.confirmed'
    | 'subscription_charge.denied'
    | 'subscription_charge.refunded'
    | 'chargeback.received'
    | 'chargeback.updated'
    | 'chargeback.accepted'
    | 'chargeback.refused';
  /** The object's id */
  object_id?: string;
  /** Format: date-time. */
  since?: string;
  limit?: number;
  /** next_cursor of the last page */
  cursor?: string;
}

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
    409: ErrorDetail;
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
    502: ErrorDetail;
    503: ErrorDetail;
  };
  setSubscriptionCycleValue: {
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
  createRefund: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    422: ErrorDetail;
    503: ErrorDetail;
  };
  listSaleRefunds: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  getRefund: {
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
    422: ErrorDetail;
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
  getCardPublicKey: {
    400: FieldErrors;
    503: ErrorDetail;
  };
  createCustomer: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  listCustomers: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    503: ErrorDetail;
  };
  getCustomer: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  updateCustomer: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  deleteCustomer: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  saveCustomerCard: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    422: CustomerCardRefused;
    502: ErrorDetail;
    503: ErrorDetail;
  };
  listCustomerCards: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  getCustomerCard: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  deleteCustomerCard: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
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
  getCheckoutInstallments: {
    400: FieldErrors;
    404: ErrorDetail;
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
  startCheckoutPix: {
    400: FieldErrors;
    404: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    429: ErrorDetail;
    502: ErrorDetail;
    503: CheckoutPixWait;
  };
  getCheckoutPix: {
    400: FieldErrors;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  loadMandateCheckout: {
    400: FieldErrors;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  getMandateCheckoutPage: {
    400: FieldErrors;
    404: unknown;
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
  createWebhookEndpoint: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    409: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  listWebhookEndpoints: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    503: ErrorDetail;
  };
  getWebhookEndpoint: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  updateWebhookEndpoint: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  deleteWebhookEndpoint: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  rotateWebhookEndpointSecret: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    503: ErrorDetail;
  };
  listWebhookEndpointDeliveries: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
  redeliverWebhookEndpointDelivery: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    413: ErrorDetail;
    415: ErrorDetail;
    429: ErrorDetail;
    503: ErrorDetail;
  };
  listEvents: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    503: ErrorDetail;
  };
  getEvent: {
    400: FieldErrors;
    401: ErrorDetail;
    403: ErrorDetail;
    404: ErrorDetail;
    503: ErrorDetail;
  };
}
