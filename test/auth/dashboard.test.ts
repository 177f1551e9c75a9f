import '../helpers/env';
import './low-token-limit';
import test from 'ava';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { bearer, newMerchant, newStaff, systemToken } from '../helpers/identity';
import { launchChromium } from '../helpers/browser';
import { getConfig } from '../../config';
import { queueNames } from '../../jobs';
import { send } from '../helpers/http';
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
