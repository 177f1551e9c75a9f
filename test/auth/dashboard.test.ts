import '../helpers/env';
import './low-token-limit';
import test from 'ava';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { bearer, newMerchant, newStaff, systemToken } from '../helpers/identity';
import { launchChromium } from '../helpers/browser';
import { getConfig } from '../../config';
import { queueNames } from '../../jobs';
import { send } from '../helpers/http';
import { eventually } from '../helpers/processes';
import { getQueue, startWorker } from '../../src/queue/queues';
import { HEARTBEAT_QUEUE } from '../../jobs/heartbeat';
import { LINK_WEBHOOK_QUEUE, type LinkWebhookJob } from '../../jobs/link-webhook';
import processHeartbeat from '../../jobs/processors/heartbeat';
import { getProducerConnection } from '../../src/platform/redis';
import { PASSWORD_CHECKS_BY_ACCOUNT, PASSWORD_CHECKS_BY_ADDRESS } from '../../src/auth/password-guessing';
import { rateLimitKey } from '../../src/http/rate-limit';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(() => app?.close());

const QUEUES = '/admin/queues/api/queues';
const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
const get = (headers: Record<string, string>) => send(app, 'GET', QUEUES, headers);

test.serial('a staff e-mail and password open the queue dashboard; password checks are rate limited', async (t) => {
  const staff = await newStaff();
  const merchant = await newMerchant();
  const ok = await get(basic(staff.email, staff.password));
  t.is(ok.status, 200);
  t.true(Array.isArray((await json(ok)).queues));
  // bull-board polls: a remembered login is not checked (nor counted) again
  for (let i = 0; i < 5; i++) t.is((await get(basic(staff.email, staff.password))).status, 200);

  const wrong = await get(basic(staff.email, 'not-the-password'));
  t.is(wrong.status, 401);
  t.regex(wrong.headers.get('www-authenticate') ?? '', /^Basic /);
  t.is((await get(basic(merchant.email, merchant.password))).status, 401, 'a merchant user is not staff');
  t.is((await get(basic(`nobody@example.com`, 'whatever-123'))).status, 401);
  const limited = await get(basic(staff.email, 'guess-again'));
  t.is(limited.status, 429, 'the fifth password check in the window is refused');
  t.truthy(limited.headers.get('retry-after'));
  t.is((await get(basic(staff.email, staff.password))).status, 200, 'the remembered login still works');
});

test('a staff jwt or the system token open it as bearer; merchant credentials are 403', async (t) => {
  const staff = await newStaff();
  const merchant = await newMerchant();
  t.is((await get(bearer(staff.accessToken))).status, 200);
  t.is((await get(bearer(systemToken()))).status, 200);
  for (const token of [merchant.accessToken, merchant.merchantToken]) {
    const res = await get(bearer(token));
    t.is(res.status, 403);
    t.is(typeof (await json(res)).detail, 'string');
  }
  t.is((await get(bearer('nonsense'))).status, 401);
  t.is((await get({})).status, 401);
});

test.serial(
  'the operator password cannot be guessed without limit; the right one is remembered, not counted',
  async (t) => {
    const { user, password } = getConfig().dashboard;
    // The staff test above spent this address's budget, which the operator's password shares.
    const redis = getProducerConnection();
    const accounts = await redis.keys(`${getConfig().queuePrefix}:limits:${PASSWORD_CHECKS_BY_ACCOUNT}:*`);
    await redis.del(rateLimitKey(PASSWORD_CHECKS_BY_ADDRESS, { ip: '127.0.0.1' }), ...accounts);
    t.is((await get(basic(user, password))).status, 200);
    const answers: number[] = [];
    for (let i = 0; i < 8; i++) answers.push((await send(app, 'GET', '/metrics', basic(user, `guess-${i}`))).status);
    // low-token-limit: 4 checks per window; the operator's first, right, login was one of them
    t.deepEqual(answers, [401, 401, 401, 429, 429, 429, 429, 429]);
    const limited = await get(basic(user, 'one-more-guess'));
    t.is(limited.status, 429);
    t.truthy(limited.headers.get('retry-after'));
    t.is((await get(basic(user, password))).status, 200, 'the remembered operator login still works');
    t.is((await send(app, 'GET', '/metrics', basic(user, password))).status, 200);
  },
);

/** Every operator credential the dashboard takes (a staff e-mail and password is checked by the test above). */
async function operatorCredentials(): Promise<[string, Record<string, string>][]> {
  const { user, password } = getConfig().dashboard;
  const staff = await newStaff();
  return [
    ['operator password', basic(user, password)],
    ['staff jwt', bearer(staff.accessToken)],
    ['system token', bearer(systemToken())],
  ];
}

test('the dashboard adds no job and changes no job data, whoever asks', async (t) => {
  const links = getQueue<LinkWebhookJob>(LINK_WEBHOOK_QUEUE);
  const heartbeats = getQueue(HEARTBEAT_QUEUE);
  const existing = await heartbeats.add('heartbeat', { enqueuedAt: new Date().toISOString() }, { delay: 3600_000 });
  const forged = {
    eventId: 'msg_424242_1',
    trigger: 'redelivery',
    merchantId: 42,
    event: { linkId: 424242, url: 'https://attacker.example/hook', body: '{"type":"payment_link.paid"}' },
  };
  for (const [who, headers] of await operatorCredentials()) {
    const added = await send(app, 'POST', `${QUEUES}/${LINK_WEBHOOK_QUEUE}/add`, headers, {
      name: 'deliver',
      data: forged,
      options: {},
    });
    t.is(added.status, 403, `add, ${who}`);
    t.is(typeof (await json(added)).detail, 'string');
    const updated = await send(app, 'PATCH', `${QUEUES}/${HEARTBEAT_QUEUE}/${existing.id}/update-data`, headers, {
      jobData: { enqueuedAt: 'made up', holdMs: 30_000 },
    });
    t.is(updated.status, 403, `update-data, ${who}`);
    for (const [method, path] of [
      ['PUT', `${QUEUES}/${HEARTBEAT_QUEUE}/pause`],
      ['PUT', `${QUEUES}/${HEARTBEAT_QUEUE}/empty`],
      ['PUT', `${QUEUES}/${HEARTBEAT_QUEUE}/obliterate`],
      ['PATCH', `${QUEUES}/${HEARTBEAT_QUEUE}/${existing.id}/delay`],
      ['PATCH', `${QUEUES}/${HEARTBEAT_QUEUE}/${existing.id}/priority`],
      ['PUT', `${QUEUES}/pause`],
    ]) {
      t.is((await send(app, method, path, headers, {})).status, 403, `${method} ${path}, ${who}`);
    }
  }
  const linkJobs = await links.getJobs([
    'waiting',
    'paused',
    'delayed',
    'prioritized',
    'active',
    'completed',
    'failed',
  ]);
  t.deepEqual(
    linkJobs.filter((job) => job?.data.eventId === forged.eventId),
    [],
    'no job was added',
  );
  const after = (await heartbeats.getJob(existing.id!))!;
  t.deepEqual(after.data, existing.data, 'its data is as it was');
  t.is(await after.getState(), 'delayed');
  t.false(await heartbeats.isPaused());
  await after.remove();
});

test('the dashboard retries, promotes and cleans existing jobs, with each operator credential', async (t) => {
  const queue = getQueue(HEARTBEAT_QUEUE);
  const worker = startWorker(HEARTBEAT_QUEUE, processHeartbeat);
  for (const [who, headers] of await operatorCredentials()) {
    const id = `dashboard-${who.replace(/ /g, '-')}-${Date.now()}`;
    await queue.add('heartbeat', { enqueuedAt: 'not a date' }, { jobId: id, attempts: 1 });
    await eventually(async () => (await (await queue.getJob(id))?.getState()) === 'failed');
    const retried = await send(app, 'PUT', `${QUEUES}/${HEARTBEAT_QUEUE}/${id}/retry`, headers);
    t.is(retried.status, 204, `retry, ${who}`);
    await eventually(async () => (await queue.getJob(id))?.attemptsMade === 2, 30_000);

    const delayed = await queue.add('heartbeat', { enqueuedAt: 'not a date' }, { delay: 3600_000, attempts: 1 });
    const promoted = await send(app, 'PUT', `${QUEUES}/${HEARTBEAT_QUEUE}/${delayed.id}/promote`, headers);
    t.true(promoted.ok, `promote, ${who}: ${promoted.status}`);
    await eventually(async () => (await (await queue.getJob(delayed.id!))?.getState()) === 'failed', 30_000);

    for (const jobId of [id, delayed.id!]) {
      const cleaned = await send(app, 'PUT', `${QUEUES}/${HEARTBEAT_QUEUE}/${jobId}/clean`, headers);
      t.is(cleaned.status, 204, `clean, ${who}`);
      t.is(await queue.getJob(jobId), undefined);
    }
  }
  await worker.close();
});

// Runs after the serial tests: the operator's login is then remembered, so this page's many requests count no password
// check.
test('the queue dashboard loads in Chromium with no CSP error and nothing from a third party', async (t) => {
  const browser = await launchChromium();
  try {
    const { user, password } = getConfig().dashboard;
    const context = await browser.newContext({ httpCredentials: { username: user, password, send: 'always' } });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('request', (request) => {
      if (!request.url().startsWith(app.url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    const answer = await page.goto(`${app.url}/admin/queues`);
    t.is(answer!.status(), 200);
    t.regex(answer!.headers()['content-security-policy'] ?? '', /style-src 'self'/, 'the policy itself is unchanged');
    // The app has rendered once the queue list (fetched from our API) shows a queue.
    await page.getByText(queueNames()[0]).first().waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    t.deepEqual(
      consoleErrors.filter((text) => /Content Security Policy|Content-Security-Policy/i.test(text)),
      [],
    );
    t.deepEqual(consoleErrors, []);
    t.deepEqual(elsewhere, []);
    await context.close();
  } finally {
    await browser.close();
  }
});
