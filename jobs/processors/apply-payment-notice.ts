/**
 * Applies a stored acquirer card/PIX notification to its sale, then settles the sale's PIX refunds. A
 * notice that arrives before the pre-capture recorded the PaymentId is retried; after the last attempt
 * it is marked not applied.
 */
import type { Job } from 'bullmq';
import { settleLinkPixOfNotice } from '../../src/checkout/pix';
import { returnSecondPayment, settleRefundsOnNotice } from '../../src/refunds';
import { applyPaymentNotice } from '../../src/sales';
import { giveUpOnNotice, NoticeNotYetMatched, recurrenceOfNotice } from '../../src/payments/notices';
import { confirmMandate } from '../../src/subscriptions/mandate';
import { confirmPixCharge, PixChargeNotYetRecorded } from '../../src/subscriptions/pix-settlement';
import { defaultJobOptions } from '../../src/queue/queues';
import { type ApplyPaymentNoticePayload, applyPaymentNoticeJob } from '../apply-payment-notice';
import { jobKind } from '../types';

export default async function processPaymentNotice(job: Job<ApplyPaymentNoticePayload>): Promise<string> {
  try {
    const applied = await applyPaymentNotice(job.data.noticeId);
    // A Pix Automático recurrence's notice: its mandate moves to what the acquirer's GET says (a failure retries).
    const recurrence = await recurrenceOfNotice(job.data.noticeId);
    // One of its charges (ChangeType 1): settled from the acquirer's GET of that charge.
    if (recurrence?.changeType === 1)
      return `${applied}; ${await confirmPixCharge(recurrence.recurrenceId, recurrence.paymentId)}`;
    if (recurrence) return `${applied}; ${await confirmMandate(recurrence.recurrenceId)}`;
    // A PIX refund completes by the same notice: its sale's pending refunds are settled from the acquirer's GET.
    const refunds = await settleRefundsOnNotice(job.data.noticeId);
    // A PIX QR code of a payment link: the link is paid now, not when its payer's page next asks (they may
    // have left). A failure here retries the job; the notice, already applied, is not applied twice.
    const link = await settleLinkPixOfNotice(job.data.noticeId);
    if (link?.state === 'paid_twice') await returnSecondPayment(link);
    return [applied, refunds && `refunds: ${refunds}`, link && `payment link QR code ${link.state}`]
      .filter(Boolean)
      .join('; ');
  } catch (error) {
    const attempts = job.opts.attempts ?? defaultJobOptions.attempts ?? 1;
    const notYet = error instanceof NoticeNotYetMatched || error instanceof PixChargeNotYetRecorded;
    if (notYet && job.attemptsMade + 1 >= attempts) {
      await giveUpOnNotice(job.data.noticeId, error.message);
      return `given up: ${error.message}`;
    }
    throw error;
  }
}

export const applyPaymentNoticeProcessor = jobKind(applyPaymentNoticeJob, processPaymentNotice);
