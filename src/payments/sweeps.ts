/**
 * Scheduler tasks of the sales area: the sales whose settlement was lost, the notices whose job
 * was lost, and what /metrics counts for an operator.
 */
import mongoose from 'mongoose';
import { callMayStillBeRunningMs } from '../acquirer/client';
import { checkedAfterLookup } from '../db/filters';
import { logger } from '../platform/logger';
import { jobWillRun } from '../queue/kept-jobs';
import { enqueuePaymentNotice, paymentNoticeJobId, paymentNoticeQueue } from '../../jobs/apply-payment-notice';
import { enqueueReconcileSale, reconcileSweepJobId } from '../../jobs/reconcile-sale';
import { PaymentModel, PaymentNoticeModel } from './model';
import { PIX_EXPIRY_GRACE_MS } from './state-table';
import { STUCK_RECONCILIATION_MS } from './transitions';

const SWEEP_BATCH = 500;

/**
 * Asked again every 10 minutes for this long after its expiry (the acquirer may be down, or still
 * report it open); after that it is left PENDING (it reads EXPIRED) for an operator, so sales the
 * acquirer never settles do not fill every sweep.
 */
const PIX_EXPIRY_ASK_WINDOW_MS = 2 * 24 * 3600_000;
/** A stored notice still unapplied after this long lost its job (or never got one): queue it again. */
const UNAPPLIED_NOTICE_GRACE_MS = 5 * 60_000;

/**
 * Scheduler task: queues reconciliation for sales whose settlement was lost: PROCESSING long
 * after any acquirer call could still be running (the web process died mid-call), a PIX still
 * PENDING two minutes past its expiry (its notice never came or was lost), or marked for
 * reconciliation longer than 10 minutes (every retry of the job failed). Job ids are per sale and
 * 10-minute bucket, so several schedulers queue each sale once per bucket.
 */
export async function sweepUnsettledSales(now = new Date()): Promise<void> {
  const staleProcessing = new Date(now.getTime() - callMayStillBeRunningMs());
  const stuckSince = new Date(now.getTime() - STUCK_RECONCILIATION_MS);
  const bucket = Math.floor(now.getTime() / STUCK_RECONCILIATION_MS);
  const trusted = <T>(operator: T): T => mongoose.trusted(operator) as T;
  const pixExpiredBefore = new Date(now.getTime() - PIX_EXPIRY_GRACE_MS);
  const [orphans, stuck, unnoticedPix] = await Promise.all([
    PaymentModel.find({ status: 'PROCESSING', reconciliation: null, createdAt: trusted({ $lt: staleProcessing }) })
      .limit(SWEEP_BATCH)
      .lean(),
    PaymentModel.find({ reconciling: true, 'reconciliation.since': trusted({ $lt: stuckSince }) })
      .limit(SWEEP_BATCH)
      .lean(),
    PaymentModel.find({
      paymentMethod: 'pix',
      status: 'PENDING',
      reconciliation: null,
      'pix.expiresAt': trusted({ $lt: pixExpiredBefore, $gt: new Date(now.getTime() - PIX_EXPIRY_ASK_WINDOW_MS) }),
    })
      .sort({ 'pix.expiresAt': 1 })
      .limit(SWEEP_BATCH)
      .lean(),
  ]);
  for (const sale of orphans) {
    const reconciliation = {
      operation: 'authorize' as const,
      fromStatus: 'PROCESSING' as const,
      since: now,
      reason: 'left PROCESSING without an answer',
    };
    const stillOrphan = { _id: sale._id, status: checkedAfterLookup('PROCESSING'), reconciliation: null };
    await PaymentModel.updateOne(stillOrphan, { $set: { reconciliation, reconciling: true } });
  }
  for (const sale of [...orphans, ...stuck, ...unnoticedPix]) {
    await enqueueReconcileSale(sale._id, reconcileSweepJobId(sale._id, bucket));
  }
  if (orphans.length + stuck.length + unnoticedPix.length) {
    logger.warn(
      { orphans: orphans.length, stuck: stuck.length, unnoticedPix: unnoticedPix.length },
      'queued reconciliation of unsettled online sales',
    );
  }
}

/**
 * Scheduler task: a stored payment notice still unapplied after 5 minutes lost its job (Redis lost
 * its data, or the enqueue failed after the store and the acquirer did not retry): queue it again,
 * or retry its failed job. Without this a paid PIX would read PENDING until its expiry sweep.
 */
export async function requeueUnappliedPaymentNotices(now = new Date()): Promise<number> {
  const receivedBefore = new Date(now.getTime() - UNAPPLIED_NOTICE_GRACE_MS);
  const stale = await PaymentNoticeModel.find(
    { applied: false, receivedAt: mongoose.trusted({ $lt: receivedBefore }) },
    { _id: 1, jobId: 1 },
  )
    .sort({ receivedAt: 1 })
    .limit(SWEEP_BATCH)
    .lean();
  const queue = paymentNoticeQueue();
  let queued = 0;
  for (const { _id, jobId } of stale) {
    // Whatever became of its job (completed without applying, failed for good, removed, never added),
    // only one that will still run by itself is left to run. Applying is idempotent.
    if (await jobWillRun(queue, jobId)) continue;
    const next = paymentNoticeJobId(_id);
    // Recorded first: if the add then fails, the next sweep finds no job under it and adds again.
    await PaymentNoticeModel.updateOne({ _id, applied: false }, { $set: { jobId: next } });
    await enqueuePaymentNotice(_id, next);
    queued++;
  }
  if (queued) logger.warn({ notices: queued }, 'queued again payment notices left unapplied');
  return queued;
}

/**
 * What an operator should look at, counted at /metrics scrape time: sales whose reconciliation has
 * run for over 10 minutes (the acquirer cannot tell us, or the job keeps failing), PIX sales past
 * the sweep's two-day window still unsettled, and payment notices unapplied for over 15 minutes.
 */
export async function salesNeedingAttention(now = new Date()): Promise<Record<string, number>> {
  const trusted = <T>(operator: T): T => mongoose.trusted(operator) as T;
  const [reconciling, pix, notices] = await Promise.all([
    PaymentModel.countDocuments({
      reconciling: true,
      'reconciliation.since': trusted({ $lt: new Date(now.getTime() - STUCK_RECONCILIATION_MS) }),
    }),
    PaymentModel.countDocuments({
      paymentMethod: 'pix',
      status: 'PENDING',
      'pix.expiresAt': trusted({ $lt: new Date(now.getTime() - PIX_EXPIRY_ASK_WINDOW_MS) }),
    }),
    PaymentNoticeModel.countDocuments({
      applied: false,
      receivedAt: trusted({ $lt: new Date(now.getTime() - 3 * UNAPPLIED_NOTICE_GRACE_MS) }),
    }),
  ]);
  return {
    sale_reconciling_over_10m: reconciling,
    pix_unsettled_after_2d: pix,
    payment_notice_unapplied_over_15m: notices,
  };
}
