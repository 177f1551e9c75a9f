/**
 * Every job kind's processor, for the worker process only (workers/worker.ts): they load the
 * services that do the work. Producers and the web process use the definitions (jobs/index.ts).
 */
import type { JobKind } from '../types';
import { heartbeatProcessor } from './heartbeat';
import { chargebackNoticeProcessor } from './chargeback-notice';
import { chargeSubscriptionProcessor } from './charge-subscription';
import { linkWebhookProcessor } from './link-webhook';
import { endpointWebhookProcessor } from './endpoint-webhook';
import { accountEventProcessor } from './account-event';
import { reconcileSaleProcessor } from './reconcile-sale';
import { applyPaymentNoticeProcessor } from './apply-payment-notice';
import { sendRefundsProcessor } from './send-refunds';

export const jobKinds: JobKind[] = [
  heartbeatProcessor,
  chargebackNoticeProcessor,
  chargeSubscriptionProcessor,
  linkWebhookProcessor,
  endpointWebhookProcessor,
  accountEventProcessor,
  reconcileSaleProcessor,
  applyPaymentNoticeProcessor,
  sendRefundsProcessor,
];
