/**
 * Link webhook deliveries per second by worker processes to a local receiver (signed, recorded,
 * as in production), with one worker process and then two, beside:
 *  - the baseline: BullMQ no-op jobs at the same concurrency in the same run;
 *  - the floor: one worker process of the same work done the shortest way (webhook-floor-worker.ts:
 *    a BullMQ job making the same signed POST to the same receiver, then one update of the event).
 * Events are queued while no worker runs; the rate is taken between the first and the last delivery
 * received, so process start-up is not counted. Database commands per delivery: the one-worker run,
 * read from the worker's /metrics once every job has completed.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getConfig } from '../../../config';
import { getQueue } from '../../../src/queue/queues';
import { WebhookEventModel } from '../../../src/webhooks/model';
import { LINK_WEBHOOK_QUEUE } from '../../../jobs/link-webhook';
import { emitLinkEvent } from '../../../src/webhooks/outbox';
import { newMerchant } from '../../helpers/identity';
import { commandsSince, completedJobs, snapshot, type DbCommandFigure, type MeteredProcess } from '../db-commands';
import { noopJobsPerSecond } from '../noop-jobs';
import { startBenchProcess } from '../processes';
import { WEBHOOK_FLOOR_QUEUE, type FloorDelivery } from '../webhook-floor-worker';
import type { BenchContext, Side, ThroughputCase } from './types';

export const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS || 300);
const DEADLINE_MS = 300_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Receiver {
  host: string;
  arrivals: number[];
  close(): Promise<void>;
}

export async function receiver(): Promise<Receiver> {
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Waits for every delivery to arrive and every job to complete (its update done), then rates arrivals first to last.
 */
export async function awaitDeliveries(target: Receiver, workers: () => MeteredProcess[], queue: string): Promise<Side> {
  const deadline = performance.now() + DEADLINE_MS;
  while (target.arrivals.length < EVENTS && performance.now() < deadline) await sleep(100);
  while ((await completedJobs(workers(), queue)) < EVENTS && performance.now() < deadline) await sleep(100);
  const { arrivals } = target;
  const seconds = (arrivals[arrivals.length - 1] - arrivals[0]) / 1000;
  const done = arrivals.length >= EVENTS;
  return {
    requestsPerSecond: done && seconds > 0 ? Math.round(((arrivals.length - 1) / seconds) * 10) / 10 : 0,
    requests: arrivals.length,
    statusCodes: { '200': arrivals.length },
    errors: EVENTS - Math.min(arrivals.length, EVENTS),
    valid: done,
  };
}

export async function deliveriesPerSecond(
  context: BenchContext,
  workers: number,
  linkBase: number,
): Promise<{ side: Side; dbCommands: DbCommandFigure }> {
  const target = await receiver();
  try {
    await context.setWorkers(0);
    const merchant = await newMerchant();
    for (let i = 0; i < EVENTS; i++) {
      await emitLinkEvent({
        merchantId: merchant.merchantId,
        linkId: linkBase + i,
        url: `http://${target.host}/hook`,
        type: 'payment_link.paid',
        data: { n: i },
      });
    }
    const before = await snapshot(context.metered());
    await context.setWorkers(workers, { WEBHOOK_TEST_ALLOW_HOSTS: target.host });
    const side = await awaitDeliveries(target, () => context.metered(), LINK_WEBHOOK_QUEUE);
    return { side, dbCommands: await commandsSince(before, context.metered(), EVENTS) };
  } finally {
    await target.close();
  }
}

/** The floor: the same count of signed POSTs by one floor worker process, each followed by one update. */
export async function floorDeliveriesPerSecond(
  context: BenchContext,
  linkBase: number,
): Promise<{ side: Side; dbCommands: DbCommandFigure }> {
  const target = await receiver();
  const secret = `whsec_${crypto.randomBytes(32).toString('base64')}`;
  const merchant = await newMerchant();
  const now = new Date();
  const url = `http://${target.host}/hook`;
  const events = Array.from({ length: EVENTS }, (_, i) => {
    const linkId = linkBase + i;
    const body = JSON.stringify({
      type: 'payment_link.paid',
      timestamp: now.toISOString(),
      data: { payment_link_id: linkId, n: i },
    });
    return {
      _id: `msg_${linkId}_1`,
      merchantId: merchant.merchantId,
      linkId,
      sequence: 1,
      type: 'payment_link.paid',
      url,
      body,
      state: 'pending',
      attemptCount: 0,
      queuedAt: now,
      createdAt: now,
    };
  });
  await WebhookEventModel.insertMany(events);
  const queue = getQueue<FloorDelivery>(WEBHOOK_FLOOR_QUEUE);
  for (let i = 0; i < EVENTS; i += 1000) {
    await queue.addBulk(
      events.slice(i, i + 1000).map((e) => ({
        name: 'deliver',
        data: { eventId: e._id, url, body: e.body, secret },
        opts: { removeOnComplete: true },
      })),
    );
  }
  const worker = await startBenchProcess(
    'webhook-floor',
    'test/bench/webhook-floor-worker.ts',
    { METRICS_PORT: '0', LOG_LEVEL: 'info' },
    /webhook floor worker ready/,
  );
  try {
    const metered = [{ name: `webhook-floor[${worker.child.pid}]`, metricsUrl: worker.metricsUrl }];
    const side = await awaitDeliveries(target, () => metered, WEBHOOK_FLOOR_QUEUE);
    return { side, dbCommands: await commandsSince({ processes: new Map() }, metered, EVENTS) };
  } finally {
    await worker.stop();
    await target.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
  }
}

/** The deliveries of one worker process (the case's figure), then of two (the note that says how they scale). */
export async function oneThenTwoWorkers(context: BenchContext, base: number) {
  const one = await deliveriesPerSecond(context, 1, base);
  const two = await deliveriesPerSecond(context, 2, base + 500_000);
  const twoWorkersNote =
    `two worker processes: ${two.side.requestsPerSecond} deliveries/s ` +
    `(${two.side.valid ? 'all delivered' : `${two.side.requests}/${EVENTS} delivered`})`;
  return { one, twoWorkersNote };
}

export const webhooksCase: ThroughputCase = {
  name: 'webhooks',
  route: `${EVENTS} link webhook deliveries, 1 worker process`,
  needs: ['worker'],
  baseline: `BullMQ no-op jobs, same count, one Worker at WORKER_CONCURRENCY`,
  floor:
    'one worker process, same concurrency: a BullMQ job making the same signed POST (standardwebhooks) to the ' +
    'same receiver + one update',
  async measure(context) {
    const base = 900_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;
    const { one, twoWorkersNote } = await oneThenTwoWorkers(context, base);
    await context.setWorkers(0);
    const floor = await floorDeliveriesPerSecond(context, base + 700_000);
    await context.setWorkers(1);
    const baseline = await noopJobsPerSecond(EVENTS, getConfig().worker.concurrency);
    return {
      subject: one.side,
      baseline,
      floor: floor.side,
      dbCommands: one.dbCommands,
      floorDbCommands: floor.dbCommands,
      note: twoWorkersNote,
    };
  },
};
