import '../helpers/env';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { Webhook } from 'standardwebhooks';
import { getConfig } from '../../config';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, newMerchant } from '../helpers/identity';
import { eventually, startProcess, stopAll } from '../helpers/processes';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { APPROVED_CARD, readyLink } from './helpers';
import { callJson } from '../helpers/http';
import { encryptedTestCard } from '../helpers/cards';

let app: TestApp;
const received: { headers: Record<string, string>; body: string }[] = [];
let answers = [500, 200];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(answers.length > 1 ? answers.shift()! : answers[0]).end();
  });
});

test.before(async () => {
  receiver.listen(0, '127.0.0.1');
  await new Promise((resolve) => receiver.once('listening', resolve));
  const allow = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = allow;
  process.env.WEBHOOK_RETRY_BASE_MS = '200';
  app = await startTestApp();
  if (getConfig().webhooks.testAllowHosts[0] !== allow)
    throw new Error('config was loaded before the test set the allow-list');
  // The real worker process (Procfile `worker`), limited to the webhook queue.
  await startProcess('worker', { WORKER_QUEUES: 'link-webhook' });
});
test.after.always(async () => {
  await app?.close();
  receiver.closeAllConnections();
  receiver.close();
  await closeAcquirerClient();
  await stopAll();
});

test('the worker process delivers a paid link event, retrying a failure', async (t) => {
  answers = [500, 200];
  const merchant = await newMerchant();
  const port = (receiver.address() as AddressInfo).port;
  const { id, guid } = await readyLink(app.url, merchant, { webhookUrl: `http://127.0.0.1:${port}/hook` });
  const paid = await callJson(
    app,
    'PUT',
    `/api/v1/checkout-links/${guid}/pay`,
    {},
    {
      encrypted_card: encryptedTestCard({ number: APPROVED_CARD }),
    },
  );
  t.true(paid.body.approved);
  await eventually(() => received.length === 2, 30_000);
  const secret = (await callJson(app, 'GET', '/api/v1/webhooks/secret/', bearer(merchant.merchantToken))).body.secret;
  for (const delivery of received) t.notThrows(() => new Webhook(secret).verify(delivery.body, delivery.headers));
  const events = await eventually(async () => {
    const list = (await callJson(app, 'GET', `/api/v1/payment-links/${id}/webhooks/`, bearer(merchant.merchantToken)))
      .body.results;
    return list[0]?.state === 'delivered' && list;
  });
  t.deepEqual(
    events[0].attempts.map((a: { status_code: number }) => a.status_code),
    [500, 200],
  );
});
