import '../helpers/env';
import './quiet-logs';
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encryptedTestCard } from '../helpers/cards';
import { getQueue } from '../../src/queue/queues';
import { redisAnswers } from '../../src/platform/redis';
import { WebhookEventModel } from '../../src/webhooks/model';
import { UNQUEUED_EVENT_GRACE_MS } from '../../src/webhooks/service';
import { deliveryJobId, LINK_WEBHOOK_QUEUE } from '../../jobs/link-webhook';
import { runSchedulerTick } from '../../workers/scheduler';
import { eventually, startProcess } from '../helpers/processes';
import { bearer, newMerchant } from '../helpers/identity';
import { json } from '../helpers/app';
import { ownRedisForThisFile, type OwnedRedis } from './owned-services';
import { useServices } from '../helpers/services';
import { send } from '../helpers/http';

let redis: OwnedRedis;
const delivered: string[] = [];
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    delivered.push(String(req.headers['webhook-id']));
    res.writeHead(200).end();
  });
});

useServices({
  setUp: async () => {
    redis = await ownRedisForThisFile();
  },
  ready: () => new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve)),
  cleanUp: async () => {
    receiver.closeAllConnections();
    receiver.close();
  },
  tearDown: async () => {
    await redis?.destroy();
  },
});

// A link paid while Redis is down is charged and its payment_link.paid event stored, but its
// delivery job cannot be queued. The scheduler sweep (requeueUndeliveredLinkEvents) queues it
// once Redis is back; the tick runs in-process with a `now` past the grace period, so the test
// never waits on the clock.
test('a link paid while redis is down gets its webhook delivered exactly once when redis is back', async (t) => {
  const hookHost = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  const env = { ACQUIRER_BASE_URL: sandbox.url, ACQUIRER_QUERY_URL: sandbox.url, WEBHOOK_TEST_ALLOW_HOSTS: hookHost };
  const [web] = await Promise.all([startProcess('web', env), startProcess('worker', env)]);
  const merchant = await newMerchant();
  const created = await send(web, 'POST', '/api/v1/payment-links/', bearer(merchant.merchantToken), {
    value: 4990,
    description: 'paid during an outage',
    webhookUrl: `http://${hookHost}/hook`,
  });
  const link = await json(created);
  t.is(created.status, 201);
  await send(
    web,
    'PATCH',
    `/api/v1/checkout-links/${link.payment_link_guid}/payer`,
    { 'content-type': 'application/json' },
    { payer_name: 'Maria Silva', document: '529.982.247-25' },
  );

  await redis.stop();
  const card = encryptedTestCard();
  const paid = await send(
    web,
    'PUT',
    `/api/v1/checkout-links/${link.payment_link_guid}/pay`,
    { 'content-type': 'application/json' },
    { encrypted_card: card },
  );
  t.is(paid.status, 200, 'the payment itself needs no Redis');
  await redis.start();
  await eventually(async () => (await send(web, 'GET', '/readyz')).status === 200, 30_000, 250);
  await eventually(() => redisAnswers(), 30_000, 250);

  const eventId = `msg_${link.id}_1`;
  const stored = await WebhookEventModel.findById(eventId).lean();
  t.truthy(stored, 'the event was stored during the outage');
  t.is(stored!.state, 'pending');
  t.is(stored!.queuedAt, null, 'its delivery could not be queued');
  const queue = getQueue(LINK_WEBHOOK_QUEUE);
  t.falsy(await queue.getJob(deliveryJobId(stored!)));

  // Two ticks past the grace period: the second finds nothing left to queue.
  const afterGrace = new Date(stored!.createdAt.getTime() + UNQUEUED_EVENT_GRACE_MS + 1000);
  await runSchedulerTick(afterGrace);
  await runSchedulerTick(new Date(afterGrace.getTime() + 60_000));
  await eventually(async () => (await queue.getJobCounts('completed')).completed === 1, 30_000, 250);
  const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'failed', 'completed');
  t.like(counts, { waiting: 0, delayed: 0, active: 0, failed: 0, completed: 1 });
  t.deepEqual(delivered, [eventId], 'delivered exactly once');
  const after = await WebhookEventModel.findById(eventId).lean();
  t.is(after!.state, 'delivered');
  t.is(after!.attemptCount, 1);
  t.truthy(after!.queuedAt);

  // A later tick leaves a delivered event alone.
  await runSchedulerTick(new Date(afterGrace.getTime() + 3600_000));
  t.like(await queue.getJobCounts('waiting', 'delayed', 'active'), { waiting: 0, delayed: 0, active: 0 });
  t.deepEqual(delivered, [eventId]);
});
