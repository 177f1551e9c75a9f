/**
 * Refunds of captured card sales: partial and repeated, up to what was captured, sent to the
 * acquirer one at a time per sale and reconciled against its cumulative VoidedAmount. Knows nothing
 * of Express: routes, jobs and tests call these functions. One file per part:
 *
 * - admission.ts and idempotency-keys.ts: a refund request, its rules and its key;
 * - sending.ts and outcomes.ts: the send lane, the acquirer's answers, unknown outcomes;
 * - cancel-capture.ts: the contract's cancel-capture of a CONFIRMED sale, a whole refund through this core;
 * - chargebacks.ts: an accepted chargeback's hold on the sale's value, under the same slots;
 * - notices.ts: a PIX refund completes by the acquirer's notice, settled from its GET;
 * - subscription-charges.ts: refundSubscriptionCharge, a charge's refunds as its sale's;
 * - second-payments.ts: a link's QR code paid after the link was, given back (the notice's and the tick's);
 * - origins.ts: a refund's outcome told to what its sale stands for (a subscription charge, a paid link);
 * - reads.ts, presentation.ts: the stored reads; sweeps.ts: the scheduler's task and /metrics counts.
 */
export { refundSale, REFUND_WINDOW_DAYS, type RefundOutcome } from './admission';
export { refundSaleWithKey } from './idempotency-keys';
export { sendPendingRefunds } from './sending';
export { settleRefundsOnNotice } from './notices';
export { cancelCapture } from './cancel-capture';
export { holdSaleForChargeback, settleChargebackHold, type ChargebackHold } from './chargebacks';
export { listSaleRefunds, readRefund } from './reads';
export { refundsNeedingAttention, sweepPendingRefunds } from './sweeps';
export { refundSubscriptionCharge, type ChargeRefundOutcome } from './subscription-charges';
export { returnSecondPayment, settleLinkPixCodes } from './second-payments';
