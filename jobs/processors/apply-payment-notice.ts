/**
 * Applies a stored acquirer card/PIX notification to its sale, then settles the sale's PIX refunds. A
 * notice that arrives before the pre-capture recorded the PaymentId is retried; after the last attempt
 * it is marked not applied.
 */
import type { Job } from 'bullmq';
import { applyPaymentNotice, giveUpOnNotice, NoticeNotYetMatched } from '../../src/sales';
import { settleRefundsOnNotice } from '../../src/refunds';
import { defaultJobOptions } from '../../src/queue/queues';
import { type ApplyPaymentNoticePayload, applyPaymentNoticeJob } from '../apply-payment-notice';
import { jobKind } from '../types';

export default async function processPaymentNotice(job: Job<ApplyPaymentNoticePayload>): Promise<string> {
  try {
    const applied = await applyPaymentNotice(job.data.noticeId);
    // A PIX refund completes by the same notice: its sale's pending refunds are settled from the acquirer's GET.
    const refunds = await settleRefundsOnNotice(job.data.noticeId);
    return refunds ? `${applied}; refunds: ${refunds}` : applied;
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
