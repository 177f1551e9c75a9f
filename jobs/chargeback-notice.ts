/**
 * The queue of stored chargeback notices to apply (processor: processors/chargeback-notice.ts,
 * worker process only).
 */
import { defineJob } from '../src/queue/job-definition';
import { recordJobId } from '../src/queue/kept-jobs';

/** A new chargeback, or a step of its lifecycle. */
export type NoticeKind = 'new' | 'lifecycle';

/** applied; unknown (no such notice stored); unconfirmed (a lifecycle step the acquirer does not show yet). */
export type ChargebackNoticeResult = 'applied' | 'unknown' | 'unconfirmed';

export const CHARGEBACK_NOTICE_QUEUE = 'chargeback-notices';

/**
 * A notice job names the stored notice record (its fingerprint), nothing else: the worker reads the
 * record, which only the intake writes after checking the acquirer's secret. A job's content is
 * never trusted, since anyone who can add a job (the dashboard, Redis) could make one up.
 */
export interface NoticeJobData {
  noticeId: string;
}

/** _id (fingerprint) of the stored notice. */
export type ChargebackNoticePayload = NoticeJobData;

/** A fresh job id for a stored notice, kept on its record (a sweep queues it again only when that job will not run). */
export function chargebackNoticeJobId(noticeId: string): string {
  return recordJobId('cbn', noticeId);
}

export const chargebackNoticeJob = defineJob<NoticeJobData, ChargebackNoticeResult>()(CHARGEBACK_NOTICE_QUEUE, 'apply');

export function chargebackNoticeQueue() {
  return chargebackNoticeJob.queueOf();
}

/** `attempts`: the queue's default (8, backing off over about 4 minutes) unless given. */
export async function enqueueChargebackNotice(data: NoticeJobData, jobId: string, attempts?: number): Promise<void> {
  await chargebackNoticeJob.add(data, attempts === undefined ? { jobId } : { jobId, attempts });
}
