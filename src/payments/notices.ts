/**
 * The acquirer's card/PIX notices once received (src/sales checks their signature and shape): stored once per
 * body, their job queued, and applied by a worker (the sale read from the acquirer and settled).
 */
import { getSale, type AcquirerSale } from '../acquirer/client';
import { sha256Hex } from '../platform/digests';
import { insertOnce } from '../db/claims';
import { enqueuePaymentNotice, paymentNoticeJobId, paymentNoticeQueue } from '../../jobs/apply-payment-notice';
import { jobNotStarted } from '../queue/kept-jobs';
import { PaymentModel, PaymentNoticeModel } from './model';
import { reconcileReadSale, settleToAcquirer, type SettleOwes } from './reconciliation';

/** Stores a checked notice (one document per body) and queues its application; whether this body came before. */
export async function storePaymentNotice(
  raw: string,
  notice: { PaymentId: string; ChangeType: number },
): Promise<{ duplicate: boolean }> {
  const noticeId = sha256Hex(raw);
  let jobId = paymentNoticeJobId(noticeId);
  const record = { _id: noticeId, raw, paymentId: notice.PaymentId, changeType: notice.ChangeType, jobId };
  const duplicate = (await insertOnce(PaymentNoticeModel, { ...record, receivedAt: new Date() })) === 'exists';
  if (duplicate) {
    // The same body again is the acquirer saying "ask me again" (a PIX refund completed: its notice
    // is the payment's, byte for byte). Applying reads the acquirer and changes nothing already true.
    const stored = await PaymentNoticeModel.findById(noticeId, { appliedAt: 1, jobId: 1 }).lean();
    if (!stored?.appliedAt && (await jobNotStarted(paymentNoticeQueue(), stored?.jobId))) {
      // Its job has not started: it will ask the acquirer after this notice (adding it again is a no-op).
      jobId = stored!.jobId!;
    } else if (!stored?.appliedAt) {
      // Its job already runs (it may have asked before this notice was sent: a refund completing right
      // after the payment), or Redis lost it: a new job, kept on the record for the notice sweep.
      await PaymentNoticeModel.updateOne({ _id: noticeId, appliedAt: null }, { $set: { jobId } });
    }
  }
  await enqueuePaymentNotice(noticeId, jobId);
  return { duplicate };
}

export class NoticeNotYetMatched extends Error {}

/** Applies a stored notice: asks the acquirer for the sale's state and settles ours to it, once. */
export async function applyPaymentNotice(noticeId: string, owes: SettleOwes): Promise<string> {
  const notice = await PaymentNoticeModel.findById(noticeId).lean();
  if (!notice) return 'unknown notice';
  if (notice.appliedAt) return `already applied: ${notice.result}`;
  let result: string;
  if (notice.changeType !== 1) {
    result = `change type ${notice.changeType} is not handled by online sales`;
  } else if (recurrenceIdIn(notice.raw)) {
    // A Pix Automático charge's settlement: its subscription's to apply (the processor), not an online sale's.
    result = 'a Pix Automático charge: applied to its subscription';
  } else {
    let sale = await PaymentModel.findOne({ acquirerPaymentId: notice.paymentId }).lean();
    let truth: AcquirerSale | null | undefined;
    if (!sale) {
      // Not found by the indexed PaymentId: the sale may predate that field. The acquirer names the
      // order id (unique index) instead of a scan by the nested acquirer.paymentId.
      truth = await getSale(notice.paymentId);
      const byOrder = truth ? await PaymentModel.findOne({ merchantOrderId: truth.merchantOrderId }).lean() : null;
      // Only a sale that recorded this PaymentId: a pre-capture still waiting for its answer settles it itself.
      sale = byOrder?.acquirer.paymentId === notice.paymentId ? byOrder : null;
    }
    // The notice may arrive before the pre-capture recorded the PaymentId: the job retries.
    if (!sale) throw new NoticeNotYetMatched(`no sale has PaymentId ${notice.paymentId} yet`);
    if (sale.reconciliation) {
      result = await reconcileReadSale(sale, owes);
    } else {
      truth ??= await getSale(notice.paymentId);
      result = truth ? await settleToAcquirer(sale, truth, owes) : 'the acquirer does not know this PaymentId';
    }
  }
  await PaymentNoticeModel.updateOne(
    { _id: noticeId, appliedAt: null },
    { $set: { appliedAt: new Date(), applied: true, result } },
  );
  return result;
}

/** Records that a notice could not be matched to a sale after every retry. */
export async function giveUpOnNotice(noticeId: string, reason: string): Promise<void> {
  await PaymentNoticeModel.updateOne(
    { _id: noticeId, appliedAt: null },
    { $set: { appliedAt: new Date(), applied: true, result: `not applied: ${reason}` } },
  );
}

function recurrenceIdIn(raw: string): string | null {
  try {
    const id = (JSON.parse(raw) as { RecurrentPaymentId?: unknown }).RecurrentPaymentId;
    return typeof id === 'string' && id ? id : null;
  } catch {
    return null;
  }
}

/**
 * The recurrence a stored notice names (its RecurrentPaymentId), for Pix Automático: ChangeType 2 (recurrence
 * created) and 4 (recurrence status changed) move the mandate; ChangeType 1 (payment status changed) with a
 * RecurrentPaymentId is one of its charges (`paymentId`) settled or voided. Null for any other notice.
 */
export async function recurrenceOfNotice(
  noticeId: string,
): Promise<{ recurrenceId: string; paymentId: string; changeType: number } | null> {
  const notice = await PaymentNoticeModel.findById(noticeId, { raw: 1, changeType: 1, paymentId: 1 }).lean();
  if (!notice || ![1, 2, 4].includes(notice.changeType)) return null;
  const recurrenceId = recurrenceIdIn(notice.raw);
  return recurrenceId ? { recurrenceId, paymentId: notice.paymentId, changeType: notice.changeType } : null;
}
