/**
 * The queue that sends a sale's pending refunds to the acquirer, one at a time with the acquirer's
 * spacing between cancels (processor: processors/send-refunds.ts, worker process only). A job is a
 * turn of the sale's send lane: it names the sale, and the worker reads its pending refunds.
 */
import crypto from 'node:crypto';
import { defineJob } from '../src/queue/job-definition';

export const REFUNDS_QUEUE = 'refunds';

export interface SendRefundsPayload {
  saleId: number;
}

/** What the turn came to, as the worker's log and the dashboard show it. */
type SendRefundsResult = string;

export const sendRefundsJob = defineJob<SendRefundsPayload, SendRefundsResult>()(REFUNDS_QUEUE, 'send-refunds');

/**
 * A turn of a sale's lane after `delayMs`. Ids are never reused (a kept completed job of the same id
 * would swallow the add); extra turns are harmless: the lane lets one run at a time, and a turn with
 * nothing pending does nothing.
 */
function sendRefundsJobId(saleId: number, at: number): string {
  return `refunds-${saleId}-${at}-${crypto.randomUUID().slice(0, 8)}`;
}

export async function enqueueSendRefunds(saleId: number, delayMs: number): Promise<void> {
  const payload: SendRefundsPayload = { saleId };
  const jobId = sendRefundsJobId(saleId, Date.now() + delayMs);
  await sendRefundsJob.add(payload, { jobId, delay: Math.max(0, Math.round(delayMs)) });
}
