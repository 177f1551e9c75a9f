/**
 * A developer's own webhook receiver: WEBHOOKS_ALLOW_LOCALHOST=true (npm start's default) lets a link's webhookUrl
 * and an account endpoint name http://localhost:PORT, 127.0.0.1 or [::1] on any port, and the worker delivers
 * there; off (its default) the public-HTTPS rule holds; production refuses it. WEBHOOK_TEST_ALLOW_HOSTS entries
 * take `localhost` and `127.0.0.1` alike, on their own port only. Through the real app, a worker process, the
 * sandbox and a receiver on 127.0.0.1 named as localhost.
 */
import '../helpers/env';
import test from 'ava';
import { ConfigError, getConfig, loadConfig } from '../../config';
import { checkWebhookUrl, type Resolver } from '../../src/platform/url-safety';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { startTestApp, type TestApp } from '../helpers/app';
import { newMerchant, type TestMerchant } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { eventually, startProcess, stopAll } from '../helpers/processes';
import { productionEnvironment, STRONG_REDIS_PASSWORD } from '../helpers/production';
import { encryptedTestCard } from '../helpers/cards';
import { APPROVED_CARD, readyLink } from '../payment-links/helpers';
import { createEndpoint, untilReceived } from '../events/helpers';
import { Receiver } from './receiver';

/** No name resolves: the loopback names must be decided without DNS. */
const noDns: Resolver = async () => {
  throw new Error('no DNS in this test');
};

test('off by default: localhost, 127.0.0.1 and [::1] are refused, over http and https, on any port', async (t) => {
  t.false(loadConfig({ NODE_ENV: 'development' }).webhooks.allowLocalhost);
  for (const url of ['http://localhost:4781/hook', 'https://127.0.0.1/hook', 'https://[::1]:8443/hook'])
    t.false((await checkWebhookUrl(url, { resolve: noDns })).safe, url);
});

test('on: http or https to a loopback host on any port, with its loopback addresses; nothing else', async (t) => {
  const on = { resolve: noDns, allowLoopback: true };
  for (const [url, addresses] of [
    ['http://localhost:4781/hook', ['127.0.0.1', '::1']],
    ['https://LOCALHOST/hook', ['127.0.0.1', '::1']],
    ['http://127.0.0.1:4781/hook', ['127.0.0.1']],
    ['https://[::1]:9/hook', ['::1']],
  ] as const) {
    const verdict = await checkWebhookUrl(url, on);
    t.true(verdict.safe, url);
    if (verdict.safe)
      t.deepEqual(
        verdict.addresses.map((a) => a.address),
        [...addresses],
        url,
      );
  }
  // Only the loopback names: other internal addresses, other schemes and credentials stay refused.
  for (const url of [
    'http://10.0.0.7:4781/hook',
    'http://127.0.0.2:4781/hook',
    'http://app.localhost:4781/hook',
    'ftp://localhost/hook',
    'http://user:pw@localhost:4781/hook',
    'http://169.254.169.254/latest/meta-data/',
  ])
    t.false((await checkWebhookUrl(url, on)).safe, url);
});

test('WEBHOOK_TEST_ALLOW_HOSTS takes localhost and 127.0.0.1 alike, on the entry port only', async (t) => {
  for (const entry of ['127.0.0.1:4781', 'localhost:4781', 'LOCALHOST:4781']) {
    const allowHosts = [entry];
    for (const url of ['http://localhost:4781/hook', 'http://127.0.0.1:4781/hook'])
      t.true((await checkWebhookUrl(url, { resolve: noDns, allowHosts })).safe, `${url} with ${entry}`);
    t.false((await checkWebhookUrl('http://localhost:4782/hook', { resolve: noDns, allowHosts })).safe, entry);
    t.false((await checkWebhookUrl('http://[::1]:4781/hook', { resolve: noDns, allowHosts })).safe, entry);
  }
});

test('production refuses WEBHOOKS_ALLOW_LOCALHOST=true, naming it', (t) => {
  const secured = { REDIS_URL: 'rediss://redis.internal:6380', REDIS_PASSWORD: STRONG_REDIS_PASSWORD };
  const message = t.throws(() => loadConfig(productionEnvironment({ ...secured, WEBHOOKS_ALLOW_LOCALHOST: 'true' })), {
    instanceOf: ConfigError,
  })!.message;
  t.regex(message, /WEBHOOKS_ALLOW_LOCALHOST=true lets merchants point webhooks at this machine/);
  t.notThrows(() => loadConfig(productionEnvironment({ ...secured, WEBHOOKS_ALLOW_LOCALHOST: 'false' })));
});

let app: TestApp;
let merchant: TestMerchant;
const receiver = new Receiver();

test.before(async () => {
  await receiver.start();
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  process.env.WEBHOOKS_ALLOW_LOCALHOST = 'true';
  delete process.env.WEBHOOK_TEST_ALLOW_HOSTS;
  process.env.WEBHOOK_TIMEOUT_MS = '4000';
  app = await startTestApp();
  if (!getConfig().webhooks.allowLocalhost) throw new Error('config was loaded before the test set the switch');
  // Every queue: the link's webhook, the account event and its endpoint delivery. It inherits the switch.
  await startProcess('worker');
  merchant = await newMerchant();
});
test.after.always(async () => {
  await app?.close();
  receiver.close();
  await closeAcquirerClient();
  await stopAll();
});

test('a receiver named http://localhost:PORT gets a link webhook and an account endpoint delivery', async (t) => {
  const local = (path: string) => `http://localhost:${receiver.port}${path}`;
  const endpoint = await createEndpoint(app, merchant, { url: local('/endpoint'), enabled_events: ['*'] });
  t.is(endpoint.status, 201, JSON.stringify(endpoint.body));
  t.is(endpoint.body.url, local('/endpoint'));
  const { id, guid } = await readyLink(app.url, merchant, { webhookUrl: local('/link') });
  const paid = await callJson(
    app,
    'PUT',
    `/api/v1/checkout-links/${guid}/pay`,
    {},
    { encrypted_card: encryptedTestCard({ number: APPROVED_CARD }) },
  );
  t.true(paid.body.approved, paid.text);
  await eventually(() => receiver.at('/link').length > 0, 30_000);
  t.is(JSON.parse(receiver.at('/link')[0].body).type, 'payment_link.paid');
  const [event] = await untilReceived(receiver, '/endpoint', endpoint.secret, 'payment_link.paid');
  t.is(event.data.id, id);
});
