/** Applies a stored chargeback notice (new chargeback or lifecycle step). Idempotent: a retry or a duplicate job changes nothing. */
import type { Job } from 'bullmq';
import { applyNotice, CHARGEBACK_NOTICE_QUEUE } from '../src/chargebacks/service';
import type { JobKind } from './types';

export interface ChargebackNoticePayload {
  /** _id (fingerprint) of the stored notice */
  noticeId: string;
}

export default async function processChargebackNotice(job: Job<ChargebackNoticePayload>) {
  return applyNotice(job.data.noticeId);
}

export const chargebackNoticeJob: JobKind<ChargebackNoticePayload> = { queue: CHARGEBACK_NOTICE_QUEUE, process: processChargebackNotice };
