/**
 * The queue of stored chargeback notices to apply (processor: processors/chargeback-notice.ts,
 * worker process only).
 */
import { getQueue } from '../src/queue/queues';
import { recordJobId } from '../src/queue/kept-jobs';
import type { NoticeKind } from '../src/chargebacks/model';

export const CHARGEBACK_NOTICE_QUEUE = 'chargeback-notices';

/**
 * What a notice job carries: the record's id, and its content (kind and JSON, a few hundred bytes),
 * so the worker need not read back what the intake just wrote. The content is checked against its
 * fingerprint (the record's _id) before it is used; a job without it reads the record.
 */
export interface NoticeJobData {
  noticeId: string;
  kind?: NoticeKind;
  raw?: string;
}

/** _id (fingerprint) of the stored notice, and its content when the producer had it. */
export type ChargebackNoticePayload = NoticeJobData;

/** A fresh job id for a stored notice, kept on its record (a sweep queues it again only when that job will not run). */
export function chargebackNoticeJobId(noticeId: string): string {
  return recordJobId('cbn', noticeId);
}

export function chargebackNoticeQueue() {
  return getQueue<NoticeJobData>(CHARGEBACK_NOTICE_QUEUE);
}

/** `attempts`: the queue's default (8, backing off over about 4 minutes) unless given. */
export async function enqueueChargebackNotice(data: NoticeJobData, jobId: string, attempts?: number): Promise<void> {
  await chargebackNoticeQueue().add('apply', data, attempts === undefined ? { jobId } : { jobId, attempts });
}
