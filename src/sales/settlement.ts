/**
 * Settling a sale to what the acquirer did (src/payments: reconciliation and notices), with what the sales API owes
 * for it: the move's event and the answer an Idempotency-Key record keeps.
 */
import { applyPaymentNotice as applyNotice } from '../payments/notices';
import { reconcileSale as reconcile, type SettleOwes } from '../payments/reconciliation';
import { saleMoveEvent } from './events';
import { keptAnswerOf } from './presentation';

const SALE_SETTLE: SettleOwes = { event: saleMoveEvent, keptAnswer: (settled) => keptAnswerOf(settled) };

/** Asks the acquirer for the true state of a sale whose last call had an unknown outcome, and settles it. */
export const reconcileSale = (saleId: number, now?: Date): Promise<string> => reconcile(saleId, SALE_SETTLE, now);

/** Applies a stored notice: the sale read from the acquirer and settled, once. */
export const applyPaymentNotice = (noticeId: string): Promise<string> => applyNotice(noticeId, SALE_SETTLE);
