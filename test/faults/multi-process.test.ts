import '../helpers/env';
import test from 'ava';
import { untilQueuesIdle } from '../helpers/queues';
import { LINK_WEBHOOK_QUEUE } from '../../jobs/link-webhook';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encryptedTestCard } from '../helpers/cards';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { closeQueues } from '../../src/queue/queues';
import { waitForRedis } from '../../src/platform/redis';
import { dayOf } from '../../src/subscriptions/clock';
import { eventually, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { bearer, newMerchant, type TestMerchant, tokenStatusesAcross } from '../helpers/identity';
import { json } from '../helpers/app';
import {
  chargesAndAttemptsOf,
  confirmedChargesOf,
  insertDueSubscriptions,
  sandboxCardToken,
} from '../helpers/due-subscriptions';
import { send } from '../helpers/http';

/** A local webhook receiver counting deliveries per webhook-id. */
const deliveries = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = String(req.headers['webhook-id']);
    deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
    res.writeHead(200).end();
  });
});

let sandbox: RunningProcess;
let webs: RunningProcess[];
let merchant: TestMerchant;
let hookUrl: string;

test.before(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookHost = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  hookUrl = `http://${hookHost}/hook`;
  sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  const env = {
    ACQUIRER_BASE_URL: sandbox.url,
    ACQUIRER_QUERY_URL: sandbox.url,
    WEBHOOK_TEST_ALLOW_HOSTS: hookHost,
    TOKEN_RATE_LIMIT: '4',
  };
  Object.assign(process.env, env);
  await connectDatabase(process.env.MONGODB_URI!);
  await waitForRedis();
  webs = await Promise.all([startProcess('web', env), startProcess('web', env)]);
  await Promise.all([startProcess('worker', env), startProcess('worker', env)]);
  merchant = await newMerchant();
});
test.after.always(async () => {
  await stopAll();
  receiver.closeAllConnections();
  receiver.close();
  await closeQueues();
  await disconnectDatabase();
});

test.serial('two web processes share one token rate limit', async (t) => {
  t.deepEqual(
    await tokenStatusesAcross(
      webs.map((web) => web.url),
      merchant,
      6,
    ),
    [200, 200, 200, 200, 429, 429],
  );
});

test.serial('links paid through either web process: every webhook delivered once by one of two workers', async (t) => {
  const card = encryptedTestCard();
  const linkIds: number[] = [];
  await Promise.all(
    Array.from({ length: 6 }, async (_, i) => {
      const web = webs[i % 2];
      const created = await send(web, 'POST', '/api/v1/payment-links/', bearer(merchant.merchantToken), {
        value: 1000 + i,
        description: `multi ${i}`,
        webhookUrl: hookUrl,
      });
      const link = await json(created);
      t.is(created.status, 201, JSON.stringify(link));
      linkIds.push(link.id);
      const other = webs[(i + 1) % 2];
      await send(
        other,
        'PATCH',
        `/api/v1/checkout-links/${link.payment_link_guid}/payer`,
        { 'content-type': 'application/json' },
        { payer_name: 'Maria Silva', document: '529.982.247-25' },
      );
      // Both web processes try to charge the same link at once: one charge, one paid event.
      const pays = await Promise.all(
        webs.map((w) =>
          send(
            w,
            'PUT',
            `/api/v1/checkout-links/${link.payment_link_guid}/pay`,
            { 'content-type': 'application/json' },
            { encrypted_card: card },
          ),
        ),
      );
      t.deepEqual(pays.map((p) => p.status).sort(), [200, 409]);
    }),
  );
  const eventsOf = (linkId: number) => [...deliveries.keys()].filter((id) => id.startsWith(`msg_${linkId}_`));
  await eventually(() => linkIds.every((id) => eventsOf(id).length >= 1), 60_000, 250);
  // Every link webhook job done: a duplicate, if any, has arrived.
  await untilQueuesIdle([LINK_WEBHOOK_QUEUE], 60_000);
  for (const [id, count] of deliveries) t.is(count, 1, `${id} delivered ${count} times`);
  for (const id of linkIds) t.is(eventsOf(id).length, 1, `link ${id}: one paid event`);
});

test.serial('two schedulers at once, two workers: every due charge charged once', async (t) => {
  const today = dayOf(new Date());
  const ids = Array.from({ length: 20 }, (_, i) => 700_000_000 + i);
  await insertDueSubscriptions(merchant.merchantId, ids, await sandboxCardToken(sandbox.url), today);
  const before = (await (await send(sandbox, 'GET', '/sandbox/stats')).json()) as { salesCreated: number };
  // Each scheduler runs a tick as it starts: two ticks at the same moment.
  const schedulers = await Promise.all([startProcess('scheduler'), startProcess('scheduler')]);
  await eventually(async () => (await confirmedChargesOf(ids)) === ids.length, 90_000, 250);
  await Promise.all(schedulers.map((s) => s.stop()));
  const { charges, attempts } = await chargesAndAttemptsOf(ids);
  t.is(charges, ids.length, 'one charge per subscription');
  t.is(attempts, ids.length, 'one attempt per charge');
  const after = (await (await send(sandbox, 'GET', '/sandbox/stats')).json()) as { salesCreated: number };
  t.is(after.salesCreated - before.salesCreated, ids.length, 'one sale at the acquirer per charge');
});
