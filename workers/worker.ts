/**
 * The worker process: one BullMQ worker per job kind in jobs/processors/. Run several for more throughput; on
 * SIGTERM it stops taking jobs and lets the running ones finish before exiting.
 * WORKER_QUEUES=a,b limits a process to some queues (to scale one kind on its own).
 */
// First: traces, when on, must patch express, ioredis, mongodb and undici before they load.
import '../src/platform/tracing-preload';
import { getConfig } from '../config';
import { connectDatabase, disconnectDatabase } from '../src/db/connection';
import { refuseToStartWithPendingMigrations } from '../src/db/migrations/pending';
import { closeQueues, startWorker } from '../src/queue/queues';
import { waitForRedis } from '../src/platform/redis';
import { logger } from '../src/platform/logger';
import { runProcess } from '../src/platform/lifecycle';
import { jobKinds } from '../jobs/processors';
import { startMetricsListener } from '../src/metrics/server';

export async function startWorkers() {
  const config = getConfig();
  await connectDatabase(config.mongodbUri);
  await refuseToStartWithPendingMigrations('worker');
  await waitForRedis();
  const only = config.worker.queues;
  const kinds = jobKinds.filter((kind) => !only.length || only.includes(kind.queue));
  for (const kind of kinds) startWorker(kind.queue, kind.process, kind.worker);
  // Job durations and failures live in this process: Prometheus scrapes it on its own port.
  const metrics =
    config.worker.metricsPort === undefined
      ? undefined
      : await startMetricsListener(config.worker.metricsPort, config.host);
  logger.info({ queues: kinds.map((k) => k.queue) }, 'worker ready');
  return async () => {
    await metrics?.close();
    await closeQueues();
    await disconnectDatabase();
  };
}

if (require.main === module) runProcess('worker', startWorkers);
