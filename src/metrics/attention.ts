/**
 * Work the sweeps could not settle on their own, counted in the database at scrape time: the
 * figure an operator alerts on (`needs_attention > 0`). Only the web process reports it, like
 * queue depth, so a sum over processes never counts it twice.
 */
import { Gauge } from 'prom-client';
import { logger } from '../platform/logger';
import { chargebackNoticesNeedingAttention } from '../chargebacks';
import { paymentsNeedingAttention } from '../checkout/service';
import { linkPixNeedingAttention } from '../checkout/pix';
import { salesNeedingAttention } from '../payments/sweeps';
import { chargesNeedingAttention } from '../subscriptions/scheduling';
import { refundsNeedingAttention } from '../refunds';
import { endpointOutboxAgeSeconds, webhookEndpointsNeedingAttention } from '../webhooks/endpoint-delivery';
import { registry } from '../platform/metrics-registry';
import { owedEventsAgeSeconds } from '../events/outbox';

const SOURCES: (() => Promise<Record<string, number>>)[] = [
  () => salesNeedingAttention(),
  () => paymentsNeedingAttention(),
  () => linkPixNeedingAttention(),
  () => chargesNeedingAttention(),
  () => chargebackNoticesNeedingAttention(),
  () => refundsNeedingAttention(),
  () => webhookEndpointsNeedingAttention(),
];

export const needsAttention = new Gauge({
  name: 'needs_attention',
  help:
    'Items the sweeps could not settle, by kind: sale_reconciling_over_10m, pix_unsettled_after_2d, ' +
    'payment_notice_unapplied_over_15m, ' +
    ('link_payment_unsettled_over_10m, charge_pending_over_1h, pix_charge_unsettled_over_2d, ' +
      'chargeback_notice_unapplied_over_15m, ' +
      'refund_pending_over_10m, link_pix_paid_twice, webhook_endpoint_disabled_by_failures, ' +
      'webhook_delivery_pending_over_1h. Alert when ' +
      'above 0. Absent while the database does not answer.'),
  labelNames: ['kind'] as const,
  registers: [],
  async collect() {
    this.reset();
    const counts = await Promise.all(
      SOURCES.map((source) =>
        source().catch((error) => {
          logger.warn({ err: { message: (error as Error).message } }, 'needs_attention: a count failed');
          return {};
        }),
      ),
    );
    for (const byKind of counts) for (const [kind, count] of Object.entries(byKind)) this.set({ kind }, count);
  },
});

/** The age of the account webhooks' outbox: how long its oldest pending delivery has waited. */
export const webhookOutboxAge = new Gauge({
  name: 'webhook_endpoint_outbox_oldest_pending_seconds',
  help: 'Seconds since the oldest pending delivery to a webhook endpoint was stored (0: none pending)',
  registers: [],
  async collect() {
    this.reset();
    // Absent while the database does not answer, as needs_attention is.
    const age = await endpointOutboxAgeSeconds().catch(() => null);
    if (age !== null) this.set(age);
  },
});

/** The age of the events outbox: how long the oldest state change whose events are not recorded has waited. */
export const eventsOwedAge = new Gauge({
  name: 'account_events_owed_oldest_seconds',
  help:
    'Seconds since the oldest state change whose account events are still owed (written with it, not yet ' +
    'recorded; 0: none). Above a minute or two, the scheduler sweep is not recording them',
  registers: [],
  async collect() {
    this.reset();
    const age = await owedEventsAgeSeconds().catch(() => null);
    if (age !== null) this.set(age);
  },
});

let registered = false;

/** Adds needs_attention to this process's /metrics (the web process only). */
export function reportAttention(): void {
  if (registered) return;
  registered = true;
  registry.registerMetric(needsAttention);
  registry.registerMetric(webhookOutboxAge);
  registry.registerMetric(eventsOwedAge);
}
