/**
 * Faults on the way to a webhook endpoint, with real worker processes: a worker SIGKILLed while its
 * delivery is in flight (the receiver holding the request), and a receiver down for a while. Every event
 * is delivered, at least once, always under its one event id.
 */
import '../helpers/env';
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app';
import { newMerchant, type TestMerchant } from '../helpers/identity';
import { eventually, startProcess, stopAll } from '../helpers/processes';
import { Receiver } from '../webhooks/receiver';
import { createEndpoint, verifiedAt } from './helpers';
import { recordEvent, sweepUnfannedEvents } from '../../src/events/recording';
import { requeueLostEndpointDeliveries } from '../../src/webhooks/endpoint-delivery';
import { getQueue } from '../../src/queue/queues';
import { AccountEventModel } from '../../src/events/model';
import { ACCOUNT_EVENT_QUEUE } from '../../jobs/account-event';
import { ENDPOINT_WEBHOOK_QUEUE } from '../../jobs/endpoint-webhook';
import { EndpointDeliveryModel } from '../../src/webhooks/endpoint-model';

// A short lock, so the job of a killed worker comes back in seconds.
const WORKERS = { WORKER_LOCK_DURATION_MS: '2000', WORKER_QUEUES: 'endpoint-webhook,account-event' };

let app: TestApp;
let merchant: TestMerchant;
const receiver = new Receiver();

test.before(async () => {
  await receiver.start();
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = `127.0.0.1:${receiver.port}`;
  process.env.WEBHOOK_RETRY_BASE_MS = '200';
  process.env.WEBHOOK_ENDPOINT_ATTEMPTS = '8';
  process.env.WEBHOOK_TIMEOUT_MS = '20000';
  app = await startTestApp();
  merchant = await newMerchant();
});
test.after.always(async () => {
  await app?.close();
  receiver.close();
  await stopAll();
});

test.serial('a worker killed mid-delivery: another delivers the event, under the same id', async (t) => {
  // The first POST is held (never answered), the next ones answered.
  const endpoint = await createEndpoint(app, merchant, { url: receiver.url('/held', [0, 200]), enabled_events: ['*'] });
  const doomed = await startProcess('worker', WORKERS);
  const event = await recordEvent({ merchantId: merchant.merchantId, type: 'pix.paid', objectId: 'kill1', data: {} });
  await eventually(() => receiver.at('/held').length === 1, 30_000);
  doomed.child.kill('SIGKILL');
  t.is((await doomed.exited).signal, 'SIGKILL');

  const survivor = await startProcess('worker', WORKERS);
  const delivered = await eventually(async () => {
    const delivery = await EndpointDeliveryModel.findById(`${event._id}.${endpoint.id}`).lean();
    return delivery?.state === 'delivered' && delivery;
  }, 60_000);
  t.truthy(delivered);
  const received = verifiedAt(receiver, '/held', endpoint.secret);
  t.true(received.length >= 2);
  t.true(received.every((e) => e.id === event._id));
  await survivor.stop();
});

test.serial('a receiver down for a while, then up: every event is delivered once it answers', async (t) => {
  const worker = await startProcess('worker', WORKERS);
  const endpoint = await createEndpoint(app, merchant, {
    url: receiver.url('/outage', [503, 503, 503, 502, 200]),
    enabled_events: ['refund.succeeded', 'refund.failed'],
  });
  const events = await Promise.all(
    [1, 2, 3].map((n) =>
      recordEvent({ merchantId: merchant.merchantId, type: 'refund.succeeded', objectId: `out${n}`, data: { n } }),
    ),
  );
  await eventually(
    async () =>
      (await EndpointDeliveryModel.countDocuments({ endpointId: endpoint.id, state: 'delivered' })) === events.length,
    60_000,
  );
  const received = verifiedAt(receiver, '/outage', endpoint.secret);
  t.deepEqual([...new Set(received.map((e) => e.id))].sort(), events.map((e) => e._id).sort());
  t.true(received.length >= events.length + 4, 'the failed attempts were retried');
  await worker.stop();
});

test.serial('Redis loses the queued jobs: the sweeps fan out and deliver every event all the same', async (t) => {
  const endpoint = await createEndpoint(app, merchant, { url: receiver.url('/lost'), enabled_events: ['pix.expired'] });
  // Recorded while no worker runs: the fan-out jobs wait in Redis, and are lost with it.
  const event = await recordEvent({
    merchantId: merchant.merchantId,
    type: 'pix.expired',
    objectId: 'lost1',
    data: {},
  });
  await getQueue(ACCOUNT_EVENT_QUEUE).obliterate({ force: true });
  const later = new Date(Date.now() + 11 * 60_000);
  // (At least 1: the first test's worker may have been killed between a fan-out and its mark.)
  t.true((await sweepUnfannedEvents(later)) >= 1, 'the event left unfanned is fanned out by the sweep');
  t.true((await AccountEventModel.findById(event._id).lean())!.fannedOut);
  // Its delivery's job is lost too: the lost-job pass queues it again.
  await getQueue(ENDPOINT_WEBHOOK_QUEUE).obliterate({ force: true });
  t.true((await requeueLostEndpointDeliveries(later)) >= 1);
  const worker = await startProcess('worker', WORKERS);
  await eventually(() => receiver.at('/lost').length >= 1, 30_000);
  t.is(verifiedAt(receiver, '/lost', endpoint.secret)[0].id, event._id);
  await worker.stop();
});
