/**
 * Settles an online sale whose last acquirer call had an unknown outcome (timeout or reset after
 * sending): asks the acquirer for the truth and records it. While the acquirer cannot answer the
 * job fails and BullMQ retries it with exponential backoff.
 */
import type { Job } from 'bullmq';
import { reconcileSale } from '../../src/sales';
import { type ReconcileSalePayload, reconcileSaleJob } from '../reconcile-sale';
import { jobKind } from '../types';

export default async function processReconcileSale(job: Job<ReconcileSalePayload>): Promise<string> {
  return reconcileSale(job.data.saleId);
}

export const reconcileSaleProcessor = jobKind(reconcileSaleJob, processReconcileSale);
