/**
 * Scheduler task of the refunds area: refunds left pending (a lost job, a process that died
 * mid-void) get a turn of their sale's lane, which settles an unknown outcome from the acquirer's
 * VoidedAmount before sending anything; and what /metrics counts for an operator.
 */
import mongoose from 'mongoose';
import { logger } from '../platform/logger';
import { enqueueSendRefunds } from '../../jobs/send-refunds';
import { RefundModel } from '../payments/refund-model';

/** A refund pending longer than this has lost its turn (a turn is queued within seconds). */
const PENDING_GRACE_MS = 60_000;
/** Pending longer than this: an operator should look (the acquirer cannot say, or VoidedAmount is inconsistent). */
const STUCK_REFUND_MS = 10 * 60_000;
const SWEEP_BATCH = 500;

export async function sweepPendingRefunds(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - PENDING_GRACE_MS);
  const pending = await RefundModel.find(
    { status: 'pending', createdAt: mongoose.trusted({ $lt: before }) },
    { saleId: 1 },
  )
    .limit(SWEEP_BATCH)
    .lean();
  const sales = [...new Set(pending.map((refund) => refund.saleId))];
  for (const saleId of sales) await enqueueSendRefunds(saleId, 0);
  if (sales.length) logger.warn({ sales: sales.length }, 'queued turns for sales with refunds left pending');
  return sales.length;
}

export async function refundsNeedingAttention(now = new Date()): Promise<Record<string, number>> {
  const before = new Date(now.getTime() - STUCK_REFUND_MS);
  return {
    refund_pending_over_10m: await RefundModel.countDocuments({
      status: 'pending',
      createdAt: mongoose.trusted({ $lt: before }),
    }),
  };
}
