/**
 * The queue of acquirer card/PIX notifications to apply to their sales (processor:
 * processors/apply-payment-notice.ts, worker process only).
 */
import { getQueue } from '../src/queue/queues';
import { recordJobId } from '../src/queue/kept-jobs';

export const NOTICE_QUEUE = 'sales-notices';

export interface ApplyPaymentNoticePayload {
  noticeId: string;
}

/** A fresh job id for a stored notice, kept on its record (a sweep queues it again only when that job will not run). */
export function paymentNoticeJobId(noticeId: string): string {
  return recordJobId('notice', noticeId);
}

export function paymentNoticeQueue() {
  return getQueue<ApplyPaymentNoticePayload>(NOTICE_QUEUE);
}

export async function enqueuePaymentNotice(noticeId: string, jobId: string): Promise<void> {
  await paymentNoticeQueue().add('apply-payment-notice', { noticeId }, { jobId });
}
