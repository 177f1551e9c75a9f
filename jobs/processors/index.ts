/**
 * Every job kind's processor, for the worker process only (workers/worker.ts): they load the
 * services that do the work. Producers and the web process use the definitions (jobs/index.ts).
 */
import type { JobKind } from '../types';
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
