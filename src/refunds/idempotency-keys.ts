/**
 * A refund request's Idempotency-Key, on the one module (src/payments/idempotency.ts): the first
 * answer is kept in the key's record; a request that died before its refund existed frees the key,
 * and one that died after is answered from its refund.
 */
import { callMayStillBeRunningMs } from '../acquirer/client';
import { ApiError } from '../platform/errors';
import { freeKey, recordOfUse, requestHash, useIdempotencyKey, type KeyBook } from '../payments/idempotency';
import { RefundIdempotencyModel, RefundModel, type RefundIdempotencyRecord } from '../payments/refund-model';
import { presentRefund } from './presentation';
import type { RefundInput } from './schemas';
import { refundSale, type RefundOutcome } from './admission';

function refundKeys(recordId: string, merchantId: number): KeyBook<RefundIdempotencyRecord, RefundOutcome> {
  return {
    model: RefundIdempotencyModel,
    newRecord: (_createdAt, bodyHash) => ({ merchantId, bodyHash, state: 'in_progress' }),
    hashOf: (record) => record.bodyHash,
    answerOf: (record) =>
      record.response
        ? {
            httpStatus: record.response.status as 201 | 202,
            refund: record.response.body as RefundOutcome['refund'],
          }
        : null,
    workOf: async (record, ageMs) => {
      const made = await RefundModel.findOne({
        idempotencyRecordId: recordId,
        idempotencyRecordCreatedAt: record.createdAt,
      }).lean();
      // Its process died after admitting the refund: the refund as it was first is the answer.
      if (made) return { answer: { httpStatus: 202, refund: presentRefund({ ...made, status: 'pending' }) } };
      return ageMs > callMayStillBeRunningMs() ? 'free' : 'running';
    },
  };
}

/** A refund request with an Idempotency-Key: replays the first answer, refuses another body (422). */
export async function refundSaleWithKey(
  merchantId: number,
  saleId: number,
  input: RefundInput,
  key: string,
): Promise<RefundOutcome & { replayed: boolean }> {
  const recordId = `${merchantId}:${key}`;
  const use = await useIdempotencyKey(refundKeys(recordId, merchantId), recordId, requestHash({ saleId, input }));
  if (use.use === 'replay') return { ...use.answer, replayed: true };
  if (use.use === 'other-request') {
    throw new ApiError(422, {
      detail: 'This Idempotency-Key was already used with a different request. Use a new key for a new refund.',
    });
  }
  if (use.use === 'busy') {
    throw new ApiError(409, { detail: 'The first request with this Idempotency-Key is still running. Retry later.' });
  }
  let outcome: RefundOutcome;
  try {
    outcome = await refundSale(merchantId, saleId, input, { recordId, createdAt: use.createdAt });
  } catch (error) {
    // Refused before any refund was admitted (its rules, a lost race for what is left): the corrected
    // request may use the key.
    if (!(await RefundModel.exists({ idempotencyRecordId: recordId, idempotencyRecordCreatedAt: use.createdAt })))
      await freeKey(RefundIdempotencyModel, recordId, use.createdAt);
    throw error;
  }
  await RefundIdempotencyModel.updateOne(recordOfUse(recordId, use.createdAt), {
    $set: {
      state: 'done',
      refundId: outcome.refund.id,
      response: { status: outcome.httpStatus, body: outcome.refund },
    },
  });
  return { ...outcome, replayed: false };
}
