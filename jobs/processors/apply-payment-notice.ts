/**
 * Applies a stored acquirer card/PIX notification to its sale. A notice that arrives before the
 * pre-capture recorded the PaymentId is retried; after the last attempt it is marked not applied.
 */
import type { Job } from 'bullmq';
import { settleLinkPixOfNotice } from '../../src/checkout/pix';
import { applyPaymentNotice, giveUpOnNotice, NoticeNotYetMatched } from '../../src/sales';
import { defaultJobOptions } from '../../src/queue/queues';
import { type ApplyPaymentNoticePayload, applyPaymentNoticeJob } from '../apply-payment-notice';
import { jobKind } from '../types';

export default async function processPaymentNotice(job: Job<ApplyPaymentNoticePayload>): Promise<string> {
  try {
    const applied = await applyPaymentNotice(job.data.noticeId);
    // A PIX QR code of a payment link: the link is paid now, not when its payer's page next asks (they may
    // have left). A failure here retries the job; the notice, already applied, is not applied twice.
    const link = await settleLinkPixOfNotice(job.data.noticeId);
    return link ? `${applied}; payment link QR code ${link}` : applied;
  } catch (error) {
    const attempts = job.opts.attempts ?? defaultJobOptions.attempts ?? 1;
    if (error instanceof NoticeNotYetMatched && job.attemptsMade + 1 >= attempts) {
      await giveUpOnNotice(job.data.noticeId, error.message);
      return `given up: ${error.message}`;
    }
    throw error;
  }
}

export const applyPaymentNoticeProcessor = jobKind(applyPaymentNoticeJob, processPaymentNotice);
