/**
 * Settles an online sale whose last acquirer call had an unknown outcome (timeout or reset after
 * sending): asks the acquirer for the truth and records it. While the acquirer cannot answer the
 * job fails and BullMQ retries it with exponential backoff.
 */
import type { Job } from 'bullmq';
import { reconcileSale } from '../../src/sales/service';
import { RECONCILE_QUEUE, type ReconcileSalePayload } from '../reconcile-sale';
import type { JobKind } from '../types';

export default async function processReconcileSale(job: Job<ReconcileSalePayload>): Promise<string> {
  return reconcileSale(job.data.saleId);
}

export const reconcileSaleJob: JobKind<ReconcileSalePayload> = {
  queue: RECONCILE_QUEUE,
  process: processReconcileSale,
};
