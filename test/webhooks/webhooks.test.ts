import '../helpers/env';
import test from 'ava';
import { Webhook } from 'standardwebhooks';
import { getConfig } from '../../config';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { eventually, freePort, startProcess, stopAll } from '../helpers/processes';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { getQueue, startWorker } from '../../src/queue/queues';
import { linkWebhookProcessor } from '../../jobs/processors/link-webhook';
import { WebhookEventModel } from '../../src/webhooks/model';
import { deliverEvent } from '../../src/webhooks/delivery';
import { deliveryJobId, LINK_WEBHOOK_QUEUE, WEBHOOK_ATTEMPTS, webhookRetryDelay } from '../../jobs/link-webhook';
import { emitLinkEvent } from '../../src/webhooks/outbox';
import { signedHeaders } from '../../src/webhooks/secrets';
import { APPROVED_CARD, DENIED_CARD, readyLink } from '../payment-links/helpers';
import { callJson, send } from '../helpers/http';
import { Receiver } from './receiver';
import { encryptedTestCard } from '../helpers/cards';

/** eventually(), typed by the truthy value the check finally returns. */
async function until<T>(
  check: () => Promise<T | false | 0 | undefined | null> | T | false | 0 | undefined | null,
): Promise<T> {
  return (await eventually(check, 30_000)) as T;
}

let app: TestApp;
let merchant: TestMerchant;
const receiver = new Receiver();
/** A loopback port nothing listens on, allow-listed: a delivery there is refused by the system. */
let closedPort: number;

test.before(async () => {
  await receiver.start();
  // Not the port next to the receiver's: a test below uses that one as a port outside the allow-list.
  do closedPort = await freePort();
  while (closedPort === receiver.port + 1);
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  // pinned.test does not resolve on this machine: only a delivery pinned to checked addresses reaches it.
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = [
    `127.0.0.1:${receiver.port}`,
    `pinned.test:${receiver.port}`,
    `127.0.0.1:${closedPort}`,
  ].join(',');
  process.env.WEBHOOK_RETRY_BASE_MS = '150';
  // Generous, so a busy machine never turns an answered attempt into a timeout.
  process.env.WEBHOOK_TIMEOUT_MS = '4000';
  app = await startTestApp();
  if (getConfig().webhooks.testAllowHosts[0] !== `127.0.0.1:${receiver.port}`)
    throw new Error('config was loaded before the test set the allow-list');
  startWorker(linkWebhookProcessor.queue, linkWebhookProcessor.process, linkWebhookProcessor.worker);
  merchant = await newMerchant();
});
test.after.always(async () => {
  await app?.close();
  receiver.close();
  await closeAcquirerClient();
  await stopAll();
});

async function secretOf(m: TestMerchant): Promise<string> {
  const res = await send(app, 'GET', '/api/v1/webhooks/secret/', bearer(m.merchantToken));
  return (await json(res)).secret;
}

async function eventsOf(m: TestMerchant, linkId: number) {
  const res = await send(app, 'GET', `/api/v1/payment-links/${linkId}/webhooks/`, bearer(m.merchantToken));
  return (await json(res)).results as any[];
}

async function pay(guid: string, card = APPROVED_CARD) {
  return callJson(
    app,
    'PUT',
    `/api/v1/checkout-links/${guid}/pay`,
    {},
    { encrypted_card: encryptedTestCard({ number: card }) },
  );
}

/** The first event of the link, once it is in `state` (as the merchant's event list shows it). */
/**
 * The link's first event once it is in `state` with the attempt that settled it listed: an attempt and
 * the event's state are two writes sent at once (src/webhooks/delivery.ts), so the state may be read first.
 */
async function firstEventOf(linkId: number, state = 'delivered') {
  const [event] = await until(async () => {
    const events = await eventsOf(merchant, linkId);
    const attempts = events[0]?.attempts ?? [];
    const settledBy = state === 'delivered' ? attempts.some((a: { success: boolean }) => a.success) : attempts.length;
    return events[0]?.state === state && settledBy && events;
  });
  return event;
}

/** A link that sends its events to `webhookUrl`, paid; with its first event once that is in `state`. */
async function payWithWebhook(webhookUrl: string, state = 'delivered') {
  const { id, guid } = await readyLink(app.url, merchant, { webhookUrl });
  await pay(guid);
  return { id, guid, event: await firstEventOf(id, state) };
}

test('a paid link sends an event that standardwebhooks verifies', async (t) => {
  const webhookUrl = receiver.url('/paid');
  const { id, guid } = await readyLink(app.url, merchant, { webhookUrl, value: 2500 });
  t.true((await pay(guid)).body.approved);
  const [delivery] = await until(() => receiver.at('/paid').length && receiver.at('/paid'));
  const verified = new Webhook(await secretOf(merchant)).verify(delivery.body, delivery.headers) as any;
  t.is(verified.type, 'payment_link.paid');
  t.like(verified.data, { id, payment_link_guid: guid, status: 2, value: 2500, sequence: 1 });
  t.is(delivery.headers['webhook-id'], `msg_${id}_1`);
  t.regex(delivery.headers['webhook-signature'], /^v1,[A-Za-z0-9+/=]+$/);
  t.throws(() =>
    new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(delivery.body, delivery.headers),
  );
  const event = await firstEventOf(id);
  t.is(event.attempts.length, 1);
  t.like(event.attempts[0], { status_code: 200, success: true, error: null, trigger: 'scheduled' });
  t.true(Number.isInteger(event.attempts[0].duration_ms));
});

test('a delivery that fails twice succeeds on the third attempt', async (t) => {
  const webhookUrl = receiver.url('/flaky', [503, 500, 204]);
  const { id, event } = await payWithWebhook(webhookUrl);
  t.deepEqual(
    event.attempts.map((a: any) => a.status_code),
    [503, 500, 204],
  );
  t.deepEqual(
    event.attempts.map((a: any) => a.success),
    [false, false, true],
  );
  t.deepEqual(
    event.attempts.map((a: any) => a.error),
    ['http_status', 'http_status', null],
  );
  const deliveries = receiver.at('/flaky');
  t.is(deliveries.length, 3);
  t.is(new Set(deliveries.map((d) => d.headers['webhook-id'])).size, 1);
  const secret = await secretOf(merchant);
  for (const d of deliveries) t.notThrows(() => new Webhook(secret).verify(d.body, d.headers));
});

test('a 410 stops the retries', async (t) => {
  const webhookUrl = receiver.url('/gone', [410]);
  const { id, event } = await payWithWebhook(webhookUrl, 'gone');
  const jobId = deliveryJobId((await WebhookEventModel.findById(event.id).lean())!);
  const job = await getQueue(LINK_WEBHOOK_QUEUE).getJob(jobId);
  t.true(await until(() => job!.isFailed()));
  const failed = await getQueue(LINK_WEBHOOK_QUEUE).getJob(jobId);
  t.is(failed!.attemptsMade, 1);
  t.is(failed!.opts.attempts, WEBHOOK_ATTEMPTS);
  t.is(receiver.at('/gone').length, 1);
  t.is(event.attempts.length, 1);
  t.is(event.attempts[0].status_code, 410);
});

test('redirects are not followed', async (t) => {
  const webhookUrl = receiver.url('/moved', [302, 200]);
  const { id, event } = await payWithWebhook(webhookUrl);
  t.is(event.attempts[0].status_code, 302);
  t.false(event.attempts[0].success);
  t.is(event.attempts[0].error, 'http_status');
  t.is(receiver.at('/moved-redirected').length, 0);
});

test('a receiver that does not answer in time is a failed attempt', async (t) => {
  const webhookUrl = receiver.url('/slow', [0, 200]);
  const { id, event } = await payWithWebhook(webhookUrl);
  t.is(event.attempts[0].status_code, null);
  t.is(event.attempts[0].error, 'timeout');
  t.true(event.attempts[1].success);
});

test('each event of a link carries the next sequence number', async (t) => {
  const webhookUrl = receiver.url('/sequence');
  const { id, guid } = await readyLink(app.url, merchant, { webhookUrl });
  t.false((await pay(guid, DENIED_CARD)).body.approved);
  t.true((await pay(guid)).body.approved);
  const events = await until(async () => {
    const list = await eventsOf(merchant, id);
    return list.length === 2 && list.every((e) => e.state === 'delivered') && list;
  });
  t.deepEqual(
    events.map((e) => [e.type, e.sequence, e.id]),
    [
      ['payment_link.payment_denied', 1, `msg_${id}_1`],
      ['payment_link.paid', 2, `msg_${id}_2`],
    ],
  );
  t.is(events[0].payload.data.denial.return_code, '05');
  t.is(events[1].payload.data.sequence, 2);
});

test('concurrent events of one link never share a sequence number', async (t) => {
  const { id } = await readyLink(app.url, merchant);
  const url = receiver.url('/burst');
  const events = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      emitLinkEvent({ merchantId: merchant.merchantId, linkId: id, url, type: 'payment_link.paid', data: { n: i } }),
    ),
  );
  t.deepEqual(
    events.map((e) => e.sequence).sort((a, b) => a - b),
    [1, 2, 3, 4, 5, 6],
  );
});

test('a merchant can ask for a redelivery', async (t) => {
  const webhookUrl = receiver.url('/again');
  const { id, event } = await payWithWebhook(webhookUrl);
  const res = await send(
    app,
    'POST',
    `/api/v1/payment-links/${id}/webhooks/${event.id}/redeliver/`,
    bearer(merchant.merchantToken),
  );
  t.is(res.status, 202);
  await until(() => receiver.at('/again').length === 2);
  const [first, second] = receiver.at('/again');
  t.is(second.headers['webhook-id'], first.headers['webhook-id']);
  t.is(second.body, first.body);
  const [after] = await until(async () => {
    const events = await eventsOf(merchant, id);
    return events[0]?.attempts.length === 2 && events;
  });
  t.is(after.attempts[1].trigger, 'redelivery');
  const other = await newMerchant();
  const foreign = await send(
    app,
    'POST',
    `/api/v1/payment-links/${id}/webhooks/${event.id}/redeliver/`,
    bearer(other.merchantToken),
  );
  t.is(foreign.status, 404);
  const unknown = await send(
    app,
    'POST',
    `/api/v1/payment-links/${id}/webhooks/msg_${id}_99/redeliver/`,
    bearer(merchant.merchantToken),
  );
  t.is(unknown.status, 404);
});

test('a rotated secret signs at once and the old one still verifies during the grace period', async (t) => {
  const owner = await newMerchant();
  const before = await secretOf(owner);
  t.regex(before, /^whsec_[A-Za-z0-9+/]+=*$/);
  t.is(await secretOf(owner), before);
  const rotated = await json(await send(app, 'POST', '/api/v1/webhooks/secret/rotate/', bearer(owner.merchantToken)));
  t.not(rotated.secret, before);
  t.truthy(rotated.previous_secret_valid_until);
  t.is(await secretOf(owner), rotated.secret);
  const webhookUrl = receiver.url('/rotated');
  const { guid } = await readyLink(app.url, owner, { webhookUrl });
  await pay(guid);
  const [delivery] = await until(() => receiver.at('/rotated').length && receiver.at('/rotated'));
  t.is(delivery.headers['webhook-signature'].split(' ').length, 2);
  t.notThrows(() => new Webhook(rotated.secret).verify(delivery.body, delivery.headers));
  t.notThrows(() => new Webhook(before).verify(delivery.body, delivery.headers));
});

/** A link event stored for `url` (no check on storing), once its first attempt is in the merchant's log. */
async function attemptedAt(url: string) {
  const { id } = await readyLink(app.url, merchant);
  const event = await emitLinkEvent({
    merchantId: merchant.merchantId,
    linkId: id,
    url,
    type: 'payment_link.paid',
    data: {},
  });
  return until(async () => {
    const found = (await eventsOf(merchant, id)).find((e) => e.id === event._id);
    return found?.attempts.length >= 1 && found;
  });
}

test('the url is checked again before every delivery', async (t) => {
  // An address outside the allow-list (another port): refused at delivery, nothing sent.
  const stored = await attemptedAt(`http://127.0.0.1:${receiver.port + 1}/x`);
  t.is(stored.attempts[0].status_code, null);
  t.is(stored.attempts[0].error, 'unsafe_url');
});

test('a delivery to a closed port shows connection_refused, never the transport text', async (t) => {
  const stored = await attemptedAt(`http://127.0.0.1:${closedPort}/closed`);
  t.like(stored.attempts[0], { status_code: null, success: false, error: 'connection_refused' });
  t.notRegex(JSON.stringify(stored.attempts), /ECONN|connect |127\.0\.0\.1/);
});

test('a delivery connects to the addresses the check resolved, not to a fresh lookup', async (t) => {
  const { id } = await readyLink(app.url, merchant);
  receiver.url('/pinned');
  const event = await emitLinkEvent({
    merchantId: merchant.merchantId,
    linkId: id,
    url: `http://pinned.test:${receiver.port}/pinned`,
    type: 'payment_link.paid',
    data: {},
  });
  const outcome = await deliverEvent(event._id, 'redelivery', {
    resolve: async () => [{ address: '127.0.0.1', family: 4 }],
  });
  t.true(outcome.success, JSON.stringify(outcome));
  const [delivery] = receiver.at('/pinned');
  t.is(delivery.headers.host, `pinned.test:${receiver.port}`);
});

test("the webhook log is the merchant's own", async (t) => {
  const { id } = await readyLink(app.url, merchant);
  const other = await newMerchant();
  const res = await send(app, 'GET', `/api/v1/payment-links/${id}/webhooks/`, bearer(other.merchantToken));
  t.is(res.status, 404);
  t.is((await send(app, 'GET', '/api/v1/webhooks/secret/')).status, 401);
});

test('the retry schedule doubles with jitter and spans about three days', (t) => {
  const base = 60_000;
  t.is(
    webhookRetryDelay(1, base, () => 0.5),
    60_000,
  );
  t.is(
    webhookRetryDelay(2, base, () => 0.5),
    120_000,
  );
  t.is(
    webhookRetryDelay(3, base, () => 0),
    0.8 * 240_000,
  );
  t.is(
    webhookRetryDelay(3, base, () => 1),
    1.2 * 240_000,
  );
  t.is(
    webhookRetryDelay(14, base, () => 0.5),
    12 * 3600_000,
  );
  let total = 0;
  for (let retry = 1; retry < WEBHOOK_ATTEMPTS; retry++) total += webhookRetryDelay(retry, base, () => 0.5);
  const days = total / 86_400_000;
  t.true(days > 2.5 && days < 3.5, `${days} days`);
});

test('a rotated-out secret stops signing when its grace period ends', (t) => {
  const now = new Date('2026-01-02T00:00:00Z');
  const secret = {
    _id: 1,
    secret: `whsec_${Buffer.alloc(32, 2).toString('base64')}`,
    previousSecret: `whsec_${Buffer.alloc(32, 3).toString('base64')}`,
    previousValidUntil: new Date(now.getTime() + 1000),
    createdAt: now,
    rotatedAt: now,
  };
  const body = '{"type":"payment_link.test"}';
  const during = signedHeaders(secret, 'msg_1_1', body, now);
  t.is(during['webhook-signature'].split(' ').length, 2);
  t.is(during['webhook-timestamp'], String(now.getTime() / 1000));
  const after = signedHeaders(secret, 'msg_1_1', body, new Date(now.getTime() + 2000));
  t.is(after['webhook-signature'].split(' ').length, 1);
  const verifyAt = (headers: Record<string, string>, key: string) =>
    // standardwebhooks checks the timestamp against the clock: compare the signature it would compute.
    new Webhook(key).sign(headers['webhook-id'], new Date(Number(headers['webhook-timestamp']) * 1000), body);
  t.is(after['webhook-signature'], verifyAt(after, secret.secret));
  t.true(during['webhook-signature'].split(' ').includes(verifyAt(during, secret.previousSecret)));
});

test('the stored event body is what was signed', async (t) => {
  const webhookUrl = receiver.url('/body');
  const { id, guid } = await readyLink(app.url, merchant, { webhookUrl });
  await pay(guid);
  const [delivery] = await until(() => receiver.at('/body').length && receiver.at('/body'));
  const stored = await WebhookEventModel.findById(`msg_${id}_1`).lean();
  t.is(stored!.body, delivery.body);
});
