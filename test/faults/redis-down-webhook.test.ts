import '../helpers/env';
import './quiet-logs';
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getConfig } from '../../config';
import { encryptCard } from '../../src/cards';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { closeQueues, waitForRedis } from '../../src/queue';
import { eventually, startProcess, stopAll } from '../helpers/processes';
import { bearer, newMerchant } from '../helpers/identity';
import { json } from '../helpers/app';
import { freePort, OwnedRedis } from './owned-services';

let redis: OwnedRedis;
const delivered: string[] = [];
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    delivered.push(String(req.headers['webhook-id']));
    res.writeHead(200).end();
  });
});

test.before(async () => {
  redis = new OwnedRedis(await freePort());
  await redis.start();
  process.env.REDIS_URL = redis.url;
  if (getConfig().redisUrl !== redis.url) throw new Error('config was loaded before the owned Redis was set');
  await connectDatabase(process.env.MONGODB_URI!);
  await waitForRedis();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
test.after.always(async () => {
  await stopAll();
  receiver.closeAllConnections();
  receiver.close();
  await closeQueues();
  await disconnectDatabase();
  await redis?.destroy();
});

// KNOWN GAP (test.failing: ava passes it while it fails, and flags it the day it passes). A link
// paid while Redis is down is charged and its payment_link.paid event is stored, but the delivery
// job could not be queued and nothing queues it later (chargeback notices and sales have a
// scheduler sweep; link webhook events have none). Fix: a scheduler task that queues stored
// events still pending with no job; then turn this into a plain test with a scheduler running.
test.failing('a link paid while redis is down still gets its webhook delivered once redis is back', async (t) => {
  const hookHost = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  const env = { ACQUIRER_BASE_URL: sandbox.url, ACQUIRER_QUERY_URL: sandbox.url, WEBHOOK_TEST_ALLOW_HOSTS: hookHost };
  const [web] = await Promise.all([startProcess('web', env), startProcess('worker', env), startProcess('scheduler', env)]);
  const merchant = await newMerchant();
  const created = await fetch(`${web.url}/api/v1/payment-links/`, {
    method: 'POST',
    headers: bearer(merchant.merchantToken),
    body: JSON.stringify({ value: 4990, description: 'paid during an outage', webhookUrl: `http://${hookHost}/hook` }),
  });
  const link = await json(created);
  t.is(created.status, 201);
  await fetch(`${web.url}/api/v1/checkout-links/${link.payment_link_guid}/payer`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ payer_name: 'Maria Silva', document: '529.982.247-25' }),
  });

  await redis.stop();
  const card = encryptCard({ number: '4000000000000010', holder: 'MARIA SILVA', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvv: '123' });
  const paid = await fetch(`${web.url}/api/v1/checkout-links/${link.payment_link_guid}/pay`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ encrypted_card: card }),
  });
  t.is(paid.status, 200, 'the payment itself needs no Redis');
  await redis.start();
  await eventually(async () => (await fetch(`${web.url}/readyz`)).status === 200, 30_000, 250);
  await eventually(() => delivered.some((id) => id.startsWith(`msg_${link.id}_`)), 30_000, 500);
  t.pass();
});
