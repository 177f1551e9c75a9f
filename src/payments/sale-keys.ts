/**
 * A pre-capture's Idempotency-Key records, on the shared module (idempotency.ts): the answer is kept on the
 * payment; a key is freed only when nothing can have been charged. The answer a settled payment gives is the
 * caller's to say (`answerOf`: the sales API's presentation), so this knows no area's.
 */
import { callMayStillBeRunningMs } from '../acquirer/client';
import { freeKey, IDEMPOTENCY_WINDOW_MS, recordOfUse, type KeyBook } from './idempotency';
import { PaymentModel, SaleIdempotencyModel, type Payment, type SaleIdempotencyRecord } from './model';
import { SaleGatewayError } from './gateway-error';

/** The answer kept for a key's replays. */
export type KeptKeyAnswer = NonNullable<Payment['idempotentAnswer']>;
/** The answer a settled payment gives a key's later uses. */
export type AnswerOfPayment = (payment: Payment) => KeptKeyAnswer;

/** Clock steps between processes are far below this; a key's earlier use is at least 24 hours older. */
const KEY_CLOCK_TOLERANCE_MS = 60_000;

/** The newest sale an Idempotency-Key record id made (a key used again after 24 hours makes another). */
function newestSaleOfKey(recordId: string): Promise<Payment | null> {
  return PaymentModel.findOne({ idempotencyRecordId: recordId }).sort({ createdAt: -1 }).lean();
}

/**
 * That sale, when the record read made it, not an earlier use of the key: the sale names its
 * record's createdAt. (A use freed after a FAILED sale is taken again at once, so a time window
 * could mistake the failed use's sale for the new one's and free the new use's live record.)
 * Sales from before that field fall back on the window.
 */
function madeByRecord(sale: Payment | null, keyCreatedAt: Date): Payment | null {
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
export function saleKeys(
  recordId: string,
  merchantId: number,
  answerOf: AnswerOfPayment,
): KeyBook<SaleIdempotencyRecord, KeptKeyAnswer> {
  let newest: Payment | null = null; // read by keptAnswer, once per attempt, before workOf
  return {
    model: SaleIdempotencyModel,
    newRecord: (_createdAt, bodyHash) => ({ merchantId, bodyHash, state: 'in_progress' }),
    hashOf: (record) => record.bodyHash,
    answerOf: (record) => record.response as KeptKeyAnswer | null,
    keptAnswer: async () => {
      newest = await newestSaleOfKey(recordId);
      // A sale that kept an answer was made by the key's live record: the record is at most a few ms
      // older than its sale, and a key is freed or replaced only when no answer was kept.
      const live =
        newest && Date.now() - new Date(newest.createdAt).getTime() < IDEMPOTENCY_WINDOW_MS - KEY_CLOCK_TOLERANCE_MS;
      if (!live || !newest?.idempotentAnswer || !newest.idempotencyBodyHash) return null;
      return { requestHash: newest.idempotencyBodyHash, answer: newest.idempotentAnswer as KeptKeyAnswer };
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
      if (sale.idempotentAnswer) return { answer: sale.idempotentAnswer as KeptKeyAnswer };
      // No kept answer: the sale may be settled while the key missed the answer (a process died before
      // recording it, or a late write of the failure path landed over reconciliation's): the sale's
      // own record is the answer. FAILED: nothing was charged, the key is free, as reconciliation
      // would have left it.
      if (sale.status === 'FAILED' && !sale.reconciliation) return 'free';
      if (sale.status === 'PROCESSING' || sale.reconciliation) return 'running';
      return { answer: await recordDone(recordId, record.createdAt, sale, answerOf) };
    },
  };
}

/**
 * After a failed pre-capture, the key is freed only when nothing can have been charged: a retry
 * with it must never authorize a second time. Freed: the acquirer refused the request or could not
 * be reached (the sale is FAILED), or no sale was ever created. Otherwise the acquirer may have
 * acted (its answer came and recording it failed, or no answer came): the key waits for
 * reconciliation, which writes the true answer into it; a sale already settled gets its answer now.
 * When the sale cannot even be read, the key stays in progress (409) and the sweeps settle it.
 */
export async function settleIdempotencyKeyAfterFailure(
  recordId: string,
  keyCreatedAt: Date,
  error: unknown,
  answerOf: AnswerOfPayment,
): Promise<void> {
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
  await recordDone(recordId, keyCreatedAt, sale, answerOf);
}

/** Completes a key's record with its settled sale's answer, which every later use replays. */
async function recordDone(
  recordId: string,
  createdAt: Date,
  sale: Payment,
  answerOf: AnswerOfPayment,
): Promise<KeptKeyAnswer> {
  const response = answerOf(sale);
  await SaleIdempotencyModel.updateOne(recordOfUse(recordId, createdAt), {
    $set: { state: 'done', saleId: sale._id, response },
  });
  return response;
}
