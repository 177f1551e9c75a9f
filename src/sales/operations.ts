/**
 * Capture and cancel (void or refund) of a card sale as the sales API asks them, and the stored reads (sale, PIX
 * status); the acquirer call and the move are src/payments/card-operation.ts'.
 */
import { getMerchant } from '../merchants/service';
import { ApiError, badRequest } from '../platform/errors';
import type { Payment } from '../payments/model';
import { iso, presentSale } from './presentation';
import type { CaptureInput, PixStatusAnswer, SaleAnswer } from './schemas';
import { effectiveSaleStatus } from '../payments/state-table';
import { findSale, type SaleScope } from '../payments/transitions';
import { refuseInvalidState, runCardOperation } from '../payments/card-operation';
import { SALE_MOVE } from './events';

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
  return presentSale(await runCardOperation(sale, 'capture', 'captured', SALE_MOVE, partial));
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
  return presentSale(await runCardOperation(sale, 'void', 'cancelled', SALE_MOVE));
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
