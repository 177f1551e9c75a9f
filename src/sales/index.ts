/**
 * Online sale rules: pre-capture (card or PIX), capture, cancel-capture, PIX status, acquirer
 * notifications and reconciliation of calls whose outcome is unknown. Knows nothing of Express:
 * routes, jobs and tests call these functions. The payment is src/payments': it writes it, and
 * runs its acquirer calls, claims and moves; this area says what the sales API accepts, answers
 * and owes (its events, its kept answers). One file per part:
 *
 * - pre-capture.ts and idempotency-keys.ts: pre-capture and its Idempotency-Key rules;
 * - operations.ts: capture, cancel, and the stored reads;
 * - settlement.ts: reconciliation and notices (src/payments) with what a sale's settling owes;
 * - notices.ts: the acquirer's notices received (signature, shape), then stored and applied by src/payments;
 * - presentation.ts: the sale as the API shows it.
 *
 * Every one-time effect is guarded by an insert under a unique index (src/payments/model.ts holds the
 * payment and those guard documents):
 *  - an Idempotency-Key record before a pre-capture does any work;
 *  - a transition document "<saleId>:<fromStatus>" before a capture, void or refund reaches the
 *    acquirer, and before a notice or reconciliation moves the sale;
 *  - one stored notice per notification body.
 */
export { preCapture } from './pre-capture';
export type { PreCaptureInput, SaleAnswer } from './schemas';
export {
  captureOnlineSale,
  pixStatus,
  readOnlineSale,
  refuseVoidOnConfirmedUnlessAllowed,
  VOID_ON_CONFIRMED_DISABLED,
  voidOrRefuseCancel,
} from './operations';
export { applyPaymentNotice, reconcileSale } from './settlement';
export { InvalidNoticeSignature, receivePaymentNotice, signNotice } from './notices';
export { effectiveSaleStatus, statusFromAcquirer } from '../payments/state-table';
export { presentSale, type PreCaptureResult } from './presentation';

export { cancelSaleDoc } from './swagger';
export type { SaleGatewayErrorBody } from './schemas';
export { idempotencyKeyHeader, MAX_SALE_VALUE, partOfSaleValue, saleIdParams } from './schemas';
export {
  backfillSettledSaleTids,
  findSettledSale,
  recordSettledSale,
  recordSettledSaleTid,
  SALES_WITHOUT_TOP_LEVEL_TID,
  settledSaleOrderId,
  type SettledSaleInput,
} from './settled-sales';
