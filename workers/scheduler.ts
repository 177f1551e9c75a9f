/**
 * The scheduler process (node-cron): on each tick it finds due work and enqueues it with
 * deterministic job ids, so two schedulers, or one restarted mid-run, never enqueue twice.
 */
// First: traces, when on, must patch express, ioredis, mongodb and undici before they load.
import '../src/platform/tracing-preload';
import cron from 'node-cron';
import { getConfig } from '../config';
import { connectDatabase, disconnectDatabase, ensureStoreCompanionIndexes } from '../src/db/connection';
import { refuseToStartWithPendingMigrations } from '../src/db/migrations/pending';
import { normaliseEstablishmentNumbers } from '../src/auth/service';
import { closeQueues } from '../src/queue/queues';
import { waitForRedis } from '../src/platform/redis';
import { logger } from '../src/platform/logger';
import { runProcess } from '../src/platform/lifecycle';
import { enqueueHeartbeat } from '../jobs/heartbeat';
import { enqueueDueSubscriptionWork } from '../src/subscriptions/scheduling';
import { now as clockNow } from '../src/subscriptions/clock';
import { requeueUnappliedPaymentNotices, sweepUnsettledSales } from '../src/payments/sweeps';
import { requeueStaleChargebackNotices } from '../src/chargebacks';
import { requeueUndeliveredLinkEvents } from '../src/webhooks/service';
import { settleStalePayments } from '../src/checkout/service';
import { settleLinkPixCodes, sweepPendingRefunds } from '../src/refunds';
import { sweepUnsettledPixCharges } from '../src/subscriptions/pix-settlement';
import { backfillChargeTids } from '../src/subscriptions/charge-tids';
import { backfillSettledSaleTids } from '../src/sales';
import { backfillLinkSales } from '../src/payment-links/sale';

import { requeueUndeliveredEndpointDeliveries } from '../src/webhooks/endpoint-delivery';
import { removeExpiredEvents } from '../src/events/reads';
import { sweepUnfannedEvents } from '../src/events/recording';
import { sweepOwedEvents } from '../src/events/outbox';

export type SchedulerTask = (now: Date) => Promise<unknown>;

/** Every 10 minutes: a collection created or dropped and recreated since the start gets its store indexes back. */
const STORE_INDEX_CHECK_MS = 10 * 60_000;
let storeIndexesCheckedAt = Date.now();
export async function recheckStoreIndexes(): Promise<void> {
  if (Date.now() - storeIndexesCheckedAt < STORE_INDEX_CHECK_MS) return;
  storeIndexesCheckedAt = Date.now();
  await ensureStoreCompanionIndexes();
}

export const schedulerTasks: SchedulerTask[] = [
  enqueueHeartbeat,
  enqueueDueSubscriptionWork,
  sweepUnsettledPixCharges,
  sweepUnsettledSales,
  requeueUnappliedPaymentNotices,
  requeueStaleChargebackNotices,
  settleStalePayments,
  settleLinkPixCodes,
  requeueUndeliveredLinkEvents,
  requeueUndeliveredEndpointDeliveries,
  sweepOwedEvents,
  sweepUnfannedEvents,
  removeExpiredEvents,
  sweepPendingRefunds,
  recheckStoreIndexes,
];

export async function runSchedulerTick(now = clockNow()): Promise<void> {
  for (const task of schedulerTasks) {
    try {
      await task(now);
    } catch (err) {
      logger.error({ err, task: task.name }, 'scheduler task failed; it runs again next tick');
    }
  }
}

/**
 * Sales and subscription charges recorded before they carried the acquirer's TID get it, and links paid
 * before link sales existed get their sale, so an accepted chargeback finds them (src/refunds/chargebacks.ts).
 * In the background: TIDs are asked of the acquirer, whose outage stops the run without holding the ticks
 * back; the next start goes on.
 */
async function backfillTids(): Promise<void> {
  try {
    await backfillLinkSales();
    await backfillSettledSaleTids();
    await backfillChargeTids();
  } catch (err) {
    logger.warn({ err }, 'TID backfill stopped; the next scheduler start goes on with it');
  }
}

export async function startScheduler() {
  const config = getConfig();
  await connectDatabase(config.mongodbUri);
  await refuseToStartWithPendingMigrations('scheduler');
  await waitForRedis();
  await normaliseEstablishmentNumbers();
  void backfillTids();
  let running: Promise<void> | undefined;
  const task = cron.schedule(config.scheduler.cron, () => {
    if (running) return; // a slow tick is not overlapped by the next one
    running = runSchedulerTick().finally(() => (running = undefined));
  });
  running = runSchedulerTick().finally(() => (running = undefined));
  logger.info({ cron: config.scheduler.cron }, 'scheduler ready');
  return async () => {
    task.stop();
    await running;
    await closeQueues();
    await disconnectDatabase();
  };
}

if (require.main === module) runProcess('scheduler', startScheduler);
