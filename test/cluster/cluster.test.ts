/**
 * The whole platform on a real Redis Cluster (six redis-server processes, three masters with a
 * replica each, TLS only and a password on every node): web, worker and scheduler processes
 * pointed at it with REDIS_CLUSTER_NODES, REDIS_URL's rediss:// and password, the test CA and a
 * hash-tagged QUEUE_PREFIX. First the journey, then the master serving the queues' slot is
 * SIGKILLed while webhook deliveries and subscription charges are in flight: its replica takes
 * over, and the same processes finish every job, each effect once.
 */
import '../helpers/env';
import '../faults/quiet-logs';
import test from 'ava';
import { untilQueuesIdle } from '../helpers/queues';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import mongoose from 'mongoose';
import { getConfig } from '../../config';
import { queueNames } from '../../jobs';
import { getQueue } from '../../src/queue/queues';
import { onRedisCluster } from '../../src/platform/redis';
import { ChargebackNoticeModel } from '../../src/chargebacks/model';
import { noticeFingerprint } from '../../src/chargebacks';
import { enqueueDueSubscriptionWork } from '../../src/subscriptions/scheduling';
import { CHARGE_QUEUE } from '../../jobs/charge-subscription';
import { dayOf } from '../../src/subscriptions/clock';
import { WebhookEventModel } from '../../src/webhooks/model';
import { emitLinkEvent } from '../../src/webhooks/service';
import { LINK_WEBHOOK_QUEUE } from '../../jobs/link-webhook';
import { TEST_QUEUE_PREFIX } from '../helpers/env';
import { json } from '../helpers/app';
import { bearer, newMerchant, systemToken, type TestMerchant, tokenStatusesAcross } from '../helpers/identity';
import { eventually, startProcess, type RunningProcess } from '../helpers/processes';
import { useServices } from '../helpers/services';
import { chargebackNoticeHeaders, newChargebackNotice } from '../helpers/chargeback-notices';
import {
  chargesAndAttemptsOf,
  confirmedChargesOf,
  insertDueSubscriptions,
  sandboxCardToken,
} from '../helpers/due-subscriptions';
import { APPROVED_CARD, readyLink } from '../payment-links/helpers';
import { callJson, send } from '../helpers/http';
import { pointAtSandbox } from '../helpers/acquirer';
import { CLUSTER_NODE_TIMEOUT_MS, OwnedRedisCluster } from './redis-cluster';
import { encryptedTestCard } from '../helpers/cards';
import { makeTestPki, pingRedis, type TestPki } from '../helpers/redis-security';

const QUEUE_PREFIX = `{${TEST_QUEUE_PREFIX}}`;
/** Short, so a job whose worker lost its lock during the failover is taken again within seconds. */
const WORKER_LOCK_DURATION_MS = 5000;

/** A webhook receiver counting deliveries per webhook-id; `delayMs` keeps deliveries in flight. */
const deliveries = new Map<string, number>();
let receiverDelayMs = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = String(req.headers['webhook-id']);
    deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
    setTimeout(() => res.writeHead(200).end(), receiverDelayMs);
  });
});

let cluster: OwnedRedisCluster;
let pki: TestPki;
const CLUSTER_PASSWORD = 'cluster-password-for-tests-only';
let sandbox: RunningProcess;
let webs: RunningProcess[];
let worker: RunningProcess;
let scheduler: RunningProcess | undefined;
let merchant: TestMerchant;
let hookUrl: string;

useServices({
  setUp: async () => {
    pki = await makeTestPki();
    cluster = await OwnedRedisCluster.start(6, { password: CLUSTER_PASSWORD, pki });
    // Before anything loads the config: this process and every process it starts use the cluster.
    Object.assign(process.env, cluster.environment, { QUEUE_PREFIX });
    if (!onRedisCluster() || getConfig().queuePrefix !== QUEUE_PREFIX)
      throw new Error('config was loaded before the cluster was set');
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookHost = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    hookUrl = `http://${hookHost}/hook`;
    sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
    Object.assign(process.env, {
      ACQUIRER_BASE_URL: sandbox.url,
      ACQUIRER_QUERY_URL: sandbox.url,
      ...pointAtSandbox(sandbox.url),
      WEBHOOK_TEST_ALLOW_HOSTS: hookHost,
      TOKEN_RATE_LIMIT: '4',
    });
  },
  ready: async () => {
    [webs, [worker]] = await Promise.all([
      Promise.all([startProcess('web'), startProcess('web')]),
      Promise.all([startProcess('worker', { WORKER_LOCK_DURATION_MS: String(WORKER_LOCK_DURATION_MS) })]),
    ]);
    merchant = await newMerchant();
  },
  cleanUp: async () => {
    receiver.closeAllConnections();
    receiver.close();
  },
  tearDown: async () => {
    await cluster?.destroy();
    if (pki) fs.rmSync(pki.dir, { recursive: true, force: true });
  },
});

// No password: the token rate limit test spent this address's budget of password checks, which
// basic auth shares (src/auth/password-guessing.ts).
const staffBearer = () => bearer(systemToken());
const sandboxSales = async () =>
  ((await (await send(sandbox, 'GET', '/sandbox/stats')).json()) as { salesCreated: number }).salesCreated;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until every link webhook job is done (a duplicate, if any, has arrived), then checks each arrived once. */
async function assertEachDeliveredOnce(t: import('ava').ExecutionContext, ids: string[]): Promise<void> {
  await untilQueuesIdle([LINK_WEBHOOK_QUEUE], 60_000);
  t.deepEqual(
    ids.filter((id) => deliveries.get(id) !== 1).map((id) => `${id}: ${deliveries.get(id) ?? 0}`),
    [],
    'each event delivered exactly once',
  );
}

test.serial('every node refuses a client without TLS or without the password', async (t) => {
  for (const { port } of cluster.nodes) {
    t.is(await pingRedis(port, { tls: { ca: pki.ca }, password: CLUSTER_PASSWORD }), 'PONG', `${port}`);
    t.regex(await pingRedis(port, { tls: { ca: pki.ca } }), /NOAUTH/, `${port} without the password`);
    t.not(await pingRedis(port, { password: CLUSTER_PASSWORD }), 'PONG', `${port} in the clear`);
  }
});

test.serial(
  'the cluster runs our processes: readyz, and the two web processes share one token rate limit',
  async (t) => {
    for (const web of webs)
      t.like(await json(await send(web, 'GET', '/readyz')), { status: 'ready', redis: true, mongodb: true });
    t.deepEqual(
      await tokenStatusesAcross(
        webs.map((web) => web.url),
        merchant,
        6,
      ),
      [200, 200, 200, 200, 429, 429],
    );
  },
);

test.serial(
  'a link paid through both web processes at once is charged once and its webhook delivered once',
  async (t) => {
    const { id, guid } = await readyLink(webs[0].url, merchant, { webhookUrl: hookUrl });
    const pays = await Promise.all(
      webs.map((web) =>
        callJson(
          web,
          'PUT',
          `/api/v1/checkout-links/${guid}/pay`,
          {},
          { encrypted_card: encryptedTestCard({ number: APPROVED_CARD }) },
        ),
      ),
    );
    t.deepEqual(pays.map((p) => p.status).sort(), [200, 409]);
    const eventIds = () => [...deliveries.keys()].filter((key) => key.startsWith(`msg_${id}_`));
    await eventually(() => eventIds().length >= 1, 60_000, 200);
    await assertEachDeliveredOnce(t, eventIds());
    t.is(eventIds().length, 1, 'one paid event');
  },
);

test.serial('a scheduler on the cluster charges each due subscription once', async (t) => {
  const ids = Array.from({ length: 10 }, (_, i) => 710_000_000 + i);
  await insertDueSubscriptions(merchant.merchantId, ids, await sandboxCardToken(sandbox.url), dayOf(new Date()));
  const salesBefore = await sandboxSales();
  // Its first tick runs as it starts, and it keeps running for the failover.
  scheduler = await startProcess('scheduler');
  await eventually(async () => (await confirmedChargesOf(ids)) === ids.length, 90_000, 250);
  const { charges, attempts } = await chargesAndAttemptsOf(ids);
  t.is(charges, ids.length, 'one charge per subscription');
  t.is(attempts, ids.length, 'one attempt per charge');
  t.is((await sandboxSales()) - salesBefore, ids.length, 'one sale at the acquirer per charge');
});

test.serial('a chargeback notice received by a web process is applied by the worker', async (t) => {
  const ec = '4123456789';
  const notice = newChargebackNotice(ec, { idCase: 9_100_001, idChargeback: 19_100_001 });
  // The acquirer shows it (the worker confirms a new chargeback with its consult before it counts).
  t.is((await send(sandbox, 'POST', '/sandbox-cb/_test/chargeback', {}, notice)).status, 200);
  const res = await send(
    webs[1],
    'POST',
    '/api/v1/acquirer/chargeback/notifications/',
    chargebackNoticeHeaders(),
    notice,
  );
  t.is(res.status, 202);
  const applied = await eventually(
    async () => (await ChargebackNoticeModel.findById(noticeFingerprint(notice)).lean())?.appliedAt,
    30_000,
    200,
  );
  t.truthy(applied);
});

test.serial('the dashboard lists every queue and /metrics reads their depth from the cluster', async (t) => {
  const listed = await send(webs[0], 'GET', '/admin/queues/api/queues', staffBearer());
  t.is(listed.status, 200);
  const names = ((await listed.json()) as { queues: { name: string }[] }).queues.map((q) => q.name);
  t.deepEqual([...names].sort(), [...queueNames()].sort());
  const metrics = await (await send(webs[1], 'GET', '/metrics', staffBearer())).text();
  t.regex(metrics, /^queue_redis_up 1$/m);
  t.regex(metrics, new RegExp(`^queue_jobs\\{queue="${LINK_WEBHOOK_QUEUE}",state="waiting"\\} \\d+$`, 'm'));
});

test.serial(
  'failover: the master of the queues slot is SIGKILLed mid-stream; its replica takes over and every job ' +
    'completes, each effect once',
  async (t) => {
    const slot = await cluster.keyslot(QUEUE_PREFIX);
    const master = await cluster.masterOf(slot);

    // The stream: webhook deliveries the receiver answers slowly, and due subscription charges.
    receiverDelayMs = 300;
    const linkBase = 820_000_000 + Math.floor(Math.random() * 1000) * 1000;
    const eventIds: string[] = [];
    for (let i = 0; i < 60; i++) {
      const event = await emitLinkEvent({
        merchantId: merchant.merchantId,
        linkId: linkBase + i,
        url: hookUrl,
        type: 'payment_link.paid',
        data: { n: i },
      });
      eventIds.push(event._id);
    }
    const subscriptionIds = Array.from({ length: 40 }, (_, i) => 720_000_000 + i);
    await insertDueSubscriptions(
      merchant.merchantId,
      subscriptionIds,
      await sandboxCardToken(sandbox.url),
      dayOf(new Date()),
    );
    const salesBefore = await sandboxSales();
    await enqueueDueSubscriptionWork(new Date());
    const delivered = () => eventIds.filter((id) => deliveries.has(id)).length;
    await eventually(() => delivered() >= 5, 60_000, 20);

    const readiness: { at: number; status: number; redis?: boolean }[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const { status, redis } = await send(webs[0], 'GET', '/readyz')
          .then(async (r) => ({ status: r.status, redis: (await json(r)).redis as boolean | undefined }))
          .catch(() => ({ status: 0, redis: undefined }));
        readiness.push({ at: Date.now(), status, redis });
        await sleep(100);
      }
    })();

    const inFlight = { delivered: delivered(), charged: await confirmedChargesOf(subscriptionIds) };
    // A job whose completion the dead master never passed on is still active on the new one: once its lock
    // expires the worker takes it again, finds its effect done, and completes it.
    const queuesAt = async () =>
      Promise.all(
        [LINK_WEBHOOK_QUEUE, CHARGE_QUEUE].map((name) =>
          getQueue(name).getJobCounts('waiting', 'active', 'delayed', 'failed'),
        ),
      );
    const settled = (counts: Awaited<ReturnType<typeof queuesAt>>) =>
      counts.every((c) => c.waiting + c.active + c.delayed === 0);
    /** Where the stream stands, for the message of a wait that runs out. */
    const state = async () =>
      JSON.stringify({
        delivered: delivered(),
        charged: await confirmedChargesOf(subscriptionIds),
        queues: await queuesAt().catch((error: Error) => error.message),
        readiness: readiness.slice(-3),
      });
    const waitFor = async <T>(
      what: string,
      check: () => Promise<T> | T,
      timeoutMs: number,
      intervalMs = 250,
    ): Promise<T> => {
      try {
        return await eventually(check, timeoutMs, intervalMs);
      } catch (error) {
        throw new Error(`${what}: ${(error as Error).message}; ${await state()}`);
      }
    };

    const killedAt = Date.now();
    let promoted: number, readyAgain: number, effectsDone: number, jobsDone: number;
    try {
      await cluster.kill(master);
      promoted = await waitFor(
        'replica promoted',
        async () => ((await cluster.masterOf(slot)) !== master ? Date.now() : 0),
        60_000,
        100,
      );
      readyAgain = (await waitFor(
        '/readyz 200 again',
        () => readiness.find((r) => r.at > promoted && r.status === 200)?.at,
        60_000,
        100,
      )) as number;
      await waitFor(
        'every effect done',
        async () =>
          delivered() === eventIds.length && (await confirmedChargesOf(subscriptionIds)) === subscriptionIds.length,
        90_000,
      );
      effectsDone = Date.now();
      await waitFor('every job completed', async () => settled(await queuesAt()), 4 * WORKER_LOCK_DURATION_MS + 30_000);
      jobsDone = Date.now();
    } finally {
      watching = false;
      await watcher;
    }

    t.log(
      `in flight at the kill: ${eventIds.length - inFlight.delivered} of ${eventIds.length} deliveries, ` +
        `${subscriptionIds.length - inFlight.charged} of ${subscriptionIds.length} charges; ` +
        (`replica promoted ${promoted - killedAt} ms after the SIGKILL (cluster-node-timeout ` +
          `${CLUSTER_NODE_TIMEOUT_MS} ms), /readyz 200 again after ${readyAgain - killedAt} ms, `) +
        (`every effect done after ${effectsDone - killedAt} ms, every job completed after ` +
          `${jobsDone - killedAt} ms (worker lock ${WORKER_LOCK_DURATION_MS} ms)`),
    );
    t.true(eventIds.length - inFlight.delivered > 0, 'deliveries were still in flight when the master died');
    const outage = readiness.filter((r) => r.at > killedAt && r.at < readyAgain);
    t.true(
      outage.some((r) => r.status === 503 && r.redis === false),
      '/readyz reported the outage: 503, redis false',
    );
    t.true(
      readiness.filter((r) => r.at >= readyAgain).every((r) => r.status === 200),
      '/readyz stays ready once recovered',
    );

    await assertEachDeliveredOnce(t, eventIds);
    t.is(
      await WebhookEventModel.countDocuments({ _id: mongoose.trusted({ $in: eventIds }), state: 'delivered' }),
      eventIds.length,
      'every event stored as delivered',
    );
    const { charges, attempts } = await chargesAndAttemptsOf(subscriptionIds);
    t.is(charges, subscriptionIds.length, 'one charge per subscription');
    t.is(attempts, subscriptionIds.length, 'one attempt per charge');
    t.is(
      (await sandboxSales()) - salesBefore,
      subscriptionIds.length,
      'one sale at the acquirer per charge: zero lost, zero duplicated',
    );
    for (const counts of await queuesAt()) t.is(counts.failed, 0, 'no job failed');
    const streamJobs = [
      ...(await getQueue<{ eventId: string }>(LINK_WEBHOOK_QUEUE).getJobs(['completed'])).filter((job) =>
        eventIds.includes(job.data.eventId),
      ),
      ...(await getQueue<{ subscriptionId: number }>(CHARGE_QUEUE).getJobs(['completed'])).filter((job) =>
        subscriptionIds.includes(job.data.subscriptionId),
      ),
    ];
    t.is(streamJobs.length, eventIds.length + subscriptionIds.length, 'every job of the stream completed');
    t.deepEqual(
      streamJobs.filter((job) => job.attemptsMade !== 1).map((job) => `${job.id}: ${job.attemptsMade} attempts`),
      [],
      'no attempt failed: the workers waited the failover out',
    );
    for (const process of [...webs, worker, scheduler!])
      t.is(process.child.exitCode, null, `${process.name} was never restarted`);
    // Not asserted: a graceful SIGTERM right after the failover. Once, under a full suite's load, the
    // worker did not exit within 20 s of it (docs/operations.md, scale-out: left to investigate).
  },
);
