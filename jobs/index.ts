/**
 * Every job kind's queue, from its definition (jobs/<kind>.ts: queue name, payload, job ids,
 * enqueue). No processor is loaded from here: the web process shows and counts the queues
 * (dashboard, /metrics) without the worker's code. The processors are in jobs/processors/.
 */
import { HEARTBEAT_QUEUE } from './heartbeat';
import { CHARGEBACK_NOTICE_QUEUE } from './chargeback-notice';
import { CHARGE_QUEUE } from './charge-subscription';
import { LINK_WEBHOOK_QUEUE } from './link-webhook';
import { ENDPOINT_WEBHOOK_QUEUE } from './endpoint-webhook';
import { ACCOUNT_EVENT_QUEUE } from './account-event';
import { RECONCILE_QUEUE } from './reconcile-sale';
import { NOTICE_QUEUE } from './apply-payment-notice';
import { REFUNDS_QUEUE } from './send-refunds';

const QUEUE_NAMES = [
  HEARTBEAT_QUEUE,
  CHARGEBACK_NOTICE_QUEUE,
  CHARGE_QUEUE,
  LINK_WEBHOOK_QUEUE,
  ENDPOINT_WEBHOOK_QUEUE,
  ACCOUNT_EVENT_QUEUE,
  RECONCILE_QUEUE,
  NOTICE_QUEUE,
  REFUNDS_QUEUE,
];

export function queueNames(): string[] {
  return [...QUEUE_NAMES];
}
