/**
 * Pre-capture: creates the sale, authorizes the card once through the one card-charge path
 * (src/payments/card-charge.ts) or creates the PIX charge, and records the acquirer's answer.
 * The Idempotency-Key rules are in idempotency-keys.ts.
 */
import crypto from 'node:crypto';
import { AcquirerUnavailableError } from '../acquirer/errors';
import { createPixCharge, type CardSaleResult, type PixChargeResult } from '../acquirer/client';
import { summarizeCard, type ClearCard } from '../cards';
import { documentKind, normalizeDocument } from '../platform/brazilian-documents';
import { nextId } from '../db/ids';
import { ApiError, badRequest } from '../platform/errors';
import { logger } from '../platform/logger';
import { chargeCard } from '../payments/card-charge';
import { useIdempotencyKey } from '../payments/idempotency';
import type { Payment } from '../payments/model';
import { failUnchargedPayment, openPayment } from '../payments/opening';
import { keepSavedCard, savedCardOf } from '../payments/saved-cards';
import { hashedRequest, saleKeys, settleIdempotencyKeyAfterFailure } from './idempotency-keys';
import { keptAnswerOf, saleOfAnswer, storableAnswer, type KeptAnswer, type PreCaptureResult } from './presentation';
import { saleMoveEvent } from './events';
import { statusFromAcquirer } from '../payments/state-table';
import { markForReconciliation, moveSale } from '../payments/transitions';
import { SaleGatewayError } from '../payments/gateway-error';
import type { PreCaptureInput } from './schemas';
import { checkPreCapture, INVALID_PAYER_DOCUMENT } from './pre-capture-checks';

interface PreparedPayment {
  card: ClearCard | null;
  cardToken: { token: string; brand: string; bin: string; last4: string } | null;
  document: string | null;
  documentType: 'CPF' | 'CNPJ' | null;
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
    // checkPreCapture refused a bad one already: this only keeps the type honest.
    if (!documentType) throw badRequest({ 'payer.document': [INVALID_PAYER_DOCUMENT] });
  }
  if (input.payment_method === 'pix') return { card: null, cardToken: null, document, documentType };
  if (clearCard) return { card: clearCard, cardToken: null, document, documentType };
  const saved = await savedCardOf(merchantId, String(input.card_token));
  if (!saved) throw badRequest({ card_token: ['Unknown card token.'] });
  return {
    card: null,
    cardToken: { token: String(input.card_token), brand: saved.brand, bin: saved.bin, last4: saved.last4 },
    document,
    documentType,
  };
}

/** What the acquirer answered a card sale or a PIX charge, as a move of the sale records it. */
function answerFields(result: CardSaleResult | PixChargeResult) {
  const { status, paymentId, returnCode, returnMessage, proofOfSale } = result;
  const card = 'approved' in result ? result : null;
  const pix = 'qrCodeString' in result ? result : null;
  return {
    status,
    paymentId,
    returnCode,
    returnMessage,
    proofOfSale,
    ...(card ? { tid: card.tid, authorizationCode: card.authorizationCode } : {}),
    ...(pix ? { qrCodeString: pix.qrCodeString, expiresAt: pix.expiresAt } : {}),
  };
}

/** Runs one pre-capture: creates the sale, calls the acquirer once, records the answer. */
async function runPreCapture(
  merchantId: number,
  input: PreCaptureInput,
  clearCard: ClearCard | null,
  key: { recordId: string; bodyHash: string; recordCreatedAt: Date } | null,
): Promise<{ answer: KeptAnswer; sale: Payment }> {
  const prepared = await preparePayment(merchantId, input, clearCard);
  const id = await nextId('online_sale');
  const merchantOrderId = `S${id}R${crypto.randomBytes(5).toString('hex')}`;
  const summary = prepared.card ? summarizeCard(prepared.card) : prepared.cardToken;
  let sale = await openPayment({
    _id: id,
    merchantId,
    merchantOrderId,
    orderReference: input.order_reference ?? null,
    paymentMethod: input.payment_method,
    amountCents: input.value,
    installments: input.installments,
    payer: { name: input.payer.name, document: prepared.document, documentType: prepared.documentType },
    card: summary
      ? { brand: summary.brand, bin: summary.bin, last4: summary.last4, fromToken: Boolean(prepared.cardToken) }
      : null,
    idempotencyRecordId: key?.recordId ?? null,
    idempotencyRecordCreatedAt: key?.recordCreatedAt ?? null,
    idempotencyBodyHash: key?.bodyHash ?? null,
  });
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
    sale = await failUnchargedPayment(sale);
    throw new SaleGatewayError(sale, false, error);
  }

  try {
    const truth = answerFields(cardResult ?? pixResult!);
    const to = statusFromAcquirer(truth.status, sale) ?? 'FAILED';
    let cardToken: string | undefined;
    if (cardResult?.approved && cardResult.cardToken && prepared.card) {
      // Saved before the sale is recorded, so the answer kept for replays can say the token was issued.
      const { brand, bin, last4 } = summarizeCard(prepared.card);
      await keepSavedCard(merchantId, cardResult.cardToken, { brand, bin, last4 });
      cardToken = cardResult.cardToken;
    }
    const answerOf = (moved: Payment) => keptAnswerOf(moved, { cardToken });
    const keep = key ? (moved: Payment) => storableAnswer(answerOf(moved)) : undefined;
    sale = await moveSale(sale, to, truth, { event: saleMoveEvent, answer: keep });
    return { answer: answerOf(sale), sale };
  } catch (error) {
    // The acquirer acted but we could not record it: let reconciliation record it.
    await markForReconciliation(sale, 'authorize', 'recording the acquirer answer failed').catch(() => undefined);
    throw error;
  }
}

/**
 * POST /online/sales/pre-capture/. With an Idempotency-Key, the first answer is kept for 24 hours
 * and replayed for the same key and body; another body with the key is 422; a request while the
 * first is still running (or its outcome is being confirmed) is 409.
 */
export async function preCapture(
  merchantId: number,
  body: unknown,
  idempotencyKey?: string,
): Promise<PreCaptureResult> {
  // Checked whole, the card read, before the key: one 400 names every bad field, and the key compares the
  // card, not its encryption.
  const { input, card } = checkPreCapture(body, idempotencyKey);
  if (!idempotencyKey)
    return { sale: saleOfAnswer((await runPreCapture(merchantId, input, card, null)).answer), replayed: false };
  const recordId = `${merchantId}:${idempotencyKey}`;
  const bodyHashes = hashedRequest(input, card);
  const key = await useIdempotencyKey(saleKeys(recordId, merchantId), recordId, bodyHashes);
  if (key.use === 'other-request') {
    throw new ApiError(422, {
      detail: 'This Idempotency-Key was already used with a different request body. Use a new key for a new sale.',
    });
  }
  if (key.use === 'replay') return { sale: saleOfAnswer(key.answer), replayed: true };
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
  const bodyHash = bodyHashes[0]; // the current key's, as the record keeps
  try {
    // The answer is kept on the sale by the write that recorded it (see saleKeys): the record stays as inserted.
    const { answer } = await runPreCapture(merchantId, input, card, { recordId, bodyHash, recordCreatedAt });
    return { sale: saleOfAnswer(answer), replayed: false };
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
