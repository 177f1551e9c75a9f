/**
 * The floor of one webhook delivery, as its own worker process (like the worker it is compared
 * with): a BullMQ job on the same Redis, at the same WORKER_CONCURRENCY, that makes the same
 * signed POST (Standard Webhooks signature from the `standardwebhooks` package, a fresh pinned
 * connection per POST as src/webhooks/delivery.ts does) to the same receiver, then ONE update of
 * the event. The secret comes with the job: the floor reads nothing. Serves its /metrics on
 * METRICS_PORT so the bench counts its database commands as it counts the worker's.
 */
import type { Job } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import { getConfig } from '../../config';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { logger } from '../../src/platform/logger';
import { closeQueues, startWorker } from '../../src/queue/queues';
import { waitForRedis } from '../../src/platform/redis';
import { startMetricsListener } from '../../src/metrics/server';
import { WebhookEventModel } from '../../src/webhooks/model';

export const WEBHOOK_FLOOR_QUEUE = 'bench-webhook-floor';

export interface FloorDelivery {
  eventId: string;
  url: string;
  body: string;
  secret: string;
}

async function deliver(job: Job<FloorDelivery>): Promise<number> {
  const { eventId, url, body, secret } = job.data;
  const now = new Date();
  const signature = new Webhook(secret).sign(eventId, now, body);
  const agent = new Agent({ connections: 1, pipelining: 0 });
  try {
    const response = await request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': eventId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
      dispatcher: agent,
    });
    await response.body.dump();
    await WebhookEventModel.updateOne(
      { _id: eventId },
      { $set: { state: 'delivered', deliveredAt: now, lastAttemptAt: now }, $inc: { attemptCount: 1 } },
    );
    return response.statusCode;
  } finally {
    agent.destroy().catch(() => undefined);
  }
}

async function main() {
  const config = getConfig();
  await connectDatabase(config.mongodbUri);
  await waitForRedis();
  startWorker(WEBHOOK_FLOOR_QUEUE, deliver);
  const metrics = await startMetricsListener(config.worker.metricsPort ?? 0, '127.0.0.1');
  logger.info('webhook floor worker ready');
  const stop = async () => {
    await metrics.close();
    await closeQueues();
    await disconnectDatabase();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`webhook floor worker failed: ${error instanceof Error ? error.stack : error}\n`);
    process.exit(1);
  });
}
