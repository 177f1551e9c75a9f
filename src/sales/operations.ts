/**
 * Capture and cancel (void or refund) of a card sale, and the stored reads (sale, PIX status):
 * each operation claims its transition, marks the sale in flight, calls the acquirer once, and
 * moves the sale to what the acquirer answered.
 */
import crypto from 'node:crypto';
import { AcquirerUnavailableError } from '../acquirer/errors';
import {
  AcquirerRejectedError,
  captureSale as captureAtAcquirer,
  voidSale,
  type PaymentUpdateResult,
} from '../acquirer/client';
import { getMerchant } from '../merchants/service';
import { checkedAfterLookup } from '../db/filters';
import { ApiError, badRequest } from '../platform/errors';
import { logger } from '../platform/logger';
import { PaymentModel, type Payment, type SaleTransition } from '../payments/model';
import { iso, presentSale } from './presentation';
import type { CaptureInput, PixStatusAnswer, SaleAnswer } from './schemas';
import { effectiveSaleStatus, SALE_OPERATIONS } from '../payments/state-table';
import {
  abandonOperation,
  claimTransition,
  enqueueReconciliation,
  findSale,
  markForReconciliation,
  moveSale,
  STUCK_RECONCILIATION_MS,
  type SaleScope,
} from '../payments/transitions';
import { SALE_MOVE } from './events';
import { SaleGatewayError } from './errors';

function refuseInvalidState(sale: Payment, action: 'captured' | 'cancelled'): never {
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

type CardOperation = keyof typeof SALE_OPERATIONS;

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

/** Moves a card sale out of `op.from` through the acquirer, once, whatever runs at the same time. */
async function runOperation(
  sale: Payment,
  operation: CardOperation,
  action: 'captured' | 'cancelled',
  amountCents?: number,
): Promise<SaleAnswer> {
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
    return presentSale(await moveSale(sale, op.to, truth, SALE_MOVE));
  } catch (error) {
    // Someone wrote the same outcome first (a notice of this very operation): that is success.
    const current = await PaymentModel.findById(sale._id).lean();
    if (current?.status === op.to) return presentSale(current);
    throw error;
  }
}

/**
 * Captures a pre-captured card sale: all of it, or `value` cents of it (a partial capture, once: the
 * acquirer releases the rest of the authorization and takes no further capture).
 */
export async function captureOnlineSale(
  scope: SaleScope,
  saleId: number,
  input: CaptureInput = {},
): Promise<SaleAnswer> {
  const sale = await findSale(scope, saleId);
  if (sale.paymentMethod !== 'card' || sale.status !== 'PRE_CAPTURED' || sale.reconciliation)
    refuseInvalidState(sale, 'captured');
  if (input.value !== undefined && input.value > sale.amountCents)
    throw badRequest({ value: [`Must be at most the authorized value (${sale.amountCents} cents).`] });
  // The whole value is sent as a capture without an amount, as the contract's capture always was.
  const partial = input.value !== undefined && input.value < sale.amountCents ? input.value : undefined;
  return runOperation(sale, 'capture', 'captured', partial);
}

export const VOID_ON_CONFIRMED_DISABLED =
  "This sale is CONFIRMED and the merchant's allow_void_on_confirmed setting is off, so a confirmed sale " +
  'cannot be cancelled (refunded).';

/**
 * Cancel-capture of a sale already read: a PRE_CAPTURED card sale is voided (CANCELLED); any other
 * state is refused with its reason. The refund of a CONFIRMED card sale (the contract's other
 * cancel-capture) is a full refund through the refunds core, which owns the route
 * (src/refunds/cancel-capture.ts) and calls this for the rest.
 */
export async function voidOrRefuseCancel(sale: Payment): Promise<SaleAnswer> {
  if (sale.paymentMethod !== 'card' || sale.reconciliation || sale.status !== 'PRE_CAPTURED')
    refuseInvalidState(sale, 'cancelled');
  return runOperation(sale, 'void', 'cancelled');
}

/** Whether the merchant lets a CONFIRMED sale be cancelled (refunded whole): else the contract's 400. */
export async function refuseVoidOnConfirmedUnlessAllowed(sale: Payment): Promise<void> {
  const merchant = await getMerchant(sale.merchantId);
  if (!merchant?.settings?.allowVoidOnConfirmed) throw new ApiError(400, { detail: VOID_ON_CONFIRMED_DISABLED });
}

/** GET /online/sales/{id}/: the stored sale (how a merchant learns a reconciled outcome). */
export async function readOnlineSale(scope: SaleScope, saleId: number): Promise<SaleAnswer> {
  return presentSale(await findSale(scope, saleId));
}

export async function pixStatus(scope: SaleScope, saleId: number): Promise<PixStatusAnswer> {
  const sale = await findSale(scope, saleId);
  if (sale.paymentMethod !== 'pix') throw new ApiError(400, { detail: 'This sale was not paid by PIX.' });
  const status = effectiveSaleStatus(sale);
  return {
    id: sale._id,
    // The states a PIX sale moves through (state-table.ts); the answer passes the stored one on as it is.
    sale_status: status as PixStatusAnswer['sale_status'],
    paid: status === 'CONFIRMED' || status === 'PARTIALLY_REFUNDED' || status === 'REFUNDED',
    value: sale.amountCents,
    qr_code: sale.pix?.qrCode ?? null,
    expires_at: iso(sale.pix?.expiresAt),
    paid_at: iso(sale.pix?.paidAt),
    reconciling: Boolean(sale.reconciliation),
    updated_at: iso(sale.updatedAt),
  };
}
