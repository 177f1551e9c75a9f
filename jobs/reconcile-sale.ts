/**
 * The queue of sale reconciliations: a sale whose last acquirer call had an unknown outcome is
 * settled by asking the acquirer (processor: processors/reconcile-sale.ts, worker process only).
 */
import { defineJob } from '../src/queue/job-definition';

export const RECONCILE_QUEUE = 'sales-reconcile';

export interface ReconcileSalePayload {
  saleId: number;
}

/** What the reconciliation came to, as the worker's log and the dashboard show it. */
type ReconcileSaleResult = string;

export const reconcileSaleJob = defineJob<ReconcileSalePayload, ReconcileSaleResult>()(
  RECONCILE_QUEUE,
  'reconcile-sale',
);

/** One job per reconciliation episode (a sale may need several over its life). */
export function reconcileEpisodeJobId(saleId: number, fromStatus: string, since: Date): string {
  return `reconcile-${saleId}-${fromStatus}-${since.getTime()}`;
}

/** One job per sale and sweep time bucket: sweeps repeating within a bucket queue it once. */
export function reconcileSweepJobId(saleId: number, bucket: number): string {
  return `reconcile-${saleId}-sweep-${bucket}`;
}

export async function enqueueReconcileSale(saleId: number, jobId: string, delayMs?: number): Promise<void> {
  const payload: ReconcileSalePayload = { saleId };
  await reconcileSaleJob.add(payload, delayMs === undefined ? { jobId } : { jobId, delay: delayMs });
}
