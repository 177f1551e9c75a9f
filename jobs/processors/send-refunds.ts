/**
 * Sends a sale's pending refunds to the acquirer (src/refunds/sending.ts): settles an earlier
 * attempt whose outcome is unknown first, then sends the next, keeping the acquirer's spacing.
 */
import type { Job } from 'bullmq';
import { sendPendingRefunds } from '../../src/refunds';
import { type SendRefundsPayload, sendRefundsJob } from '../send-refunds';
import { jobKind } from '../types';

export default async function processSendRefunds(job: Job<SendRefundsPayload>): Promise<string> {
  return sendPendingRefunds(job.data.saleId);
}

export const sendRefundsProcessor = jobKind(sendRefundsJob, processSendRefunds);
