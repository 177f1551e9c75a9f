/** Every job kind the worker process runs; the dashboard shows each one's queue. */
import type { JobKind } from './types';
import { heartbeatJob } from './heartbeat';
import { chargebackNoticeJob } from './chargeback-notice';
import { chargeSubscriptionJob } from './charge-subscription';
import { linkWebhookJob } from './link-webhook';
import { reconcileSaleJob } from './reconcile-sale';
import { applyPaymentNoticeJob } from './apply-payment-notice';

export const jobKinds: JobKind[] = [
  heartbeatJob,
  chargebackNoticeJob,
  chargeSubscriptionJob,
  linkWebhookJob,
  reconcileSaleJob,
  applyPaymentNoticeJob,
];

export function queueNames(): string[] {
  return [...new Set(jobKinds.map((kind) => kind.queue))];
}
