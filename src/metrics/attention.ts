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
import { salesNeedingAttention } from '../sales';
import { chargesNeedingAttention } from '../subscriptions/scheduling';
import { refundsNeedingAttention } from '../refunds';
import { registry } from '../platform/metrics-registry';

const SOURCES: (() => Promise<Record<string, number>>)[] = [
  () => salesNeedingAttention(),
  () => paymentsNeedingAttention(),
  () => linkPixNeedingAttention(),
  () => chargesNeedingAttention(),
  () => chargebackNoticesNeedingAttention(),
  () => refundsNeedingAttention(),
];

export const needsAttention = new Gauge({
  name: 'needs_attention',
  help:
    'Items the sweeps could not settle, by kind: sale_reconciling_over_10m, pix_unsettled_after_2d, ' +
    'payment_notice_unapplied_over_15m, ' +
    ('link_payment_unsettled_over_10m, charge_pending_over_1h, chargeback_notice_unapplied_over_15m, ' +
      'refund_pending_over_10m, link_pix_paid_twice. Alert when ' +
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

let registered = false;

/** Adds needs_attention to this process's /metrics (the web process only). */
export function reportAttention(): void {
  if (registered) return;
  registered = true;
  registry.registerMetric(needsAttention);
}
