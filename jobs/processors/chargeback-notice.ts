/**
 * Applies a stored chargeback notice (new chargeback or lifecycle step). Idempotent: a retry or a
 * duplicate job changes nothing. A notice the acquirer does not show yet is retried with
 * the job's backoff; after the last attempt the sweep asks again (see applyNotice).
 */
import type { Job } from 'bullmq';
import { applyNotice } from '../../src/chargebacks';
import { type ChargebackNoticePayload, chargebackNoticeJob } from '../chargeback-notice';
import { jobKind } from '../types';

export default async function processChargebackNotice(job: Job<ChargebackNoticePayload>) {
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  // Only the id is read: whatever else a job carries (an older job's copy, a made-up one) is ignored.
  const result = await applyNotice(job.data.noticeId, { lastAttempt });
  if (result === 'unconfirmed' && !lastAttempt) throw new Error('lifecycle step not shown by the acquirer yet');
  return result;
}

export const chargebackNoticeProcessor = jobKind(chargebackNoticeJob, processChargebackNotice);
