/**
 * The contract's cancel-capture (`PUT /api/v1/online/sales/{id}/cancel-capture/`, operationId
 * cancelSale). A PRE_CAPTURED card sale is voided by the sales area; a CONFIRMED card sale (only
 * with the merchant's allow_void_on_confirmed) is refunded whole through this core: the same
 * admission slot (so it never races a refund into more than was captured), the same send lane and
 * 5 s spacing, the same settlement from VoidedAmount. The answers stay the contract's: the sale
 * (200, REFUNDED), 400 for what cannot be cancelled, 409 while another operation holds the sale,
 * 502 when the acquirer refused or did not answer.
 */
import { getConfig } from '../../config';
import { ApiError } from '../platform/errors';
import {
  presentSale,
  refuseVoidOnConfirmedUnlessAllowed,
  voidOrRefuseCancel,
  type SaleAnswer,
  type SaleGatewayErrorBody,
} from '../sales';
import { findSale, type SaleScope } from '../payments/transitions';
import { PaymentModel, type Payment } from '../payments/model';
import { admitWithTurn, recordAdmission } from './admission';
import { RefundModel, type Refund } from '../payments/refund-model';
import { CANCEL_SPACING_MS } from './outcomes';
import { capturedValueOf } from './sending';

/**
 * A whole refund waiting its turn (the lane busy, the spacing after a failed one) is awaited this long: the
 * spacing, and a delayed turn that a loaded worker may start a few seconds late.
 */
const TURN_WAIT_MS = CANCEL_SPACING_MS + 5_000;

export async function cancelCapture(scope: SaleScope, saleId: number): Promise<SaleAnswer> {
  const sale = await findSale(scope, saleId);
  if (sale.paymentMethod !== 'card' || sale.status !== 'CONFIRMED' || sale.reconciliation)
    return voidOrRefuseCancel(sale);
  await refuseVoidOnConfirmedUnlessAllowed(sale);
  let latest: Refund;
  try {
    // The whole of it: a sale another refund took part of (since the read above) is refused by the admission.
    ({ latest } = await admitWithTurn(sale, { value: capturedValueOf(sale) }, null, () => {}));
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) throw await refusalOfPartlyTaken(sale);
    throw error;
  }
  await recordAdmission(latest);
  // Settled in its turn, or waiting for the lane's holder (or the spacing after a failed one): awaited.
  const settled = latest.status === 'pending' ? await settledOrInFlight(latest) : latest;
  if (settled.status === 'succeeded') {
    const current = await PaymentModel.findById(sale._id).lean();
    return presentSale(current ?? sale);
  }
  throw gatewayError(sale, settled);
}

/** Another refund took part of the sale first: 400 once it moved the sale, 409 while it is pending. */
async function refusalOfPartlyTaken(sale: Payment): Promise<ApiError> {
  const current = (await PaymentModel.findById(sale._id).lean()) ?? sale;
  if (current.status !== 'CONFIRMED')
    return new ApiError(400, {
      detail:
        `Only a PRE_CAPTURED or CONFIRMED card sale can be cancelled; this sale is ${current.status} ` +
        '(refund what is left with POST .../refunds/).',
    });
  return new ApiError(
    409,
    { detail: 'Another operation on this sale is in progress (a refund). Retry later.' },
    { 'Retry-After': '1' },
  );
}

/**
 * The refund once settled, or still pending: not sent within TURN_WAIT_MS, or sent and its answer still
 * not back once the call's time is up (its headers and its body may each take the acquirer's timeout).
 * Sent is not an answer: returning then would call a void still running "no answer in time".
 */
async function settledOrInFlight(admitted: Refund): Promise<Refund> {
  const turnUntil = Date.now() + TURN_WAIT_MS;
  const callMs = 2 * getConfig().acquirer.timeoutMs + 1_000;
  for (;;) {
    const refund = (await RefundModel.findById(admitted._id).lean()) ?? admitted;
    if (refund.status !== 'pending') return refund;
    const until = refund.sent ? new Date(refund.sent.at).getTime() + callMs : turnUntil;
    if (Date.now() > until) return refund;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The contract's 502: the acquirer refused (nothing was done), or its outcome is being confirmed. */
function gatewayError(sale: Payment, refund: Refund): ApiError {
  const pending = refund.status === 'pending';
  const body: SaleGatewayErrorBody = {
    detail: pending
      ? 'Payment gateway error: the acquirer did not answer in time. The outcome is being confirmed with the ' +
        `acquirer; the sale is settled automatically (refund ${refund._id}).`
      : `Payment gateway error: the acquirer refused the request (${refund.acquirerCode ?? 'no code'} ` +
        `${refund.failureReason ?? ''}). Nothing was done.`,
    sale_id: sale._id,
    sale_status: sale.status,
    reconciling: pending,
  };
  return new ApiError(502, body);
}
