/**
 * Online sale rules: pre-capture (card or PIX), capture, cancel-capture, PIX status, acquirer
 * notifications and reconciliation of calls whose outcome is unknown. Knows nothing of Express:
 * routes, jobs and tests call these functions.
 *
 * Every one-time effect is guarded by an insert under a unique index (see model.ts):
 *  - an Idempotency-Key record before a pre-capture does any work;
 *  - a transition document "<saleId>:<fromStatus>" before a capture, void or refund reaches the
 *    acquirer, and before a notice or reconciliation moves the sale;
 *  - one stored notice per notification body.
 */
import crypto from 'node:crypto';
import mongoose from 'mongoose';
import { getConfig } from '../../config';
import { AcquirerUnavailableError } from '../acquirer/errors';
import {
  AcquirerRejectedError,
  AcquirerStatus,
  callMayStillBeRunningMs,
  captureSale as captureAtAcquirer,
  createPixCharge,
  getSale,
  voidSale,
  type AcquirerSale,
  type CardSaleResult,
  type PixChargeResult,
  NOTIFICATION_SIGNATURE_HEADER as SIGNATURE_HEADER,
} from '../acquirer/client';
import { safeEqual, sha256Hex } from '../auth/crypto';
import { getMerchant } from '../auth/service';
import { CardError, decryptCard, summarizeCard, type ClearCard } from '../cards';
import { documentKind, normalizeDocument } from '../checkout/documents';
import { Claims, insertOnce, type HeldClaim } from '../db/claims';
import { chargeCard, findCharge, noSaleIsConclusive } from '../payments/card-charge';
import {
  cardFingerprint,
  freeKey,
  IDEMPOTENCY_WINDOW_MS,
  recordOfUse,
  requestHash,
  useIdempotencyKey,
  type KeyBook,
} from '../payments/idempotency';
import { nextId } from '../db/ids';
import { ApiError, badRequest, notFound } from '../http/errors';
import { logger } from '../logger';
import { getQueue, jobWillRun, recordJobId } from '../queue';
import { checkedAfterLookup } from '../db/filters';
import {
  OnlineSaleModel,
  PaymentNoticeModel,
  SaleIdempotencyModel,
  SaleTransitionModel,
  SavedCardModel,
  type OnlineSale,
  type SaleIdempotencyRecord,
  type SaleOperation,
  type SaleStatus,
  type SaleTransition,
} from './model';

export const RECONCILE_QUEUE = 'sales-reconcile';
export const NOTICE_QUEUE = 'sales-notices';
export { SIGNATURE_HEADER };

export interface PreCaptureInput {
  payment_method: 'card' | 'pix';
  /** Cents. */
  value: number;
  installments: number;
  encrypted_card?: string;
  card_token?: string;
  save_card?: boolean;
  payer: { name: string; document?: string };
  order_reference?: string;
  pix_expires_in?: number;
}

/** What a route sends back: status, JSON body and extra headers. */
export interface SaleAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Who asks: a merchant, or the system token acting for every merchant (undefined). */
export type SaleScope = number | undefined;

/** A gateway failure that carries the sale it left behind. */
export class SaleGatewayError extends ApiError {
  constructor(
    sale: OnlineSale,
    readonly outcomeUnknown: boolean,
    cause?: AcquirerUnavailableError,
  ) {
    super(502, {
      detail: outcomeUnknown
        ? 'Payment gateway error: the acquirer did not answer in time. The outcome is being confirmed with the ' +
          'acquirer; the sale is settled automatically.'
        : cause instanceof AcquirerRejectedError
          ? `Payment gateway error: the acquirer refused the request ` +
            `(${cause.errors.map((e) => `${e.Code} ${e.Message}`).join('; ') || `HTTP ${cause.httpStatus}`}). ` +
            `Nothing was done.`
          : 'Payment gateway error: the acquirer could not be reached. Nothing was done.',
      sale_id: sale._id,
      sale_status: sale.status,
      reconciling: Boolean(sale.reconciliation),
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Presentation
// ---------------------------------------------------------------------------------------------

const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : null);

/** The sale status a reader sees: an unpaid PIX past its expiry is EXPIRED even before the acquirer says so. */
export function effectiveStatus(sale: OnlineSale, now = new Date()): SaleStatus {
  if (sale.status === 'PENDING' && sale.pix?.expiresAt && new Date(sale.pix.expiresAt).getTime() <= now.getTime())
    return 'EXPIRED';
  return sale.status;
}

const APPROVED_STATUSES: SaleStatus[] = ['PRE_CAPTURED', 'CONFIRMED', 'PENDING', 'CANCELLED', 'REFUNDED', 'EXPIRED'];

export function presentSale(sale: OnlineSale, extra: { cardToken?: string } = {}) {
  const status = effectiveStatus(sale);
  return {
    id: sale._id,
    approved: APPROVED_STATUSES.includes(sale.status),
    sale_status: status,
    payment_method: sale.paymentMethod,
    value: sale.amountCents,
    installments: sale.installments,
    order_reference: sale.orderReference,
    card: sale.card ? { brand: sale.card.brand, bin: sale.card.bin, last4: sale.card.last4 } : null,
    ...(extra.cardToken ? { card_token: extra.cardToken } : {}),
    pix: sale.pix
      ? { qr_code: sale.pix.qrCode, expires_at: iso(sale.pix.expiresAt), paid_at: iso(sale.pix.paidAt) }
      : null,
    denial_code: sale.denial?.code ?? null,
    denial_message: sale.denial?.message ?? null,
    acquirer: {
      payment_id: sale.acquirer.paymentId,
      tid: sale.acquirer.tid,
      authorization_code: sale.acquirer.authorizationCode,
      proof_of_sale: sale.acquirer.proofOfSale,
    },
    reconciling: Boolean(sale.reconciliation),
    captured_at: iso(sale.capturedAt),
    cancelled_at: iso(sale.cancelledAt),
    refunded_at: iso(sale.refundedAt),
    created_at: iso(sale.createdAt),
    updated_at: iso(sale.updatedAt),
  };
}

function ok(sale: OnlineSale, extra: { cardToken?: string } = {}): SaleAnswer {
  return { status: 200, body: { status: 'success', data: presentSale(sale, extra) } };
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

async function findSale(scope: SaleScope, saleId: number): Promise<OnlineSale> {
  // By `_id` alone (see checkedAfterLookup); another merchant's sale is "not found": its existence is not revealed.
  const sale = await OnlineSaleModel.findById(saleId).lean();
  if (!sale || (scope !== undefined && sale.merchantId !== scope)) throw notFound('Sale not found.');
  return sale;
}

/** One job per reconciliation episode (a sale may need several over its life). */
async function enqueueReconciliation(saleId: number, fromStatus: SaleStatus, since: Date): Promise<void> {
  await getQueue(RECONCILE_QUEUE).add(
    'reconcile-sale',
    { saleId },
    { jobId: `reconcile-${saleId}-${fromStatus}-${since.getTime()}`, delay: 1000 },
  );
}

/** Records that an acquirer call's outcome is unknown and queues the job that finds it out. */
async function markForReconciliation(
  sale: OnlineSale,
  operation: SaleOperation,
  reason: string,
  inFlight = false,
): Promise<OnlineSale> {
  const reconciliation = { operation, fromStatus: sale.status, since: new Date(), reason, inFlight };
  const updated = await OnlineSaleModel.findOneAndUpdate(
    { _id: sale._id },
    { $set: { reconciliation, reconciling: true } },
    { new: true },
  ).lean();
  try {
    await enqueueReconciliation(sale._id, sale.status, reconciliation.since);
  } catch (error) {
    logger.error({ err: error, saleId: sale._id }, 'could not queue the reconciliation of a sale');
  }
  return updated ?? { ...sale, reconciliation };
}

/**
 * A 'settle' claim makes no acquirer call, only our writes of what the acquirer said: older than
 * this, its holder died and it is taken over. (Not the acquirer-call bound callMayStillBeRunningMs:
 * no call of ours can be running under it.)
 */
const SETTLE_CLAIM_LEASE_MS = 2 * 60_000;

/**
 * The transition claims: one document per state a sale leaves. A claim held by a settlement that
 * died (a notice or reconciliation writing what the acquirer said) is taken over once its lease is
 * over; a claim of an acquirer operation is never taken over here: its sale carries the
 * reconciling flag, and the stuck-reconciliation sweep releases it (see reconcileUnmarkedClaim for
 * one whose sale never got the flag).
 */
const transitions = new Claims<SaleTransition>(SaleTransitionModel, {
  startField: 'createdAt',
  leaseMs: (claim) => (claim.operation === 'settle' ? SETTLE_CLAIM_LEASE_MS : null),
});

type TransitionClaim =
  { claimed: true; claim: HeldClaim<SaleTransition> } | { claimed: false; held: SaleTransition | null };

/** Claims the transition out of `fromStatus`; not claimed when someone else holds it (`held`, as read). */
function claimTransition(
  saleId: number,
  fromStatus: SaleStatus,
  operation: SaleOperation | 'settle',
): Promise<TransitionClaim> {
  return transitions.claim(`${saleId}:${fromStatus}`, () => ({ saleId, fromStatus, operation }));
}

/**
 * Releases an operation's claim on behalf of its holder, once reconciliation learnt the call never
 * took effect (its holder may be dead). Exactly the claim read is released.
 */
async function releaseOperationClaim(saleId: number, fromStatus: SaleStatus): Promise<void> {
  const held = await transitions.read(`${saleId}:${fromStatus}`);
  if (held) await transitions.asRead(held).release();
}

/**
 * An operation known not to have taken effect: its claim is released, then its in-flight flag
 * cleared (in that order: while the flag is set every operation is refused, so nothing takes the
 * freed claim early, and a crash between the two leaves a flagged sale the sweep settles).
 */
async function abandonOperation(saleId: number, claim: HeldClaim<SaleTransition>): Promise<void> {
  await claim.release();
  await OnlineSaleModel.updateOne({ _id: saleId }, { $set: { reconciliation: null, reconciling: false } });
}

/** Our status for an acquirer status; null when it decides nothing. */
export function statusFromAcquirer(
  acquirerStatus: number,
  sale: Pick<OnlineSale, 'paymentMethod' | 'status'>,
): SaleStatus | null {
  const method = sale.paymentMethod;
  switch (acquirerStatus) {
    case AcquirerStatus.Authorized:
      return 'PRE_CAPTURED';
    case AcquirerStatus.PaymentConfirmed:
      return 'CONFIRMED';
    case AcquirerStatus.Denied:
      return 'DENIED';
    case AcquirerStatus.Voided:
      // The acquirer answers Voided (10) to a same-day cancel of a captured sale too: for us that is a refund.
      return sale.status === 'CONFIRMED' ? 'REFUNDED' : 'CANCELLED';
    case AcquirerStatus.Refunded:
      return 'REFUNDED';
    case AcquirerStatus.Pending:
      return method === 'pix' ? 'PENDING' : null;
    case AcquirerStatus.Aborted:
      return method === 'pix' ? 'EXPIRED' : 'FAILED';
    default:
      return null;
  }
}

/** The fields a status change writes, from what the acquirer said. */
function settledFields(
  sale: OnlineSale,
  status: SaleStatus,
  truth: Partial<AcquirerSale> & { status: number },
): Record<string, unknown> {
  const now = new Date();
  const set: Record<string, unknown> = {
    status,
    'acquirer.status': truth.status,
    reconciliation: null,
    reconciling: false,
  };
  if (truth.paymentId) {
    set['acquirer.paymentId'] = truth.paymentId;
    set.acquirerPaymentId = truth.paymentId;
  }
  if (truth.returnCode !== undefined) set['acquirer.returnCode'] = truth.returnCode;
  if (truth.returnMessage !== undefined) set['acquirer.returnMessage'] = truth.returnMessage;
  if (truth.tid) set['acquirer.tid'] = truth.tid;
  if (truth.proofOfSale) set['acquirer.proofOfSale'] = truth.proofOfSale;
  if (truth.authorizationCode) set['acquirer.authorizationCode'] = truth.authorizationCode;
  if (status === 'DENIED') set.denial = { code: truth.returnCode ?? '', message: truth.returnMessage ?? '' };
  if (status === 'CONFIRMED' && !sale.capturedAt) set.capturedAt = now;
  if (status === 'CANCELLED') set.cancelledAt = now;
  if (status === 'REFUNDED') set.refundedAt = now;
  if (sale.paymentMethod === 'pix') {
    const paidAt = status === 'CONFIRMED' ? (sale.pix?.paidAt ?? now) : (sale.pix?.paidAt ?? null);
    const qrCode = truth.qrCodeString ?? sale.pix?.qrCode;
    const expiresAt = truth.expiresAt ? new Date(truth.expiresAt) : (sale.pix?.expiresAt ?? null);
    if (qrCode) set.pix = { qrCode, expiresAt, paidAt };
  }
  return set;
}

/**
 * The sale as a `$set` of these fields (dotted paths included) leaves it: what an answer shows before the write is
 * sent.
 */
function withFieldsSet(sale: OnlineSale, set: Record<string, unknown>): OnlineSale {
  const moved = structuredClone(sale) as unknown as Record<string, unknown>;
  for (const [path, value] of Object.entries(set)) {
    const keys = path.split('.');
    let target = moved;
    for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
    target[keys[keys.length - 1]] = value;
  }
  return moved as unknown as OnlineSale;
}

/**
 * Moves a sale out of its status to what the acquirer said, in one write. `answerOf` gives the
 * answer to keep on the sale for Idempotency-Key replays (computed from the moved sale, so it is
 * stored by the same write); updatedAt is set here so that answer shows what is stored.
 */
async function moveSale(
  sale: OnlineSale,
  to: SaleStatus,
  truth: Partial<AcquirerSale> & { status: number },
  answerOf?: (moved: OnlineSale) => SaleAnswer,
): Promise<{ moved: OnlineSale; answer?: SaleAnswer }> {
  const set: Record<string, unknown> = { ...settledFields(sale, to, truth), updatedAt: new Date() };
  const moved = withFieldsSet(sale, set);
  const answer = answerOf?.(moved);
  if (answer) set.idempotentAnswer = storableAnswer(answer);
  const filter = { _id: sale._id, status: checkedAfterLookup(sale.status) };
  const updated = await OnlineSaleModel.findOneAndUpdate(
    filter,
    { $set: set },
    { new: true, timestamps: false },
  ).lean();
  if (!updated) throw new Error(`sale ${sale._id} left ${sale.status} while its transition was held`);
  return { moved: updated, answer };
}

// ---------------------------------------------------------------------------------------------
// Pre-capture
// ---------------------------------------------------------------------------------------------

interface PreparedPayment {
  card: ClearCard | null;
  cardToken: { token: string; brand: string; bin: string; last4: string } | null;
  document: string | null;
  documentType: 'CPF' | 'CNPJ' | null;
}

/** The clear card of a body that sends one encrypted; 400 when it cannot be read or is not accepted. */
function clearCardOf(input: PreCaptureInput): ClearCard | null {
  if (input.payment_method === 'pix' || !input.encrypted_card) return null;
  let card: ClearCard;
  try {
    card = decryptCard(input.encrypted_card);
  } catch (error) {
    if (error instanceof CardError) throw badRequest({ encrypted_card: [error.message] });
    throw error;
  }
  if (summarizeCard(card).brand === 'Unknown')
    throw badRequest({ encrypted_card: ['This card brand is not accepted.'] });
  return card;
}

async function preparePayment(
  merchantId: number,
  input: PreCaptureInput,
  clearCard: ClearCard | null,
): Promise<PreparedPayment> {
  let document: string | null = null;
  let documentType: 'CPF' | 'CNPJ' | null = null;
  if (input.payer.document) {
    document = normalizeDocument(input.payer.document);
    documentType = documentKind(document);
    if (!documentType)
      throw badRequest({
        'payer.document': ['Enter a valid CPF (11 digits) or CNPJ (14 characters) with correct check digits.'],
      });
  }
  if (input.payment_method === 'pix') return { card: null, cardToken: null, document, documentType };
  if (clearCard) return { card: clearCard, cardToken: null, document, documentType };
  // By `_id` alone (see checkedAfterLookup): a token saved by another merchant is unknown here.
  const found = await SavedCardModel.findById(sha256Hex(String(input.card_token))).lean();
  const saved = found?.merchantId === merchantId ? found : null;
  if (!saved) throw badRequest({ card_token: ['Unknown card token.'] });
  return {
    card: null,
    cardToken: { token: String(input.card_token), brand: saved.brand, bin: saved.bin, last4: saved.last4 },
    document,
    documentType,
  };
}

function cardAnswerFields(result: CardSaleResult) {
  return {
    status: result.status,
    paymentId: result.paymentId,
    returnCode: result.returnCode,
    returnMessage: result.returnMessage,
    tid: result.tid,
    proofOfSale: result.proofOfSale,
    authorizationCode: result.authorizationCode,
  };
}

function pixAnswerFields(result: PixChargeResult) {
  return {
    status: result.status,
    paymentId: result.paymentId,
    returnCode: result.returnCode,
    returnMessage: result.returnMessage,
    proofOfSale: result.proofOfSale,
    qrCodeString: result.qrCodeString,
    expiresAt: result.expiresAt,
  };
}

/** Runs one pre-capture: creates the sale, calls the acquirer once, records the answer. */
async function runPreCapture(
  merchantId: number,
  input: PreCaptureInput,
  clearCard: ClearCard | null,
  key: { recordId: string; bodyHash: string; recordCreatedAt: Date } | null,
): Promise<{ answer: SaleAnswer; sale: OnlineSale }> {
  const prepared = await preparePayment(merchantId, input, clearCard);
  const id = await nextId('online_sale');
  const merchantOrderId = `S${id}R${crypto.randomBytes(5).toString('hex')}`;
  const summary = prepared.card ? summarizeCard(prepared.card) : prepared.cardToken;
  const created = await OnlineSaleModel.create({
    _id: id,
    merchantId,
    merchantOrderId,
    orderReference: input.order_reference ?? null,
    paymentMethod: input.payment_method,
    amountCents: input.value,
    installments: input.installments,
    status: 'PROCESSING',
    payer: { name: input.payer.name, document: prepared.document, documentType: prepared.documentType },
    card: summary
      ? { brand: summary.brand, bin: summary.bin, last4: summary.last4, fromToken: Boolean(prepared.cardToken) }
      : null,
    idempotencyRecordId: key?.recordId ?? null,
    idempotencyRecordCreatedAt: key?.recordCreatedAt ?? null,
    idempotencyBodyHash: key?.bodyHash ?? null,
  });
  let sale = created.toObject() as OnlineSale;
  const customer = {
    name: input.payer.name,
    identity: prepared.document ?? undefined,
    identityType: prepared.documentType ?? undefined,
  };

  let cardResult: CardSaleResult | undefined;
  let pixResult: PixChargeResult | undefined;
  let failure: AcquirerUnavailableError | undefined;
  if (input.payment_method === 'pix') {
    try {
      pixResult = await createPixCharge({
        idempotencyKey: merchantOrderId,
        merchantOrderId,
        amountCents: input.value,
        customer,
        expiresInSeconds: input.pix_expires_in,
      });
    } catch (error) {
      if (!(error instanceof AcquirerUnavailableError)) throw error;
      failure = error;
    }
  } else {
    const card = prepared.card
      ? {
          number: prepared.card.number,
          holder: prepared.card.holder,
          expMonth: prepared.card.expMonth,
          expYear: prepared.card.expYear,
          cvv: prepared.card.cvv,
          brand: summary!.brand,
        }
      : { cardToken: prepared.cardToken!.token, brand: prepared.cardToken!.brand };
    const charge = await chargeCard({
      idempotencyKey: merchantOrderId,
      merchantOrderId,
      amountCents: input.value,
      installments: input.installments,
      capture: false,
      saveCard: Boolean(input.save_card && prepared.card),
      customer,
      card,
    });
    if (charge.outcome === 'answered') cardResult = charge.answer;
    else failure = charge.error;
  }
  if (failure) {
    const error = failure;
    logger.warn(
      { saleId: id, err: { message: error.message }, outcomeUnknown: error.outcomeUnknown },
      'pre-capture: acquirer unavailable',
    );
    if (error.outcomeUnknown) {
      sale = await markForReconciliation(sale, 'authorize', error.message, !error.answered);
      throw new SaleGatewayError(sale, true);
    }
    const stillProcessing = { _id: id, status: checkedAfterLookup('PROCESSING') };
    sale =
      (await OnlineSaleModel.findOneAndUpdate(stillProcessing, { $set: { status: 'FAILED' } }, { new: true }).lean()) ??
      sale;
    throw new SaleGatewayError(sale, false, error);
  }

  try {
    const truth = cardResult ? cardAnswerFields(cardResult) : pixAnswerFields(pixResult!);
    const to = statusFromAcquirer(truth.status, sale) ?? 'FAILED';
    let cardToken: string | undefined;
    if (cardResult?.approved && cardResult.cardToken && prepared.card) {
      // Saved before the sale is recorded, so the answer kept for replays can say the token was issued.
      const card = summarizeCard(prepared.card);
      await SavedCardModel.create({
        _id: sha256Hex(cardResult.cardToken),
        merchantId,
        brand: card.brand,
        bin: card.bin,
        last4: card.last4,
      });
      cardToken = cardResult.cardToken;
    }
    const answerOf = (moved: OnlineSale) => ok(moved, { cardToken });
    const recorded = await moveSale(sale, to, truth, key ? answerOf : undefined);
    sale = recorded.moved;
    return { answer: recorded.answer ?? answerOf(sale), sale };
  } catch (error) {
    // The acquirer acted but we could not record it: let reconciliation record it.
    await markForReconciliation(sale, 'authorize', 'recording the acquirer answer failed').catch(() => undefined);
    throw error;
  }
}

/**
 * The answer kept for Idempotency-Key replays, without the card token: the token is shown once
 * and stored only as a hash, so a replay says it was issued instead of repeating it.
 */
function storableAnswer(answer: SaleAnswer): { status: number; body: Record<string, unknown> } {
  const data = answer.body.data as Record<string, unknown> | undefined;
  if (!data || data.card_token === undefined) return { status: answer.status, body: answer.body };
  const { card_token: _omitted, ...rest } = data;
  return { status: answer.status, body: { ...answer.body, data: { ...rest, card_token_issued: true } } };
}

/** Clock steps between processes are far below this; a key's earlier use is at least 24 hours older. */
const KEY_CLOCK_TOLERANCE_MS = 60_000;

/** The newest sale an Idempotency-Key record id made (a key used again after 24 hours makes another). */
function newestSaleOfKey(recordId: string): Promise<OnlineSale | null> {
  return OnlineSaleModel.findOne({ idempotencyRecordId: recordId }).sort({ createdAt: -1 }).lean();
}

/**
 * That sale, when the record read made it, not an earlier use of the key: the sale names its
 * record's createdAt. (A use freed after a FAILED sale is taken again at once, so a time window
 * could mistake the failed use's sale for the new one's and free the new use's live record.)
 * Sales from before that field fall back on the window.
 */
function madeByRecord(sale: OnlineSale | null, keyCreatedAt: Date): OnlineSale | null {
  if (!sale) return null;
  const keyTime = new Date(keyCreatedAt).getTime();
  if (sale.idempotencyRecordCreatedAt)
    return new Date(sale.idempotencyRecordCreatedAt).getTime() === keyTime ? sale : null;
  return new Date(sale.createdAt).getTime() >= keyTime - KEY_CLOCK_TOLERANCE_MS ? sale : null;
}

/**
 * Pre-capture's Idempotency-Key records (src/payments/idempotency.ts). The answer a pre-capture gave
 * is kept on its sale with the body hash (written with the acquirer's answer), not in the record: a
 * replay reads only the sale. Anything else (another body, a request still running or being
 * reconciled, a key whose answer was missed) reads the record too.
 */
function saleKeys(recordId: string, merchantId: number, bodyHash: string): KeyBook<SaleIdempotencyRecord, SaleAnswer> {
  let newest: OnlineSale | null = null; // read by keptAnswer, once per attempt, before workOf
  return {
    model: SaleIdempotencyModel,
    newRecord: () => ({ merchantId, bodyHash, state: 'in_progress' }),
    hashOf: (record) => record.bodyHash,
    answerOf: (record) => record.response as SaleAnswer | null,
    keptAnswer: async () => {
      newest = await newestSaleOfKey(recordId);
      // A sale that kept an answer was made by the key's live record: the record is at most a few ms
      // older than its sale, and a key is freed or replaced only when no answer was kept.
      const live =
        newest && Date.now() - new Date(newest.createdAt).getTime() < IDEMPOTENCY_WINDOW_MS - KEY_CLOCK_TOLERANCE_MS;
      if (!live || !newest?.idempotentAnswer || !newest.idempotencyBodyHash) return null;
      return { requestHash: newest.idempotencyBodyHash, answer: newest.idempotentAnswer as SaleAnswer };
    },
    workOf: async (record, ageMs) => {
      const sale = madeByRecord(newest, record.createdAt);
      if (!sale) {
        // A process that died before creating its sale left the key "in progress" with nothing done:
        // once no request could still be running, the key is free again. (With a sale, the
        // scheduler's sweep reconciles it and completes the key.)
        return record.state === 'in_progress' && ageMs > callMayStillBeRunningMs() ? 'free' : 'running';
      }
      // The answer the first request gave (if its body differs from this one's: 422).
      if (sale.idempotentAnswer) return { answer: sale.idempotentAnswer as SaleAnswer };
      // No kept answer: the sale may be settled while the key missed the answer (a process died before
      // recording it, or a late write of the failure path landed over reconciliation's): the sale's
      // own record is the answer. FAILED: nothing was charged, the key is free, as reconciliation
      // would have left it.
      if (sale.status === 'FAILED' && !sale.reconciliation) return 'free';
      if (sale.status === 'PROCESSING' || sale.reconciliation) return 'running';
      const response = storableAnswer(ok(sale));
      await SaleIdempotencyModel.updateOne(recordOfUse(recordId, record.createdAt), {
        $set: { state: 'done', saleId: sale._id, response },
      });
      return { answer: response as SaleAnswer };
    },
  };
}

/** The request a key compares: an encrypted card by its fingerprint (it encrypts differently every time). */
function hashedRequest(input: PreCaptureInput, card: ClearCard | null): string {
  if (!card) return requestHash(input);
  return requestHash({ ...input, encrypted_card: undefined, card_fingerprint: cardFingerprint(card) });
}

/**
 * POST /online/sales/pre-capture/. With an Idempotency-Key, the first answer is kept for 24 hours
 * and replayed for the same key and body; another body with the key is 422; a request while the
 * first is still running (or its outcome is being confirmed) is 409.
 */
export async function preCapture(
  merchantId: number,
  input: PreCaptureInput,
  idempotencyKey?: string,
): Promise<SaleAnswer> {
  // Read before the key: the key compares the card, not its encryption.
  const card = clearCardOf(input);
  if (!idempotencyKey) return (await runPreCapture(merchantId, input, card, null)).answer;
  const recordId = `${merchantId}:${idempotencyKey}`;
  const bodyHash = hashedRequest(input, card);
  const key = await useIdempotencyKey(saleKeys(recordId, merchantId, bodyHash), recordId, bodyHash);
  if (key.use === 'other-request') {
    throw new ApiError(422, {
      detail: 'This Idempotency-Key was already used with a different request body. Use a new key for a new sale.',
    });
  }
  if (key.use === 'replay')
    return { ...key.answer, headers: { ...(key.answer.headers ?? {}), 'Idempotent-Replayed': 'true' } };
  if (key.use === 'busy') {
    throw new ApiError(
      409,
      {
        detail: key.reconciling
          ? 'The first request with this Idempotency-Key timed out at the acquirer; its outcome is being ' +
            'confirmed. Retry later to get its answer.'
          : 'A request with this Idempotency-Key is still being processed. Retry later to get its answer.',
      },
      { 'Retry-After': '2' },
    );
  }
  const recordCreatedAt = key.createdAt;
  try {
    // The answer is kept on the sale by the write that recorded it (see saleKeys): the record stays as inserted.
    return (await runPreCapture(merchantId, input, card, { recordId, bodyHash, recordCreatedAt })).answer;
  } catch (error) {
    await settleIdempotencyKeyAfterFailure(recordId, recordCreatedAt, error).catch((settleError) =>
      logger.error(
        { err: { message: (settleError as Error).message }, recordId },
        'could not settle an Idempotency-Key after a failed pre-capture; it stays in progress',
      ),
    );
    throw error;
  }
}

/**
 * After a failed pre-capture, the key is freed only when nothing can have been charged: a retry
 * with it must never authorize a second time. Freed: the acquirer refused the request or could not
 * be reached (the sale is FAILED), or no sale was ever created. Otherwise the acquirer may have
 * acted (its answer came and recording it failed, or no answer came): the key waits for
 * reconciliation, which writes the true answer into it; a sale already settled gets its answer now.
 * When the sale cannot even be read, the key stays in progress (409) and the sweeps settle it.
 */
async function settleIdempotencyKeyAfterFailure(recordId: string, keyCreatedAt: Date, error: unknown): Promise<void> {
  // (runPreCapture turns every acquirer failure, a refusal included, into a SaleGatewayError.)
  const refusedOrUnreachable =
    error instanceof SaleGatewayError && !error.outcomeUnknown && error.body.sale_status === 'FAILED';
  if (refusedOrUnreachable) {
    await freeKey(SaleIdempotencyModel, recordId, keyCreatedAt);
    return;
  }
  const sale = madeByRecord(await newestSaleOfKey(recordId), keyCreatedAt);
  if (!sale) {
    // Failed before any sale existed (bad input, an id or database error): nothing was sent.
    await freeKey(SaleIdempotencyModel, recordId, keyCreatedAt);
    return;
  }
  if (sale.reconciliation || sale.status === 'PROCESSING') {
    await SaleIdempotencyModel.updateOne(recordOfUse(recordId, keyCreatedAt), {
      $set: { state: 'reconciling', saleId: sale._id },
    });
    return;
  }
  const answer = ok(sale);
  await SaleIdempotencyModel.updateOne(recordOfUse(recordId, keyCreatedAt), {
    $set: { state: 'done', saleId: sale._id, response: storableAnswer(answer) },
  });
}

// ---------------------------------------------------------------------------------------------
// Capture and cancel
// ---------------------------------------------------------------------------------------------

function refuseInvalidState(sale: OnlineSale, action: 'captured' | 'cancelled'): never {
  if (sale.paymentMethod === 'pix') throw new ApiError(400, { detail: `A PIX sale cannot be ${action}.` });
  if (sale.reconciliation) {
    throw new ApiError(
      409,
      { detail: 'The outcome of the last acquirer call on this sale is being confirmed. Retry later.' },
      { 'Retry-After': '2' },
    );
  }
  const allowed = action === 'captured' ? 'a PRE_CAPTURED card sale' : 'a PRE_CAPTURED or CONFIRMED card sale';
  throw new ApiError(400, { detail: `Only ${allowed} can be ${action}; this sale is ${sale.status}.` });
}

interface Operation {
  from: SaleStatus;
  to: SaleStatus;
  operation: SaleOperation;
  /** Acquirer statuses that mean the operation took effect. */
  acquirerStatuses: number[];
  call: (
    sale: OnlineSale,
    requestKey: string,
  ) => Promise<{
    status: number;
    returnCode: string;
    returnMessage: string;
    tid?: string;
    proofOfSale?: string;
    authorizationCode?: string;
  }>;
}

/**
 * An operation's claim on a sale that never got its in-flight mark: its process died between the
 * two writes (the mark is written before any acquirer call), or is still between them. Once that is
 * older than the stuck-reconciliation bound, the sale is marked as its holder would have marked it,
 * so reconciliation asks the acquirer and releases the claim; otherwise the sale would refuse every
 * operation for good with nothing to settle it.
 */
async function reconcileUnmarkedClaim(sale: OnlineSale, held: SaleTransition): Promise<void> {
  if (held.operation === 'settle' || Date.now() - new Date(held.createdAt).getTime() < STUCK_RECONCILIATION_MS) return;
  const reconciliation = {
    operation: held.operation,
    fromStatus: held.fromStatus,
    since: new Date(held.createdAt),
    reason: 'claimed, never marked: its process died before the acquirer call',
    inFlight: true,
  };
  const unmarked = { _id: sale._id, status: checkedAfterLookup(held.fromStatus), reconciliation: null };
  await OnlineSaleModel.updateOne(unmarked, { $set: { reconciliation, reconciling: true } });
  logger.warn(
    { saleId: sale._id, operation: held.operation },
    'an operation claim without its in-flight mark: reconciling the sale',
  );
  await enqueueReconciliation(sale._id, held.fromStatus, reconciliation.since).catch((error) =>
    logger.error(
      { err: error, saleId: sale._id },
      'could not queue the reconciliation of a sale; the stuck-reconciliation sweep will',
    ),
  );
}

/** Moves a card sale out of `op.from` through the acquirer, once, whatever runs at the same time. */
async function runOperation(sale: OnlineSale, op: Operation, action: 'captured' | 'cancelled'): Promise<SaleAnswer> {
  const transition = await claimTransition(sale._id, op.from, op.operation);
  if (!transition.claimed) {
    const current = await OnlineSaleModel.findById(sale._id).lean();
    if (current && current.status === op.from && !current.reconciliation) {
      if (transition.held) await reconcileUnmarkedClaim(current, transition.held);
      throw new ApiError(
        409,
        { detail: `Another operation on this sale is in progress. Retry later.` },
        { 'Retry-After': '1' },
      );
    }
    refuseInvalidState(current ?? sale, action);
  }
  // The intent is recorded before the call: should this process die from here on, the sale carries
  // the reconciling flag and the stuck-reconciliation sweep asks the acquirer and releases the
  // claim; without it the claim would block the sale for good. Settling the sale clears it.
  await OnlineSaleModel.updateOne(
    { _id: sale._id },
    {
      $set: {
        reconciliation: {
          operation: op.operation,
          fromStatus: op.from,
          since: new Date(),
          reason: 'acquirer call in flight',
          inFlight: true,
        },
        reconciling: true,
      },
    },
  );
  let result: Awaited<ReturnType<Operation['call']>>;
  // A fresh RequestId per claimed attempt: a retry after a known failure is a new request, and
  // must not be answered with the acquirer's stored refusal of the earlier one.
  const requestKey = `${sale.merchantOrderId}:${op.operation}:${crypto.randomUUID()}`;
  try {
    result = await op.call(sale, requestKey);
  } catch (error) {
    if (!(error instanceof AcquirerUnavailableError)) {
      await abandonOperation(sale._id, transition.claim);
      throw error;
    }
    logger.warn(
      {
        saleId: sale._id,
        operation: op.operation,
        err: { message: error.message },
        outcomeUnknown: error.outcomeUnknown,
      },
      'acquirer unavailable',
    );
    if (error.outcomeUnknown) {
      const marked = await markForReconciliation(sale, op.operation, error.message);
      throw new SaleGatewayError(marked, true);
    }
    if (error instanceof AcquirerRejectedError && error.httpStatus === 400) {
      // "Not capturable / not voidable": the acquirer's state differs from ours; learn it.
      const marked = await markForReconciliation(sale, op.operation, error.message);
      throw new SaleGatewayError(marked, false, error);
    }
    await abandonOperation(sale._id, transition.claim);
    throw new SaleGatewayError(sale, false, error);
  }
  if (!op.acquirerStatuses.includes(result.status)) {
    await abandonOperation(sale._id, transition.claim);
    throw new ApiError(502, {
      detail: `Payment gateway error: the acquirer answered status ${result.status} to the ${op.operation}.`,
      sale_id: sale._id,
      sale_status: sale.status,
      reconciling: false,
    });
  }
  try {
    return ok((await moveSale(sale, op.to, result)).moved);
  } catch (error) {
    // Someone wrote the same outcome first (a notice of this very operation): that is success.
    const current = await OnlineSaleModel.findById(sale._id).lean();
    if (current?.status === op.to) return ok(current);
    throw error;
  }
}

export async function captureOnlineSale(scope: SaleScope, saleId: number): Promise<SaleAnswer> {
  const sale = await findSale(scope, saleId);
  if (sale.paymentMethod !== 'card' || sale.status !== 'PRE_CAPTURED' || sale.reconciliation)
    refuseInvalidState(sale, 'captured');
  return runOperation(
    sale,
    {
      from: 'PRE_CAPTURED',
      to: 'CONFIRMED',
      operation: 'capture',
      acquirerStatuses: [AcquirerStatus.PaymentConfirmed],
      call: (s, requestKey) => captureAtAcquirer(s.acquirer.paymentId!, { idempotencyKey: requestKey }),
    },
    'captured',
  );
}

export const VOID_ON_CONFIRMED_DISABLED =
  "This sale is CONFIRMED and the merchant's allow_void_on_confirmed setting is off, so a confirmed sale " +
  'cannot be cancelled (refunded).';

export async function cancelOnlineSale(scope: SaleScope, saleId: number): Promise<SaleAnswer> {
  const sale = await findSale(scope, saleId);
  if (
    sale.paymentMethod !== 'card' ||
    sale.reconciliation ||
    (sale.status !== 'PRE_CAPTURED' && sale.status !== 'CONFIRMED')
  )
    refuseInvalidState(sale, 'cancelled');
  if (sale.status === 'PRE_CAPTURED') {
    return runOperation(
      sale,
      {
        from: 'PRE_CAPTURED',
        to: 'CANCELLED',
        operation: 'void',
        acquirerStatuses: [AcquirerStatus.Voided],
        call: (s, requestKey) => voidSale(s.acquirer.paymentId!, { idempotencyKey: requestKey }),
      },
      'cancelled',
    );
  }
  const merchant = await getMerchant(sale.merchantId);
  if (!merchant?.settings?.allowVoidOnConfirmed) throw new ApiError(400, { detail: VOID_ON_CONFIRMED_DISABLED });
  return runOperation(
    sale,
    {
      from: 'CONFIRMED',
      to: 'REFUNDED',
      operation: 'refund',
      acquirerStatuses: [AcquirerStatus.Refunded, AcquirerStatus.Voided],
      call: (s, requestKey) => voidSale(s.acquirer.paymentId!, { idempotencyKey: requestKey }),
    },
    'cancelled',
  );
}

/** GET /online/sales/{id}/: the stored sale (how a merchant learns a reconciled outcome). */
export async function readOnlineSale(scope: SaleScope, saleId: number): Promise<SaleAnswer> {
  return ok(await findSale(scope, saleId));
}

// ---------------------------------------------------------------------------------------------
// PIX status (stored data only: never calls the acquirer)
// ---------------------------------------------------------------------------------------------

export async function pixStatus(scope: SaleScope, saleId: number): Promise<SaleAnswer> {
  const sale = await findSale(scope, saleId);
  if (sale.paymentMethod !== 'pix') throw new ApiError(400, { detail: 'This sale was not paid by PIX.' });
  const status = effectiveStatus(sale);
  return {
    status: 200,
    body: {
      status: 'success',
      data: {
        id: sale._id,
        sale_status: status,
        paid: status === 'CONFIRMED' || status === 'REFUNDED',
        value: sale.amountCents,
        qr_code: sale.pix?.qrCode ?? null,
        expires_at: iso(sale.pix?.expiresAt),
        paid_at: iso(sale.pix?.paidAt),
        reconciling: Boolean(sale.reconciliation),
        updated_at: iso(sale.updatedAt),
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Reconciliation and notifications
// ---------------------------------------------------------------------------------------------

/**
 * Asks the acquirer for the true state of a sale whose last call had an unknown outcome and
 * settles it. Throws AcquirerUnavailableError while the acquirer cannot answer (the job retries).
 */
export async function reconcileSale(saleId: number, now = new Date()): Promise<string> {
  return reconcileReadSale(await OnlineSaleModel.findById(saleId).lean(), now);
}

/** reconcileSale, for a sale just read (a notice found it). */
async function reconcileReadSale(sale: OnlineSale | null, now = new Date()): Promise<string> {
  // The sweep waited out the grace before queueing; here expiry alone decides.
  if (sale && !sale.reconciliation && isUnnoticedPixPastExpiry(sale, now, 0)) {
    // Its payment notice may have been lost: the acquirer says whether it was paid or expired.
    const truth = await getSale(sale.acquirer.paymentId!);
    return truth
      ? `pix past expiry: ${await settleToAcquirer(sale, truth)}`
      : 'the acquirer does not know this PaymentId';
  }
  if (!sale?.reconciliation) return 'nothing to reconcile';
  const { operation, fromStatus } = sale.reconciliation;
  if (
    operation !== 'authorize' &&
    sale.reconciliation.inFlight &&
    Date.now() - new Date(sale.reconciliation.since).getTime() < callMayStillBeRunningMs()
  ) {
    // A capture, cancel or refund call is running right now (its process sets this mark before
    // calling and settles the sale itself): reading the acquirer now could undo what it writes.
    // A notice retries; the stuck-reconciliation sweep comes back if the process died.
    throw new Error(`sale ${sale._id}: a ${operation} call is in flight; its own process settles the sale`);
  }
  const truth = sale.acquirer.paymentId
    ? await getSale(sale.acquirer.paymentId)
    : (await findCharge(sale.merchantOrderId)).sale;

  if (operation === 'authorize') {
    const sent = { at: new Date(sale.createdAt), mayStillRun: Boolean(sale.reconciliation.inFlight) };
    if (!truth && !noSaleIsConclusive(sent)) {
      // A call that timed out may still be running at the acquirer: "no such sale" proves nothing
      // yet. Retried (the job's backoff) until no call could still be running.
      throw new Error(
        `the acquirer has no sale for order ${sale.merchantOrderId} yet; asking again until the call cannot ` +
          `still be running`,
      );
    }
    if (!(await claimTransition(sale._id, 'PROCESSING', 'settle')).claimed) {
      // Someone holds the settlement of this sale: a concurrent run (it writes the same acquirer
      // truth), or a run that died before writing. Either way the sale may be moved by this truth:
      // the move is conditional on PROCESSING, so at most the same values are written twice.
      const current = await OnlineSaleModel.findById(sale._id).lean();
      if (!current || current.status !== 'PROCESSING' || !current.reconciliation) return 'already settled';
    }
    const to = truth ? (statusFromAcquirer(truth.status, sale) ?? 'FAILED') : 'FAILED';
    const { moved: settled } = await moveSale(sale, to, truth ?? { status: AcquirerStatus.NotFinished });
    if (sale.idempotencyRecordId) {
      if (truth) {
        const answer = ok(settled);
        await SaleIdempotencyModel.updateOne(recordOfUse(sale.idempotencyRecordId, sale.idempotencyRecordCreatedAt), {
          $set: { state: 'done', response: { status: answer.status, body: answer.body } },
        });
      } else {
        // Nothing happened at the acquirer: the key may be used again.
        await freeKey(SaleIdempotencyModel, sale.idempotencyRecordId, sale.idempotencyRecordCreatedAt);
      }
    }
    return truth ? `authorization settled as ${to}` : 'the acquirer has no such sale: FAILED, nothing charged';
  }

  if (!truth) throw new Error(`the acquirer does not know payment ${sale.acquirer.paymentId} of sale ${sale._id}`);
  const to = statusFromAcquirer(truth.status, sale);
  if (!to || to === fromStatus) {
    // The call never took effect: the sale stays as it was and may be operated again. The claim is
    // released before the reconciling flag is cleared: while the flag is set every operation is
    // refused, so nothing can take the freed claim early, and a crash between the two writes
    // leaves a flagged sale the sweep settles again, never an unflagged sale locked for good.
    await releaseOperationClaim(sale._id, fromStatus);
    await OnlineSaleModel.updateOne(
      { _id: sale._id },
      { $set: { reconciliation: null, reconciling: false, 'acquirer.status': truth.status } },
    );
    return `${operation} did not happen; ${fromStatus} kept`;
  }
  try {
    await moveSale(sale, to, truth);
  } catch (error) {
    // Another reconciliation of the same episode (the sweep's) settled it first.
    const current = await OnlineSaleModel.findById(sale._id).lean();
    if (current && !current.reconciliation) return 'already settled';
    throw error;
  }
  return `${operation} settled as ${to}`;
}

/** Moves a sale to what the acquirer says, guarded like every transition. */
async function settleToAcquirer(sale: OnlineSale, truth: AcquirerSale): Promise<string> {
  const to = statusFromAcquirer(truth.status, sale);
  if (!to || to === sale.status) return `no change (${sale.status})`;
  if (!(await claimTransition(sale._id, sale.status, 'settle')).claimed) {
    const current = await OnlineSaleModel.findById(sale._id).lean();
    if (current?.status === to) return `no change (${to})`;
    throw new Error(`sale ${sale._id} is being moved out of ${sale.status} by another operation; try again`);
  }
  await moveSale(sale, to, truth);
  return `${sale.status} -> ${to}`;
}

export class InvalidNoticeSignature extends ApiError {
  constructor() {
    super(401, { detail: `Invalid or missing ${SIGNATURE_HEADER} signature.` });
  }
}

export function signNotice(rawBody: string | Buffer, secret = getConfig().acquirer.notificationSecret): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/**
 * Intake of an acquirer card/PIX notification: checks the HMAC (constant time), stores the raw
 * notice (one document per body) and queues its application. Answers at once; the worker does
 * the rest.
 */
export async function receivePaymentNotice(
  rawBody: Buffer | undefined,
  signature: string | undefined,
): Promise<SaleAnswer> {
  if (!rawBody?.length || typeof signature !== 'string' || !safeEqual(signature.trim(), signNotice(rawBody)))
    throw new InvalidNoticeSignature();
  const raw = rawBody.toString('utf8');
  let notice: { PaymentId?: unknown; ChangeType?: unknown };
  try {
    notice = JSON.parse(raw);
  } catch {
    throw badRequest({ non_field_errors: ['The body is not JSON.'] });
  }
  const fields: Record<string, string[]> = {};
  if (typeof notice.PaymentId !== 'string' || !notice.PaymentId) fields.PaymentId = ['PaymentId is required.'];
  if (!Number.isInteger(notice.ChangeType)) fields.ChangeType = ['ChangeType must be an integer.'];
  if (Object.keys(fields).length) throw badRequest(fields);
  const noticeId = sha256Hex(raw);
  let jobId = recordJobId('notice', noticeId);
  const record = { _id: noticeId, raw, paymentId: notice.PaymentId, changeType: notice.ChangeType, jobId };
  const duplicate = (await insertOnce(PaymentNoticeModel, { ...record, receivedAt: new Date() })) === 'exists';
  if (duplicate) {
    // Queued again under the record's job (a no-op while that job exists): a notice stored before
    // Redis failed still gets applied. One stored before job ids were kept gets a new one.
    const stored = await PaymentNoticeModel.findById(noticeId, { appliedAt: 1, jobId: 1 }).lean();
    if (stored?.appliedAt) return { status: 200, body: { received: true, duplicate } };
    jobId = stored?.jobId ?? jobId;
  }
  await getQueue(NOTICE_QUEUE).add('apply-payment-notice', { noticeId }, { jobId });
  return { status: 200, body: { received: true, duplicate } };
}

export class NoticeNotYetMatched extends Error {}

/** Applies a stored notice: asks the acquirer for the sale's state and settles ours to it, once. */
export async function applyPaymentNotice(noticeId: string): Promise<string> {
  const notice = await PaymentNoticeModel.findById(noticeId).lean();
  if (!notice) return 'unknown notice';
  if (notice.appliedAt) return `already applied: ${notice.result}`;
  let result: string;
  if (notice.changeType !== 1) {
    result = `change type ${notice.changeType} is not handled by online sales`;
  } else {
    let sale = await OnlineSaleModel.findOne({ acquirerPaymentId: notice.paymentId }).lean();
    let truth: AcquirerSale | null | undefined;
    if (!sale) {
      // Not found by the indexed PaymentId: the sale may predate that field. The acquirer names the
      // order id (unique index) instead of a scan by the nested acquirer.paymentId.
      truth = await getSale(notice.paymentId);
      const byOrder = truth ? await OnlineSaleModel.findOne({ merchantOrderId: truth.merchantOrderId }).lean() : null;
      // Only a sale that recorded this PaymentId: a pre-capture still waiting for its answer settles it itself.
      sale = byOrder?.acquirer.paymentId === notice.paymentId ? byOrder : null;
    }
    // The notice may arrive before the pre-capture recorded the PaymentId: the job retries.
    if (!sale) throw new NoticeNotYetMatched(`no sale has PaymentId ${notice.paymentId} yet`);
    if (sale.reconciliation) {
      result = await reconcileReadSale(sale);
    } else {
      truth ??= await getSale(notice.paymentId);
      result = truth ? await settleToAcquirer(sale, truth) : 'the acquirer does not know this PaymentId';
    }
  }
  await PaymentNoticeModel.updateOne(
    { _id: noticeId, appliedAt: null },
    { $set: { appliedAt: new Date(), applied: true, result } },
  );
  return result;
}

/** Records that a notice could not be matched to a sale after every retry. */
export async function giveUpOnNotice(noticeId: string, reason: string): Promise<void> {
  await PaymentNoticeModel.updateOne(
    { _id: noticeId, appliedAt: null },
    { $set: { appliedAt: new Date(), applied: true, result: `not applied: ${reason}` } },
  );
}

const SWEEP_BATCH = 500;
const STUCK_RECONCILIATION_MS = 10 * 60_000;
/** A PIX paid in its last second may be notified a little after its expiry: wait this long before asking. */
const PIX_EXPIRY_GRACE_MS = 2 * 60_000;
/**
 * Asked again every 10 minutes for this long after its expiry (the acquirer may be down, or still
 * report it open); after that it is left PENDING (it reads EXPIRED) for an operator, so sales the
 * acquirer never settles do not fill every sweep.
 */
const PIX_EXPIRY_ASK_WINDOW_MS = 2 * 24 * 3600_000;
/** A stored notice still unapplied after this long lost its job (or never got one): queue it again. */
const UNAPPLIED_NOTICE_GRACE_MS = 5 * 60_000;

/** A PENDING PIX whose expiry (plus a grace) has passed with no notice applied: paid or expired, we must ask. */
function isUnnoticedPixPastExpiry(sale: OnlineSale, now: Date, graceMs = PIX_EXPIRY_GRACE_MS): boolean {
  return (
    sale.paymentMethod === 'pix' &&
    sale.status === 'PENDING' &&
    Boolean(sale.acquirer.paymentId) &&
    Boolean(sale.pix?.expiresAt) &&
    new Date(sale.pix!.expiresAt!).getTime() < now.getTime() - graceMs
  );
}

/**
 * Scheduler task: queues reconciliation for sales whose settlement was lost: PROCESSING long
 * after any acquirer call could still be running (the web process died mid-call), a PIX still
 * PENDING two minutes past its expiry (its notice never came or was lost), or marked for
 * reconciliation longer than 10 minutes (every retry of the job failed). Job ids are per sale and
 * 10-minute bucket, so several schedulers queue each sale once per bucket.
 */
export async function sweepUnsettledSales(now = new Date()): Promise<void> {
  const staleProcessing = new Date(now.getTime() - callMayStillBeRunningMs());
  const stuckSince = new Date(now.getTime() - STUCK_RECONCILIATION_MS);
  const bucket = Math.floor(now.getTime() / STUCK_RECONCILIATION_MS);
  const trusted = <T>(operator: T): T => mongoose.trusted(operator) as T;
  const pixExpiredBefore = new Date(now.getTime() - PIX_EXPIRY_GRACE_MS);
  const [orphans, stuck, unnoticedPix] = await Promise.all([
    OnlineSaleModel.find({ status: 'PROCESSING', reconciliation: null, createdAt: trusted({ $lt: staleProcessing }) })
      .limit(SWEEP_BATCH)
      .lean(),
    OnlineSaleModel.find({ reconciling: true, 'reconciliation.since': trusted({ $lt: stuckSince }) })
      .limit(SWEEP_BATCH)
      .lean(),
    OnlineSaleModel.find({
      paymentMethod: 'pix',
      status: 'PENDING',
      reconciliation: null,
      'pix.expiresAt': trusted({ $lt: pixExpiredBefore, $gt: new Date(now.getTime() - PIX_EXPIRY_ASK_WINDOW_MS) }),
    })
      .sort({ 'pix.expiresAt': 1 })
      .limit(SWEEP_BATCH)
      .lean(),
  ]);
  for (const sale of orphans) {
    const reconciliation = {
      operation: 'authorize' as const,
      fromStatus: 'PROCESSING' as const,
      since: now,
      reason: 'left PROCESSING without an answer',
    };
    const stillOrphan = { _id: sale._id, status: checkedAfterLookup('PROCESSING'), reconciliation: null };
    await OnlineSaleModel.updateOne(stillOrphan, { $set: { reconciliation, reconciling: true } });
  }
  const queue = getQueue(RECONCILE_QUEUE);
  for (const sale of [...orphans, ...stuck, ...unnoticedPix]) {
    await queue.add('reconcile-sale', { saleId: sale._id }, { jobId: `reconcile-${sale._id}-sweep-${bucket}` });
  }
  if (orphans.length + stuck.length + unnoticedPix.length) {
    logger.warn(
      { orphans: orphans.length, stuck: stuck.length, unnoticedPix: unnoticedPix.length },
      'queued reconciliation of unsettled online sales',
    );
  }
}

/**
 * Scheduler task: a stored payment notice still unapplied after 5 minutes lost its job (Redis lost
 * its data, or the enqueue failed after the store and the acquirer did not retry): queue it again,
 * or retry its failed job. Without this a paid PIX would read PENDING until its expiry sweep.
 */
export async function requeueUnappliedPaymentNotices(now = new Date()): Promise<number> {
  const receivedBefore = new Date(now.getTime() - UNAPPLIED_NOTICE_GRACE_MS);
  const stale = await PaymentNoticeModel.find(
    { applied: false, receivedAt: mongoose.trusted({ $lt: receivedBefore }) },
    { _id: 1, jobId: 1 },
  )
    .sort({ receivedAt: 1 })
    .limit(SWEEP_BATCH)
    .lean();
  const queue = getQueue(NOTICE_QUEUE);
  let queued = 0;
  for (const { _id, jobId } of stale) {
    // Whatever became of its job (completed without applying, failed for good, removed, never added),
    // only one that will still run by itself is left to run. Applying is idempotent.
    if (await jobWillRun(queue, jobId)) continue;
    const next = recordJobId('notice', _id);
    // Recorded first: if the add then fails, the next sweep finds no job under it and adds again.
    await PaymentNoticeModel.updateOne({ _id, applied: false }, { $set: { jobId: next } });
    await queue.add('apply-payment-notice', { noticeId: _id }, { jobId: next });
    queued++;
  }
  if (queued) logger.warn({ notices: queued }, 'queued again payment notices left unapplied');
  return queued;
}

/**
 * What an operator should look at, counted at /metrics scrape time: sales whose reconciliation has
 * run for over 10 minutes (the acquirer cannot tell us, or the job keeps failing), PIX sales past
 * the sweep's two-day window still unsettled, and payment notices unapplied for over 15 minutes.
 */
export async function salesNeedingAttention(now = new Date()): Promise<Record<string, number>> {
  const trusted = <T>(operator: T): T => mongoose.trusted(operator) as T;
  const [reconciling, pix, notices] = await Promise.all([
    OnlineSaleModel.countDocuments({
      reconciling: true,
      'reconciliation.since': trusted({ $lt: new Date(now.getTime() - STUCK_RECONCILIATION_MS) }),
    }),
    OnlineSaleModel.countDocuments({
      paymentMethod: 'pix',
      status: 'PENDING',
      'pix.expiresAt': trusted({ $lt: new Date(now.getTime() - PIX_EXPIRY_ASK_WINDOW_MS) }),
    }),
    PaymentNoticeModel.countDocuments({
      applied: false,
      receivedAt: trusted({ $lt: new Date(now.getTime() - 3 * UNAPPLIED_NOTICE_GRACE_MS) }),
    }),
  ]);
  return {
    sale_reconciling_over_10m: reconciling,
    pix_unsettled_after_2d: pix,
    payment_notice_unapplied_over_15m: notices,
  };
}
