/**
 * A real Redis restart under account events in flight: the file runs its own redis-server (the machine's
 * is never touched), the web, worker and scheduler processes on it. Redis is SIGKILLed while deliveries
 * are in flight (the receiver holding them) and started again on the same port:
 * - with AOF (appendfsync everysec, as docs/deploy.md recommends), the queued jobs come back with it and
 *   every event is delivered without any sweep;
 * - with no persistence at all, every job is gone, and the scheduler's sweeps find what the database
 *   says is not fanned out or not delivered and queue it again: every event is delivered all the same.
 * Duplicates only as at-least-once allows: the same event id, verified by standardwebhooks.
 */
import '../helpers/env';
import '../faults/quiet-logs';
import test from 'ava';
import fs from 'node:fs';
import mongoose from 'mongoose';
import { newMerchant, type TestMerchant } from '../helpers/identity';
import { eventually, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { useServicesOnOwnedRedis } from '../faults/owned-services';
import { Receiver } from '../webhooks/receiver';
import { createEndpoint, verifiedAt } from './helpers';
import { recordEvent, sweepUnfannedEvents } from '../../src/events/recording';
import { requeueUndeliveredEndpointDeliveries } from '../../src/webhooks/endpoint-delivery';
import { EndpointDeliveryModel } from '../../src/webhooks/endpoint-model';
import { AccountEventModel } from '../../src/events/model';
import { waitForRedis } from '../../src/platform/redis';
import { getQueue } from '../../src/queue/queues';
import { ACCOUNT_EVENT_QUEUE } from '../../jobs/account-event';
import { ENDPOINT_WEBHOOK_QUEUE } from '../../jobs/endpoint-webhook';

const owned = useServicesOnOwnedRedis();
const receiver = new Receiver();
let web: RunningProcess;
let merchant: TestMerchant;
// A short lock (a job whose worker lost Redis comes back in seconds), short timeouts and retries.
const WORKER = { WORKER_LOCK_DURATION_MS: '2000' };

test.before(async () => {
  await receiver.start();
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = `127.0.0.1:${receiver.port}`;
  process.env.WEBHOOK_RETRY_BASE_MS = '200';
  process.env.WEBHOOK_ENDPOINT_ATTEMPTS = '10';
  process.env.WEBHOOK_TIMEOUT_MS = '3000';
  // Every process of this file (children inherit the environment) is on the owned Redis.
  web = await startProcess('web');
  await startProcess('scheduler');
  merchant = await newMerchant();
});
test.after.always(async () => {
  receiver.close();
  await stopAll();
});

/** Records `count` events of one type while the receiver holds its first requests. */
async function eventsInFlight(path: string, tag: string, count: number, held: number) {
  const endpoint = await createEndpoint(web, merchant, {
    url: receiver.url(path, [...Array(held).fill(0), 200]),
    enabled_events: ['refund.succeeded'],
  });
  const events = [];
  for (let n = 0; n < count; n++) {
    events.push(
      await recordEvent({
        merchantId: merchant.merchantId,
        type: 'refund.succeeded',
        objectId: `${tag}${n}`,
        data: {},
      }),
    );
  }
  // The held requests are in flight: their deliveries are the workers' active jobs.
  await eventually(() => receiver.at(path).length >= held, 30_000);
  return { endpoint, ids: events.map((e) => e._id).sort() };
}

async function deliveredAll(endpointId: string, count: number, timeoutMs: number) {
  await eventually(
    async () => (await EndpointDeliveryModel.countDocuments({ endpointId, state: 'delivered' })) === count,
    timeoutMs,
    250,
  );
}

function receivedOnce(t: any, path: string, secret: string, ids: string[]) {
  const received = verifiedAt(receiver, path, secret);
  t.deepEqual([...new Set(received.map((e) => e.id))].sort(), ids, 'every event, and none other');
  t.true(received.length >= ids.length);
}

test.serial(
  'Redis SIGKILLed mid-delivery with AOF (everysec): its jobs come back, every event delivered',
  async (t) => {
    owned.redis.persistence = 'aof-everysec';
    await owned.redis.stop();
    await owned.redis.start();
    await waitForRedis();
    const worker = await startProcess('worker', WORKER);
    const { endpoint, ids } = await eventsInFlight('/aof', 'aof', 6, 2);
    // More than a second since the jobs were written: everysec has put them on disk.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await owned.redis.kill();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await owned.redis.start();

    // No sweep runs in time here (their grace periods are minutes): Redis itself brought the jobs back.
    await deliveredAll(endpoint.id, ids.length, 60_000);
    receivedOnce(t, '/aof', endpoint.secret, ids);
    t.is(worker.child.exitCode, null, 'the worker rode the restart out');
    t.is(web.child.exitCode, null);
    await worker.stop();
  },
);

test.serial('Redis SIGKILLed with no persistence: it comes back empty, the sweeps deliver every event', async (t) => {
  owned.redis.persistence = 'none';
  await owned.redis.stop();
  fs.rmSync(owned.redis.dir, { recursive: true, force: true });
  fs.mkdirSync(owned.redis.dir, { recursive: true });
  await owned.redis.start();
  await waitForRedis();
  const worker = await startProcess('worker', WORKER);
  const { endpoint, ids } = await eventsInFlight('/none', 'none', 6, 2);
  // And some whose fan-out jobs wait in Redis: recorded while no worker runs.
  await worker.stop();
  for (let n = 0; n < 3; n++) {
    const event = await recordEvent({
      merchantId: merchant.merchantId,
      type: 'refund.succeeded',
      objectId: `none-late${n}`,
      data: {},
    });
    ids.push(event._id);
  }
  ids.sort();
  await owned.redis.kill();
  await owned.redis.start();
  await waitForRedis();
  // It came back empty: no delivery or fan-out job is left to run.
  for (const queue of [ENDPOINT_WEBHOOK_QUEUE, ACCOUNT_EVENT_QUEUE]) {
    const counts = await getQueue(queue).getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    t.true(
      Object.values(counts).every((n) => n === 0),
      `${queue} lost its jobs: ${JSON.stringify(counts)}`,
    );
  }
  const restarted = await startProcess('worker', WORKER);

  // Redis lost every job: the scheduler's passes, as they run past their grace periods, queue again what
  // the database says is owed (fan-outs not done, deliveries pending without a job).
  const later = () => new Date(Date.now() + 11 * 60_000);
  await eventually(
    async () => {
      await sweepUnfannedEvents(later());
      await requeueUndeliveredEndpointDeliveries(later());
      return (await EndpointDeliveryModel.countDocuments({ endpointId: endpoint.id, state: 'delivered' })) === 9;
    },
    90_000,
    2000,
  );
  receivedOnce(t, '/none', endpoint.secret, ids);
  const stored = await AccountEventModel.find({ _id: mongoose.trusted({ $in: ids }) }, { fannedOut: 1 }).lean();
  t.is(stored.length, ids.length, 'each event stored once');
  t.true(stored.every((e) => e.fannedOut));
  await restarted.stop();
});
