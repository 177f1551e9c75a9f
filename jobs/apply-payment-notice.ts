/**
 * The queue of acquirer card/PIX notifications to apply to their sales (processor:
 * processors/apply-payment-notice.ts, worker process only).
 */
import { defineJob } from '../src/queue/job-definition';
import { recordJobId } from '../src/queue/kept-jobs';

export const NOTICE_QUEUE = 'sales-notices';

export interface ApplyPaymentNoticePayload {
  noticeId: string;
}

/** A fresh job id for a stored notice, kept on its record (a sweep queues it again only when that job will not run). */
export function paymentNoticeJobId(noticeId: string): string {
  return recordJobId('notice', noticeId);
}

/** What applying a notice came to, as the worker's log and the dashboard show it. */
export type ApplyPaymentNoticeResult = string;

export const applyPaymentNoticeJob = defineJob<ApplyPaymentNoticePayload, ApplyPaymentNoticeResult>()(
  NOTICE_QUEUE,
  'apply-payment-notice',
);

export function paymentNoticeQueue() {
  return applyPaymentNoticeJob.queueOf();
}

export async function enqueuePaymentNotice(noticeId: string, jobId: string): Promise<void> {
  await applyPaymentNoticeJob.add({ noticeId }, { jobId });
}
