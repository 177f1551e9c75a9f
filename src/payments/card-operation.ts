/**
 * Capture and void of a card payment at the acquirer: each claims its transition, marks the payment in flight, calls
 * the acquirer once, and moves the payment to what the acquirer answered. The refunds core voids through
 * src/refunds; the routes' rules (what may be captured, how much) are src/sales/operations.ts'.
 */
import crypto from 'node:crypto';
import { AcquirerUnavailableError } from '../acquirer/errors';
import {
  AcquirerRejectedError,
  captureSale as captureAtAcquirer,
  voidSale,
  type PaymentUpdateResult,
} from '../acquirer/client';
import { checkedAfterLookup } from '../db/filters';
import { ApiError } from '../platform/errors';
import { logger } from '../platform/logger';
import { PaymentModel, type Payment, type SaleTransition } from './model';
import { SALE_OPERATIONS } from './state-table';
import {
  abandonOperation,
  claimTransition,
  enqueueReconciliation,
  markForReconciliation,
  moveSale,
  STUCK_RECONCILIATION_MS,
  type MoveOwes,
} from './transitions';
import { SaleGatewayError } from './gateway-error';

export function refuseInvalidState(sale: Payment, action: 'captured' | 'cancelled'): never {
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

export type CardOperation = keyof typeof SALE_OPERATIONS;

/** The acquirer call of each operation of the state table (a refund is a void of a captured sale there). */
const ACQUIRER_CALLS: Record<
  CardOperation,
  (paymentId: string, options: { idempotencyKey: string; amountCents?: number }) => Promise<PaymentUpdateResult>
> = { capture: captureAtAcquirer, void: voidSale, refund: voidSale };

/**
 * An operation's claim on a sale that never got its in-flight mark: its process died between the
 * two writes (the mark is written before any acquirer call), or is still between them. Once that is
 * older than the stuck-reconciliation bound, the sale is marked as its holder would have marked it,
 * so reconciliation asks the acquirer and releases the claim; otherwise the sale would refuse every
 * operation for good with nothing to settle it.
 */
async function reconcileUnmarkedClaim(sale: Payment, held: SaleTransition): Promise<void> {
  if (held.operation === 'settle' || Date.now() - new Date(held.createdAt).getTime() < STUCK_RECONCILIATION_MS) return;
  const reconciliation = {
    operation: held.operation,
    fromStatus: held.fromStatus,
    since: new Date(held.createdAt),
    reason: 'claimed, never marked: its process died before the acquirer call',
    inFlight: true,
  };
  const unmarked = { _id: sale._id, status: checkedAfterLookup(held.fromStatus), reconciliation: null };
  await PaymentModel.updateOne(unmarked, { $set: { reconciliation, reconciling: true } });
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

/**
 * Moves a card payment out of `op.from` through the acquirer, once, whatever runs at the same time, in the phases
 * every operation has: claim the transition, mark the payment in flight, call the acquirer once, move the payment to
 * what it answered (with what the move owes, `owes`). The moved payment.
 */
export async function runCardOperation(
  sale: Payment,
  operation: CardOperation,
  action: 'captured' | 'cancelled',
  owes: MoveOwes,
  amountCents?: number,
): Promise<Payment> {
  const op = { ...SALE_OPERATIONS[operation], operation };
  const transition = await claimTransition(sale._id, op.from, op.operation);
  if (!transition.claimed) {
    const current = await PaymentModel.findById(sale._id).lean();
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
  await PaymentModel.updateOne(
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
  let result: PaymentUpdateResult;
  // A fresh RequestId per claimed attempt: a retry after a known failure is a new request, and
  // must not be answered with the acquirer's stored refusal of the earlier one.
  const requestKey = `${sale.merchantOrderId}:${op.operation}:${crypto.randomUUID()}`;
  try {
    result = await ACQUIRER_CALLS[operation](sale.acquirer.paymentId!, { idempotencyKey: requestKey, amountCents });
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
    // The capture's answer does not echo the amount: what was asked is what was captured.
    const truth =
      operation === 'capture' ? { ...result, capturedAmountCents: amountCents ?? sale.amountCents } : result;
    return await moveSale(sale, op.to, truth, owes);
  } catch (error) {
    // Someone wrote the same outcome first (a notice of this very operation): that is success.
    const current = await PaymentModel.findById(sale._id).lean();
    if (current?.status === op.to) return current;
    throw error;
  }
}
