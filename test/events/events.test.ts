/**
 * Account events and webhook endpoints, through the real app in this process, a real worker process,
 * the sandbox acquirer and a receiver on loopback (allowed by WEBHOOK_TEST_ALLOW_HOSTS): each state
 * change makes one event, delivered to each subscribed endpoint and verified by the standardwebhooks
 * package; another merchant sees none of it; the events API answers the same bodies.
 */
import '../helpers/env';
import { getConfig } from '../../config';
import test from 'ava';
import { Webhook } from 'standardwebhooks';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { call, callJson } from '../helpers/http';
import { eventually, freePort, startProcess, stopAll } from '../helpers/processes';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { Receiver } from '../webhooks/receiver';
import { cardSale, PRE_CAPTURE } from '../sales/helpers';
import { createEndpoint, untilReceived, verifiedAt } from './helpers';
import { AccountEventModel } from '../../src/events/model';
import { EndpointAttemptModel, EndpointDeliveryModel, WebhookEndpointModel } from '../../src/webhooks/endpoint-model';
import { recordEvent } from '../../src/events/recording';
import { removeExpiredEvents } from '../../src/events/reads';
import { verifyWebhook, WebhookVerificationError } from '../../clients/typescript/src';

let app: TestApp;
let merchant: TestMerchant;
let other: TestMerchant;
const receiver = new Receiver();
/** A loopback port nothing listens on, allow-listed: a delivery there is refused by the system. */
let closedPort: number;

test.before(async () => {
  await receiver.start();
  closedPort = await freePort();
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = `127.0.0.1:${receiver.port},127.0.0.1:${closedPort}`;
  // A short schedule: 3 attempts, 100 ms then 200 ms apart (jittered).
  process.env.WEBHOOK_RETRY_BASE_MS = '100';
  process.env.WEBHOOK_ENDPOINT_ATTEMPTS = '3';
  process.env.WEBHOOK_TIMEOUT_MS = '4000';
  app = await startTestApp();
  await startProcess('worker', { WORKER_QUEUES: 'endpoint-webhook,account-event' });
  [merchant, other] = await Promise.all([newMerchant(), newMerchant()]);
});
test.after.always(async () => {
  await app?.close();
  receiver.close();
  await closeAcquirerClient();
  await stopAll();
});

const as = (m: TestMerchant) => bearer(m.merchantToken);

test.serial(
  'a captured sale reaches the subscribed endpoint once, verified; the unsubscribed one gets nothing',
  async (t) => {
    const all = await createEndpoint(app, merchant, { url: receiver.url('/all'), enabled_events: ['*'] });
    t.is(all.status, 201);
    t.regex(all.secret, /^whsec_/);
    const refundsOnly = await createEndpoint(app, merchant, {
      url: receiver.url('/refunds-only'),
      enabled_events: ['refund.succeeded'],
      description: 'ERP',
    });
    t.is(refundsOnly.status, 201);

    const sale = await callJson(app, 'POST', PRE_CAPTURE, as(merchant), cardSale());
    t.is(sale.status, 200, sale.text);
    const saleId = sale.body.data.id;
    const capture = await callJson(app, 'PUT', `/api/v1/online/sales/${saleId}/capture/`, as(merchant));
    t.is(capture.status, 200, capture.text);
    const [authorized] = await untilReceived(receiver, '/all', all.secret, 'sale.authorized');
    const [captured] = await untilReceived(receiver, '/all', all.secret, 'sale.captured');
    t.is(authorized.id, `evt_sale_${saleId}_authorized`);
    t.is(authorized.sequence, 1);
    t.is(captured.id, `evt_sale_${saleId}_captured`);
    t.is(captured.object.kind, 'sale');
    t.is(captured.object.id, String(saleId));
    t.is(captured.sequence, 2);
    t.like(captured.data, { id: saleId, sale_status: 'CONFIRMED', value: 15990 });
    const delivery = receiver.at('/all').find((r) => JSON.parse(r.body).id === captured.id)!;
    t.is(delivery.headers['webhook-id'], captured.id);
    // The typed client verifies it too, and refuses a byte changed.
    const typed = verifyWebhook(delivery.body, delivery.headers, all.secret);
    t.is(typed.type, 'sale.captured');
    if (typed.type === 'sale.captured') t.is(typed.data.sale_status, 'CONFIRMED');
    t.throws(() => verifyWebhook(delivery.body.replace('15990', '15991'), delivery.headers, all.secret), {
      instanceOf: WebhookVerificationError,
    });
    // Signed with this endpoint's secret only.
    t.throws(() => new Webhook(refundsOnly.secret).verify(delivery.body, delivery.headers));

    // The events API answers the same body; the delivery log shows the attempt.
    const listed = await callJson(app, 'GET', `/api/v1/events/?object_id=${saleId}`, as(merchant));
    t.is(listed.status, 200);
    t.deepEqual(listed.body.results, [captured, authorized]);
    const one = await callJson(app, 'GET', `/api/v1/events/${captured.id}/`, as(merchant));
    t.deepEqual(one.body, captured);
    const log = await eventually(async () => {
      const res = await callJson(app, 'GET', `/api/v1/webhook-endpoints/${all.id}/deliveries/`, as(merchant));
      return res.body.results.find((d: any) => d.event_id === captured.id && d.state === 'delivered');
    });
    t.is(log.id, `${captured.id}.${all.id}`);
    t.like(log.attempts[0], { status_code: 200, success: true, trigger: 'scheduled' });

    // Once the event is marked fanned out, every delivery it will ever have exists: none to the endpoint that
    // did not subscribe to it, so nothing can arrive there later.
    await eventually(async () => (await AccountEventModel.findById(captured.id).lean())?.fannedOut === true);
    t.is(await EndpointDeliveryModel.countDocuments({ eventId: captured.id, endpointId: refundsOnly.id }), 0);
    t.deepEqual(receiver.at('/refunds-only'), []);
    t.is(verifiedAt(receiver, '/all', all.secret).filter((e) => e.id === captured.id).length, 1);
  },
);

test.serial('another merchant sees none of the endpoints, events or deliveries: 404', async (t) => {
  const mine = await createEndpoint(app, merchant, { url: receiver.url('/mine'), enabled_events: ['*'] });
  const event = await recordEvent({ merchantId: merchant.merchantId, type: 'pix.expired', objectId: 'x1', data: {} });
  for (const [method, path] of [
    ['GET', `/api/v1/webhook-endpoints/${mine.id}/`],
    ['PATCH', `/api/v1/webhook-endpoints/${mine.id}/`],
    ['DELETE', `/api/v1/webhook-endpoints/${mine.id}/`],
    ['POST', `/api/v1/webhook-endpoints/${mine.id}/rotate-secret/`],
    ['GET', `/api/v1/webhook-endpoints/${mine.id}/deliveries/`],
    ['POST', `/api/v1/webhook-endpoints/${mine.id}/deliveries/${event._id}.${mine.id}/redeliver/`],
    ['GET', `/api/v1/events/${event._id}/`],
  ]) {
    const res = await call(app, method, path, as(other), method === 'PATCH' ? { description: 'x' } : undefined);
    t.is(res.status, 404, `${method} ${path}`);
  }
  const list = await callJson(app, 'GET', '/api/v1/webhook-endpoints/', as(other));
  t.deepEqual(list.body.results, []);
  const events = await callJson(app, 'GET', '/api/v1/events/', as(other));
  t.deepEqual(events.body.results, []);
  // Still there for its owner.
  t.is((await callJson(app, 'GET', `/api/v1/webhook-endpoints/${mine.id}/`, as(merchant))).status, 200);
  t.is((await call(app, 'DELETE', `/api/v1/webhook-endpoints/${mine.id}/`, as(merchant))).status, 204);
  t.is((await callJson(app, 'GET', `/api/v1/webhook-endpoints/${mine.id}/`, as(merchant))).status, 404);
});

test.serial('private, loopback and plain-http URLs are refused, naming the field', async (t) => {
  for (const url of [
    'http://example.com/hook',
    'https://127.0.0.1/hook',
    'https://10.0.0.8/hook',
    'https://localhost/',
  ]) {
    const res = await callJson(app, 'POST', '/api/v1/webhook-endpoints/', as(merchant), { url, enabled_events: ['*'] });
    t.is(res.status, 400, url);
    t.deepEqual(res.body, { url: ['Enter a safe public HTTPS URL'] });
  }
  const bad = await callJson(app, 'POST', '/api/v1/webhook-endpoints/', as(merchant), {
    url: receiver.url('/x'),
    enabled_events: ['sale.exploded'],
  });
  t.is(bad.status, 400);
  t.truthy(bad.body['enabled_events.0']);
});

test.serial('a public address on any port but 443 is refused, naming the field and the port', async (t) => {
  // Before the port rule this was 201, and the delivery log then told the merchant whether 1.1.1.1 had
  // Redis's port open: a port scanner running from our address.
  const created = await callJson(app, 'POST', '/api/v1/webhook-endpoints/', as(merchant), {
    url: 'https://1.1.1.1:6379/',
    enabled_events: ['*'],
  });
  t.is(created.status, 400, created.text);
  t.deepEqual(created.body, { url: ['Enter a safe public HTTPS URL on port 443 (not 6379)'] });
  const mine = await createEndpoint(app, merchant, { url: 'https://1.1.1.1/hook', enabled_events: ['refund.failed'] });
  t.is(mine.status, 201);
  const moved = await callJson(app, 'PATCH', `/api/v1/webhook-endpoints/${mine.id}/`, as(merchant), {
    url: 'https://1.1.1.1:25/hook',
  });
  t.is(moved.status, 400, moved.text);
  t.deepEqual(moved.body, { url: ['Enter a safe public HTTPS URL on port 443 (not 25)'] });
  t.is((await WebhookEndpointModel.findById(mine.id).lean())!.url, 'https://1.1.1.1/hook');
  await call(app, 'DELETE', `/api/v1/webhook-endpoints/${mine.id}/`, as(merchant));
});

/** Transport words a merchant must never see: the system's error codes and texts, addresses with ports. */
const RAW_TRANSPORT_TEXT = /ECONN|ETIMEDOUT|ENOTFOUND|EAI_|UND_ERR|connect |\d+\.\d+\.\d+\.\d+:\d+|receiver answered/;

test.serial('a delivery to a closed port shows connection_refused, never the transport text', async (t) => {
  const closed = await createEndpoint(app, merchant, {
    url: `http://127.0.0.1:${closedPort}/hook`,
    enabled_events: ['pix.expired'],
  });
  t.is(closed.status, 201, JSON.stringify(closed.body));
  const event = await recordEvent({
    merchantId: merchant.merchantId,
    type: 'pix.expired',
    objectId: 'closedport1',
    data: {},
  });
  const failed = await eventually(async () => {
    const res = await callJson(app, 'GET', `/api/v1/webhook-endpoints/${closed.id}/deliveries/`, as(merchant));
    return res.body.results.find((d: any) => d.event_id === event._id && d.state === 'failed');
  }, 30_000);
  t.deepEqual(
    failed.attempts.map((a: any) => [a.status_code, a.success, a.error]),
    [
      [null, false, 'connection_refused'],
      [null, false, 'connection_refused'],
      [null, false, 'connection_refused'],
    ],
  );
  t.notRegex(JSON.stringify(failed), RAW_TRANSPORT_TEXT);
  const disabled = await eventually(async () => {
    const res = await callJson(app, 'GET', `/api/v1/webhook-endpoints/${closed.id}/`, as(merchant));
    return res.body.enabled === false && res.body;
  }, 30_000);
  t.regex(disabled.disabled_reason, /\(3 attempts, last: connection_refused\)/);
  t.notRegex(disabled.disabled_reason, RAW_TRANSPORT_TEXT);
  await call(app, 'DELETE', `/api/v1/webhook-endpoints/${closed.id}/`, as(merchant));
});

test.serial('attempts stored with the transport text before categories are shown as categories', async (t) => {
  const old = await createEndpoint(app, merchant, { url: receiver.url('/old'), enabled_events: ['refund.failed'] });
  const event = await recordEvent({
    merchantId: merchant.merchantId,
    type: 'pix.expired',
    objectId: 'legacytext1',
    data: {},
  });
  const deliveryId = `${event._id}.${old.id}`;
  await EndpointDeliveryModel.create({
    _id: deliveryId,
    merchantId: merchant.merchantId,
    endpointId: old.id,
    eventId: event._id,
    eventType: 'pix.expired',
    body: '{}',
    state: 'failed',
    attemptCount: 6,
    createdAt: new Date(),
  });
  const legacy: [string, number | null][] = [
    ['ECONNREFUSED: connect ECONNREFUSED 1.1.1.1:6379', null],
    ['no answer within 5000 ms', null],
    ['UND_ERR_CONNECT_TIMEOUT: Connect Timeout Error (attempted address: 1.1.1.1:22, timeout: 5000ms)', null],
    ['receiver answered 503', 503],
    ['redirect 302 not followed', 302],
    ['DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate', null],
    ['refused: the URL is no longer a safe public HTTPS URL (resolves to an internal address)', null],
    ['ECONNRESET: read ECONNRESET', null],
  ];
  await EndpointAttemptModel.insertMany(
    legacy.map(([error, statusCode], i) => ({
      deliveryId,
      endpointId: old.id,
      merchantId: merchant.merchantId,
      trigger: 'scheduled',
      at: new Date(Date.now() + i),
      durationMs: 5,
      statusCode,
      success: false,
      error,
    })),
  );
  await WebhookEndpointModel.updateOne(
    { _id: old.id },
    {
      $set: {
        enabled: false,
        disabledAt: new Date(),
        disabledReason:
          `Disabled on 2025-01-01T00:00:00.000Z: every attempt to deliver ${event._id} failed (16 attempts, ` +
          'last: ECONNREFUSED: connect ECONNREFUSED 1.1.1.1:6379), with no successful delivery since.',
      },
    },
  );
  const log = await callJson(app, 'GET', `/api/v1/webhook-endpoints/${old.id}/deliveries/`, as(merchant));
  t.is(log.status, 200, log.text);
  const [delivery] = log.body.results;
  t.deepEqual(
    delivery.attempts.map((a: any) => a.error),
    [
      'connection_refused',
      'timeout',
      'timeout',
      'http_status',
      'http_status',
      'tls',
      'unsafe_url',
      'connection_failed',
    ],
  );
  const read = await callJson(app, 'GET', `/api/v1/webhook-endpoints/${old.id}/`, as(merchant));
  t.is(
    read.body.disabled_reason,
    `Disabled on 2025-01-01T00:00:00.000Z: every attempt to deliver ${event._id} failed (16 attempts, ` +
      'last: connection_refused), with no successful delivery since.',
  );
  t.notRegex(JSON.stringify([log.body, read.body.disabled_reason]), RAW_TRANSPORT_TEXT);
  await call(app, 'DELETE', `/api/v1/webhook-endpoints/${old.id}/`, as(merchant));
});

test.serial(
  'an event is recorded once under concurrent emitters, and an object numbers its events in order',
  async (t) => {
    const emit = () =>
      recordEvent({ merchantId: merchant.merchantId, type: 'sale.captured', objectId: 'race1', data: { n: 1 } });
    const results = await Promise.all(Array.from({ length: 8 }, emit));
    t.true(results.every((r) => r._id === 'evt_sale_race1_captured'));
    t.is(await AccountEventModel.countDocuments({ objectKey: 'sale_race1' }), 1);
    const [a, b, c] = await Promise.all(
      (['sale.refunded', 'sale.cancelled', 'sale.authorized'] as const).map((type) =>
        recordEvent({ merchantId: merchant.merchantId, type, objectId: 'race1', data: {} }),
      ),
    );
    t.deepEqual([a.sequence, b.sequence, c.sequence].sort(), [2, 3, 4]);
    // Each subscribed endpoint has one delivery of the raced event.
    await eventually(
      async () => (await EndpointDeliveryModel.countDocuments({ eventId: 'evt_sale_race1_captured' })) > 0,
    );
    const deliveries = await EndpointDeliveryModel.find({ eventId: 'evt_sale_race1_captured' }).lean();
    t.is(new Set(deliveries.map((d) => d.endpointId)).size, deliveries.length);
  },
);

test.serial(
  'a failing endpoint is retried, then disabled with the reason shown; redelivery is rate-limited',
  async (t) => {
    const failing = await createEndpoint(app, merchant, {
      url: receiver.url('/down', [503]),
      enabled_events: ['pix.paid'],
    });
    const event = await recordEvent({ merchantId: merchant.merchantId, type: 'pix.paid', objectId: 'down1', data: {} });
    const disabled = await eventually(async () => {
      const res = await callJson(app, 'GET', `/api/v1/webhook-endpoints/${failing.id}/`, as(merchant));
      return res.body.enabled === false && res.body;
    }, 30_000);
    t.regex(disabled.disabled_reason, /every attempt to deliver evt_sale_down1_paid failed .*last: http_status 503\)/);
    t.is(receiver.at('/down').length, 3);
    const deliveries = await callJson(app, 'GET', `/api/v1/webhook-endpoints/${failing.id}/deliveries/`, as(merchant));
    t.like(deliveries.body.results[0], { event_id: event._id, state: 'failed', attempt_count: 3 });

    // Operators see it on /metrics.
    const { user, password } = getConfig().dashboard;
    const metrics = await call(app, 'GET', '/metrics', {
      authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
    });
    t.regex(metrics.text, /needs_attention\{kind="webhook_endpoint_disabled_by_failures"\} [1-9]/);
    t.regex(metrics.text, /webhook_endpoint_outbox_oldest_pending_seconds \d+/);
    // Enabled again by the merchant, a redelivery goes through once the receiver is back.
    receiver.url('/down', [200]);
    const enabled = await callJson(app, 'PATCH', `/api/v1/webhook-endpoints/${failing.id}/`, as(merchant), {
      enabled: true,
    });
    t.like(enabled.body, { enabled: true, disabled_reason: null });
    const path = `/api/v1/webhook-endpoints/${failing.id}/deliveries/${event._id}.${failing.id}/redeliver/`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await callJson(app, 'POST', path, as(merchant))).status);
    t.deepEqual(statuses, [202, 202, 202, 202, 202, 429]);
    await eventually(() => receiver.at('/down').length >= 4);
    t.is(verifiedAt(receiver, '/down', failing.secret).at(-1).id, event._id);
  },
);

test.serial('a rotated secret signs beside the old one; the endpoints are bounded per merchant', async (t) => {
  const m = await newMerchant();
  const first = await createEndpoint(app, m, { url: receiver.url('/rotated'), enabled_events: ['pix.expired'] });
  const rotated = await callJson(app, 'POST', `/api/v1/webhook-endpoints/${first.id}/rotate-secret/`, as(m));
  t.is(rotated.status, 200);
  t.not(rotated.body.secret, first.secret);
  t.truthy(rotated.body.previous_secret_valid_until);
  await recordEvent({ merchantId: m.merchantId, type: 'pix.expired', objectId: 'rot1', data: {} });
  const [byNew] = await untilReceived(receiver, '/rotated', rotated.body.secret, 'pix.expired');
  t.is(verifiedAt(receiver, '/rotated', first.secret)[0].id, byNew.id);
  const created = [];
  for (let i = 1; i < 16; i++)
    created.push((await createEndpoint(app, m, { url: receiver.url(`/n${i}`), enabled_events: ['*'] })).status);
  t.true(created.every((s) => s === 201));
  const over = await createEndpoint(app, m, { url: receiver.url('/n17'), enabled_events: ['*'] });
  t.is(over.status, 409);
  const listed = await callJson(app, 'GET', '/api/v1/webhook-endpoints/', as(m));
  t.is(listed.body.results.length, 16);
  t.false('secret' in listed.body.results[0]);
});

test.serial('the events API pages newest first by cursor, with type, object and since filters', async (t) => {
  const m = await newMerchant();
  const base = Date.now() - 60_000;
  for (let i = 0; i < 5; i++)
    await recordEvent(
      { merchantId: m.merchantId, type: i % 2 ? 'pix.paid' : 'pix.expired', objectId: `p${i}`, data: { i } },
      new Date(base + i * 1000),
    );
  const seen: string[] = [];
  let cursor = '';
  for (let page = 0; page < 5; page++) {
    const res = await callJson(app, 'GET', `/api/v1/events/?limit=2${cursor ? `&cursor=${cursor}` : ''}`, as(m));
    t.is(res.status, 200);
    seen.push(...res.body.results.map((e: any) => e.data.i));
    if (!res.body.next_cursor) break;
    cursor = res.body.next_cursor;
  }
  t.deepEqual(seen, [4, 3, 2, 1, 0]);
  const paid = await callJson(app, 'GET', '/api/v1/events/?type=pix.paid', as(m));
  t.deepEqual(
    paid.body.results.map((e: any) => e.data.i),
    [3, 1],
  );
  const since = new Date(base + 2500).toISOString();
  const recent = await callJson(app, 'GET', `/api/v1/events/?since=${encodeURIComponent(since)}`, as(m));
  t.deepEqual(
    recent.body.results.map((e: any) => e.data.i),
    [4, 3],
  );
  const byObject = await callJson(app, 'GET', '/api/v1/events/?object_id=p2', as(m));
  t.is(byObject.body.results.length, 1);
  const bad = await callJson(app, 'GET', '/api/v1/events/?limit=0&type=nope', as(m));
  t.is(bad.status, 400);
  t.truthy(bad.body.limit);
  t.truthy(bad.body.type);
});

test.serial('events older than the retention, and their deliveries, are removed by the scheduler task', async (t) => {
  const m = await newMerchant();
  await createEndpoint(app, m, { url: receiver.url('/retention'), enabled_events: ['pix.expired'] });
  const old = await recordEvent(
    { merchantId: m.merchantId, type: 'pix.expired', objectId: 'old1', data: {} },
    new Date(Date.now() - 32 * 24 * 3600_000),
  );
  const recent = await recordEvent({ merchantId: m.merchantId, type: 'pix.expired', objectId: 'new1', data: {} });
  await eventually(
    async () => (await EndpointDeliveryModel.countDocuments({ eventId: old._id, state: 'delivered' })) === 1,
  );
  t.true((await removeExpiredEvents()) >= 1);
  t.is(await AccountEventModel.findById(old._id).lean(), null);
  t.is(await EndpointDeliveryModel.countDocuments({ eventId: old._id }), 0, 'its delivery went with it');
  t.truthy(await AccountEventModel.findById(recent._id).lean());
});
