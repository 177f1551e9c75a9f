import '../helpers/env';
import test from 'ava';
import { getConfig } from '../../config';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { eventually, startProcess, stopAll } from '../helpers/processes';
import { getQueue, startWorker } from '../../src/queue/queues';
import processHeartbeat from '../../jobs/processors/heartbeat';
import { queueNames } from '../../jobs';
import { HEARTBEAT_QUEUE } from '../../jobs/heartbeat';
import { getSale } from '../../src/acquirer/client';
import { AcquirerUnavailableError } from '../../src/acquirer/errors';
import { PaymentModel, PaymentNoticeModel } from '../../src/payments/model';
import { SubscriptionChargeModel } from '../../src/subscriptions/model';
import { dayOf } from '../../src/subscriptions/clock';
import { ChargebackNoticeModel } from '../../src/chargebacks/model';
import { PaymentClaimModel } from '../../src/payment-links/model';
import { send } from '../helpers/http';

let app: TestApp;
test.before(async () => {
  // Before the config loads (lazily, at the first getConfig): an acquirer address where nothing
  // listens, so a lookup fails as unavailable.
  process.env.ACQUIRER_QUERY_URL = 'http://127.0.0.1:9';
  app = await startTestApp();
});
test.after.always(async () => {
  await stopAll();
  await getQueue(HEARTBEAT_QUEUE)
    .obliterate({ force: true })
    .catch(() => undefined);
  await app?.close();
});

function basic(user = getConfig().dashboard.user, password = getConfig().dashboard.password) {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

async function scrape(url: string): Promise<string> {
  const res = await send({ url }, 'GET', '/metrics', basic());
  if (res.status !== 200) throw new Error(`metrics answered ${res.status}`);
  return res.text();
}

/** The value of one sample line, e.g. sample(text, 'queue_jobs{queue="heartbeat",state="delayed"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('metrics need the dashboard credentials', async (t) => {
  const none = await send(app, 'GET', '/metrics');
  t.is(none.status, 401);
  t.truthy((await json(none)).detail);
  const wrong = await send(app, 'GET', '/metrics', basic(getConfig().dashboard.user, 'not-the-password'));
  t.is(wrong.status, 401);
  const right = await send(app, 'GET', '/metrics', basic());
  t.is(right.status, 200);
  t.regex(right.headers.get('content-type') ?? '', /^text\/plain/);
});

test('requests are counted by route template and status, never by raw path', async (t) => {
  await send(app, 'GET', '/healthz');
  await send(app, 'GET', '/healthz');
  await send(app, 'GET', '/no-such-page-48213');
  await send(app, 'GET', '/api/docs/swagger.json');
  const text = await scrape(app.url);
  t.true(sample(text, 'http_requests_total{method="GET",route="/healthz",status="200"}')! >= 2);
  t.true(sample(text, 'http_requests_total{method="GET",route="unmatched",status="404"}')! >= 1);
  t.true(
    sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/docs/swagger.json",status="200"}')! >= 1,
  );
  t.false(text.includes('48213'));
  t.regex(text, /process_resident_memory_bytes \d+/);
});

test('queue depth per queue and state is read from redis', async (t) => {
  const queue = getQueue(HEARTBEAT_QUEUE);
  await queue.add('heartbeat', { enqueuedAt: new Date().toISOString() }, { jobId: 'later-1', delay: 3_600_000 });
  await queue.add('heartbeat', { enqueuedAt: new Date().toISOString() }, { jobId: 'later-2', delay: 3_600_000 });
  const text = await scrape(app.url);
  t.is(sample(text, `queue_jobs{queue="${HEARTBEAT_QUEUE}",state="delayed"}`), 2);
  t.is(sample(text, `queue_jobs{queue="${HEARTBEAT_QUEUE}",state="active"}`), 0);
  t.is(sample(text, 'queue_redis_up'), 1);
  await queue.remove('later-1');
  await queue.remove('later-2');
});

test('a worker process serves job durations and failures on its own metrics port', async (t) => {
  const worker = await startProcess('worker', { METRICS_PORT: '0' });
  const metricsUrl = /metrics listening on (http:\/\/[0-9.:]+)/.exec(worker.logs.join(''))?.[1];
  t.truthy(metricsUrl);
  t.is((await send({ url: metricsUrl! }, 'GET', '/metrics')).status, 401);
  const queue = getQueue(HEARTBEAT_QUEUE);
  await queue.add('heartbeat', { enqueuedAt: new Date().toISOString() }, { jobId: 'metrics-ok' });
  // An unparseable date makes the heartbeat insert fail: one attempt, so the failure is final.
  await queue.add('heartbeat', { enqueuedAt: 'not a date' }, { jobId: 'metrics-bad', attempts: 1 });
  const text = (await eventually(async () => {
    const body = await scrape(metricsUrl!);
    const ok = sample(body, `job_duration_seconds_count{queue="${HEARTBEAT_QUEUE}",outcome="completed"}`);
    const failed = sample(body, `job_failures_total{queue="${HEARTBEAT_QUEUE}",final="true"}`);
    return ok === 1 && failed === 1 ? body : undefined;
  }))!;
  t.is(sample(text, `job_duration_seconds_count{queue="${HEARTBEAT_QUEUE}",outcome="failed"}`), 1);
  // Queue depth is reported by the web process only, so summing over processes never counts a queue twice.
  t.false(text.includes('queue_jobs'));
  t.is(await (await queue.getJob('metrics-bad'))!.getState(), 'failed');
  await worker.stop();
});

test('acquirer calls are timed and their failures counted by operation', async (t) => {
  await t.throwsAsync(getSale('0d4a3f6e-0000-4000-8000-000000000000'), { instanceOf: AcquirerUnavailableError });
  const text = await scrape(app.url);
  t.is(sample(text, 'acquirer_errors_total{operation="getSale",kind="unavailable"}'), 1);
  t.is(sample(text, 'acquirer_request_duration_seconds_count{operation="getSale",outcome="unavailable"}'), 1);
});

test.serial('the queue dashboard lists every queue and retries a failed job', async (t) => {
  const headers = basic();
  const listed = await send(app, 'GET', '/admin/queues/api/queues', headers);
  t.is(listed.status, 200);
  const names = ((await listed.json()) as { queues: { name: string }[] }).queues.map((q) => q.name);
  t.deepEqual([...names].sort(), [...queueNames()].sort());
  t.is((await send(app, 'GET', '/admin/queues/api/queues')).status, 401);

  const queue = getQueue(HEARTBEAT_QUEUE);
  const worker = startWorker(HEARTBEAT_QUEUE, processHeartbeat);
  await queue.add('heartbeat', { enqueuedAt: 'not a date' }, { jobId: 'dashboard-retry', attempts: 1 });
  await eventually(async () => (await (await queue.getJob('dashboard-retry'))?.getState()) === 'failed');
  // The operator fixes what made it fail, then retries it from the dashboard.
  await (await queue.getJob('dashboard-retry'))!.updateData({ enqueuedAt: new Date().toISOString() });
  const retried = await send(app, 'PUT', `/admin/queues/api/queues/${HEARTBEAT_QUEUE}/dashboard-retry/retry`, headers);
  t.is(retried.status, 204);
  await eventually(async () => (await (await queue.getJob('dashboard-retry'))?.getState()) === 'completed');
  await worker.close();
});

test('needs_attention counts what the sweeps could not settle, and not what is merely recent', async (t) => {
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
  const before = await scrape(app.url);
  const kinds = [
    'sale_reconciling_over_10m',
    'pix_unsettled_after_2d',
    'payment_notice_unapplied_over_15m',
    'link_payment_unsettled_over_10m',
    'charge_pending_over_1h',
    'pix_charge_unsettled_over_2d',
    'chargeback_notice_unapplied_over_15m',
  ];
  for (const kind of kinds) t.is(sample(before, `needs_attention{kind="${kind}"}`), 0, kind);

  const reconciliation = (since: Date) => ({ operation: 'capture', fromStatus: 'PRE_CAPTURED', since, reason: 'test' });
  await PaymentModel.collection.insertMany([
    {
      _id: 7001 as never,
      paymentMethod: 'card',
      status: 'PRE_CAPTURED',
      reconciling: true,
      reconciliation: reconciliation(minutesAgo(11)),
    },
    {
      _id: 7002 as never,
      paymentMethod: 'card',
      status: 'PRE_CAPTURED',
      reconciling: true,
      reconciliation: reconciliation(minutesAgo(1)),
    },
    {
      _id: 7003 as never,
      paymentMethod: 'pix',
      status: 'PENDING',
      reconciliation: null,
      pix: { expiresAt: minutesAgo(3 * 24 * 60) },
    },
    {
      _id: 7004 as never,
      paymentMethod: 'pix',
      status: 'PENDING',
      reconciliation: null,
      pix: { expiresAt: minutesAgo(30) },
    },
  ]);
  await PaymentNoticeModel.collection.insertMany([
    {
      _id: 'old-notice' as never,
      raw: '{}',
      paymentId: 'p1',
      changeType: 1,
      receivedAt: minutesAgo(16),
      appliedAt: null,
      applied: false,
    },
    {
      _id: 'new-notice' as never,
      raw: '{}',
      paymentId: 'p2',
      changeType: 1,
      receivedAt: minutesAgo(1),
      appliedAt: null,
      applied: false,
    },
  ]);
  await SubscriptionChargeModel.collection.insertMany([
    { _id: 7001 as never, status: 0, createdAt: minutesAgo(61) },
    { _id: 7002 as never, status: 0, createdAt: minutesAgo(5) },
    // Pix Automático charges the acquirer scheduled: waiting for a due date is not stuck; two days past it is.
    ...[
      { _id: 7003, dueDate: dayOf(new Date(Date.now() + 5 * 86_400_000)), updatedAt: minutesAgo(5 * 24 * 60) },
      { _id: 7004, dueDate: dayOf(new Date(Date.now() - 3 * 86_400_000)), updatedAt: minutesAgo(13 * 24 * 60) },
      { _id: 7005, dueDate: dayOf(new Date(Date.now() - 3 * 86_400_000)), updatedAt: minutesAgo(60) },
    ].map((charge) => ({
      ...charge,
      _id: charge._id as never,
      status: 0,
      acquirerPaymentId: `pay-${charge._id}`,
      createdAt: minutesAgo(20 * 24 * 60),
    })),
  ]);
  await ChargebackNoticeModel.collection.insertMany([
    { _id: 'old-cb' as never, kind: 'new', raw: '{}', receivedAt: minutesAgo(16), appliedAt: null, applied: false },
    {
      _id: 'applied-cb' as never,
      kind: 'new',
      raw: '{}',
      receivedAt: minutesAgo(60),
      appliedAt: minutesAgo(59),
      applied: true,
    },
  ]);
  await PaymentClaimModel.collection.insertMany([
    { _id: 7001 as never, attemptKey: 'a', merchantOrderId: 'PL7001Ta', state: 'charging', startedAt: minutesAgo(11) },
    {
      _id: 7002 as never,
      attemptKey: 'b',
      merchantOrderId: 'PL7002Tb',
      state: 'paid',
      startedAt: minutesAgo(60),
      notifiedAt: minutesAgo(59),
    },
    { _id: 7003 as never, attemptKey: 'c', merchantOrderId: 'PL7003Tc', state: 'charging', startedAt: minutesAgo(1) },
  ]);
  const after = await scrape(app.url);
  for (const kind of kinds) t.is(sample(after, `needs_attention{kind="${kind}"}`), 1, kind);
});
