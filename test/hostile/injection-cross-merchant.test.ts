import '../helpers/env';
import '../auth/high-token-limit'; // many token calls here; the limit itself is tested in test/auth
import test from 'ava';
import mongoose from 'mongoose';
import { getConfig } from '../../config';
import { cardSaleBody, encryptedTestCard } from '../helpers/cards';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { startTestApp, type TestApp } from '../helpers/app';
import { call, send } from '../helpers/http';
import { startProcess, stopAll } from '../helpers/processes';
import { bearer, newMerchant, newStaff, type TestMerchant } from '../helpers/identity';
import { fillPath, LEAKS_INTERNALS, operationsOf, type Operation } from './swagger-routes';

// injection.test.ts sends $gt/$ne/$regex/$in/$exists objects everywhere with no acquirer. This
// file adds $where and {$ne: null}, runs with a real sandbox (so bodies that pass validation reach
// the services), checks the status class of every answer, and proves that a merchant using such
// payloads (in bodies, paths, queries and X-Merchant-Id) never reads another merchant's data.

const WHERE = 'function () { return true; }';
const INJECTIONS: unknown[] = [{ $gt: '' }, { $ne: null }, { $where: WHERE }];
/**
 * Statuses an injected operator may get: refused (400/422), not identified or not allowed (401/403), not found (404),
 * conflict (409), too many (429).
 */
const REFUSED = new Set([400, 401, 403, 404, 409, 422, 429]);

let app: TestApp;
let attacker: TestMerchant;
let victim: TestMerchant;
let staffToken: string;
let operations: Operation[];
/** What belongs to the victim and must never appear in an answer to the attacker. */
const victimSecrets: string[] = [];
const victimIds: Record<string, string> = {};
const filters: { collection: string; method: string; filter: unknown }[] = [];

test.before(async () => {
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  Object.assign(process.env, {
    ACQUIRER_BASE_URL: sandbox.url,
    ACQUIRER_QUERY_URL: sandbox.url,
    ACQUIRER_CHARGEBACK_BASE_URL: `${sandbox.url}/sandbox-cb/chargeback/v1`,
    ACQUIRER_CHARGEBACK_AUTH_URL: `${sandbox.url}/oauth/v2/sandbox/protocol/openid-connect/token`,
    ACQUIRER_TIMEOUT_MS: '10000',
  });
  if (getConfig().acquirer.baseUrl !== sandbox.url)
    throw new Error('the config was loaded before the test pointed it at the sandbox');
  app = await startTestApp();
  victim = await newMerchant({ companyName: 'Victim Marker Store LTDA', establishmentNumbers: ['3100000006'] });
  attacker = await newMerchant({ establishmentNumbers: ['3100000007'] });
  staffToken = (await newStaff()).accessToken;
  operations = await operationsOf(app.url);

  const card = encryptedTestCard({ holder: 'VICTIM HOLDER' });
  const post = async (path: string, body: unknown) =>
    (await call(app, 'POST', path, bearer(victim.merchantToken), body)).body;
  const sale = await post(
    '/api/v1/online/sales/pre-capture/',
    cardSaleBody(card, {
      value: 7331,
      payer: { name: 'Victim Payer Marker', document: '529.982.247-25' },
      order_reference: 'victim-order-marker',
    }),
  );
  const link = await post('/api/v1/payment-links/', { value: 7332, description: 'victim-link-marker' });
  const subscription = await post('/api/v1/subscriptions/', {
    value: 7333,
    billingCycle: 'monthly',
    firstDueDate: '2030-01-10',
    encryptedCard: card,
  });
  if (!sale.data?.id || !link.id || !subscription.data?.id)
    throw new Error(`setup failed: ${JSON.stringify({ sale, link, subscription })}`);
  victimIds.sale = String(sale.data.id);
  victimIds.link = String(link.id);
  victimIds.subscription = String(subscription.data.id);
  victimIds.guid = String(link.payment_link_guid);
  victimSecrets.push(
    'victim-link-marker',
    'victim-order-marker',
    'Victim Payer Marker',
    'Victim Marker Store',
    'VICTIM HOLDER',
    victim.email,
    victim.login,
  );

  mongoose.set('debug', (collection: string, method: string, ...args: unknown[]) => {
    if (/^(find|update|delete|count|distinct|replace|aggregate)/i.test(method))
      filters.push({ collection, method, filter: args[0] });
  });
});
test.after.always(async () => {
  mongoose.set('debug', false);
  await closeAcquirerClient();
  await app?.close();
  await stopAll();
});

/** Where one of our injected operators sits live (not under $eq) in a filter mongoose sent. */
function liveInjections(value: unknown, path = '', parentKey = ''): string[] {
  if (!value || typeof value !== 'object') return [];
  const found: string[] = [];
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const live =
      parentKey !== '$eq' && (key === '$where' || (key === '$gt' && inner === '') || (key === '$ne' && inner === null));
    if (live) found.push(`${path}.${key}`);
    found.push(...liveInjections(inner, `${path}.${key}`, key));
  }
  return found;
}

const callAs = (op: Operation, path: string, token: string, body?: unknown, extra: Record<string, string> = {}) =>
  call(app, op.method, path, bearer(token, extra), op.method === 'GET' ? undefined : body);

/** The token a route accepts, so the injection gets past authentication: the attacker's merchant token, else staff. */
async function tokenFor(op: Operation): Promise<string> {
  const probe = await callAs(op, fillPath(op.path, {}), attacker.merchantToken);
  return probe.status === 403 && !op.path.includes('chargeback') ? staffToken : attacker.merchantToken;
}

test.serial(
  '$gt, $ne null and $where in any body field or query value: refused or ignored, never a live operator',
  async (t) => {
    filters.length = 0;
    const problems: string[] = [];
    let sent = 0;
    for (const op of operations) {
      const token = await tokenFor(op);
      const attempts: { path: string; body?: unknown; mustRefuse: boolean }[] = [];
      for (const injection of INJECTIONS) {
        if (op.takesBody && op.method !== 'GET') {
          for (const field of op.bodyFields)
            attempts.push({ path: fillPath(op.path, {}), body: { [field]: injection }, mustRefuse: true });
          attempts.push({
            path: fillPath(op.path, {}),
            body: Object.fromEntries(op.bodyFields.map((f) => [f, injection])),
            mustRefuse: true,
          });
        }
      }
      const names = [...op.queryParams, 'id', 'merchantId', 'merchant_id'];
      const query = names.map((q) => `${q}[$gt]=&${q}[$ne]=&${q}[$where]=${encodeURIComponent(WHERE)}`).join('&');
      attempts.push({ path: `${fillPath(op.path, {})}?${query}`, mustRefuse: false });
      for (const attempt of attempts) {
        const res = await callAs(op, attempt.path, token, attempt.body);
        sent++;
        const sentBody = JSON.stringify(attempt.body)?.slice(0, 120);
        const where = `${op.method} ${attempt.path.slice(0, 120)} ${sentBody} -> ${res.status}`;
        if (res.status >= 500 || LEAKS_INTERNALS.test(res.text)) problems.push(`${where}: ${res.text.slice(0, 200)}`);
        // An operator object where a value belongs is refused; public pages and endpoints without a body schema may
        // ignore it.
        else if (attempt.mustRefuse && op.bodyFields.length && !REFUSED.has(res.status))
          problems.push(`${where}: accepted ${res.text.slice(0, 200)}`);
      }
    }
    const leaks = filters.flatMap((f) =>
      liveInjections(f.filter).map((at) => `${f.collection}.${f.method} filter${at}: ${JSON.stringify(f.filter)}`),
    );
    t.log(`${sent} requests, ${filters.length} filters sent to the database`);
    t.deepEqual(problems, []);
    t.deepEqual(leaks, []);
    t.true(filters.length > 50, 'the requests did reach the database');
  },
);

test('the detector sees a live injected operator and not a neutralised one', (t) => {
  t.deepEqual(liveInjections({ email: { $gt: '' } }), ['.email.$gt']);
  t.deepEqual(liveInjections({ a: { $ne: null }, $where: WHERE }), ['.a.$ne', '.$where']);
  t.deepEqual(liveInjections({ email: { $eq: { $ne: null, $gt: '' } } }), []);
  t.deepEqual(liveInjections({ merchantId: 7, status: { $ne: 3 } }), []);
});

test('token login with operator objects is a plain 401', async (t) => {
  const cases: [string, unknown][] = [
    ['both $gt empty', { username: { $gt: '' }, password: { $gt: '' } }],
    ['both $ne null', { username: { $ne: null }, password: { $ne: null } }],
    ['$where', { username: { $where: WHERE }, password: { $where: WHERE } }],
    ['$regex on the e-mail', { username: { $regex: '^owner' }, password: { $ne: null } }],
    ['the right e-mail, $gt password', { username: victim.email, password: { $gt: '' } }],
    ['the right e-mail, $ne password', { username: victim.email, password: { $ne: null } }],
    ['the right e-mail, password in an array', { username: victim.email, password: [victim.password] }],
    ['e-mail in an array', { username: [victim.email], password: victim.password }],
  ];
  for (const [title, body] of cases) {
    const res = await send(app, 'POST', '/api/token/', { 'content-type': 'application/json' }, body);
    const text = await res.text();
    t.is(res.status, 401, `${title}: ${text}`);
    t.false(text.includes('access'), title);
  }
  const refresh = await send(
    app,
    'POST',
    '/api/token/refresh/',
    { 'content-type': 'application/json' },
    { refresh: { $ne: null } },
  );
  t.true([400, 401].includes(refresh.status));
});

test.serial(
  "a merchant never reads another merchant's data with ids, operators, queries or x-merchant-id",
  async (t) => {
    const seen: string[] = [];
    const forbiddenText = (text: string) => victimSecrets.filter((secret) => text.includes(secret));
    const paramValues = (name: string): string[] => {
      const operators = [JSON.stringify({ $gt: '' }), JSON.stringify({ $ne: null }), '[$gt]', '$where'].map(
        encodeURIComponent,
      );
      if (name === 'guid') return [...operators]; // the guid is public by design: the checkout reads a link by it
      return [victimIds.sale, victimIds.link, victimIds.subscription, ...operators];
    };
    const reads = operations.filter((op) => op.secured && op.pathParams.length && !op.path.startsWith('/checkout'));
    for (const op of [...reads, ...operations.filter((o) => o.secured && o.method === 'GET' && !o.pathParams.length)]) {
      const paths = op.pathParams.length
        ? op.pathParams.flatMap((name) => paramValues(name).map((value) => fillPath(op.path, { [name]: value })))
        : [fillPath(op.path, {})];
      for (const path of paths) {
        const variants: [string, Record<string, string>][] = [
          [path, {}],
          [
            `${path}?merchantId=${victim.merchantId}` +
              `&merchant[$ne]=${attacker.merchantId}&merchantId[$ne]=${attacker.merchantId}`,
            {},
          ],
          [path, { 'x-merchant-id': String(victim.merchantId) }],
          [path, { 'x-merchant-id': `${attacker.merchantId}, ${victim.merchantId}` }],
        ];
        for (const [url, extra] of variants) {
          for (const token of [attacker.merchantToken, attacker.accessToken]) {
            const res = await callAs(op, url, token, op.method === 'GET' ? undefined : {}, extra);
            const leaked = forbiddenText(res.text);
            // The attacker owns nothing, so a success on any path naming an object is someone else's object.
            if (leaked.length || (res.status >= 200 && res.status < 300 && op.pathParams.length))
              seen.push(`${op.method} ${url} -> ${res.status}: ${leaked.join(', ')}`);
            if (res.status >= 500) seen.push(`${op.method} ${url} -> ${res.status}`);
          }
        }
      }
    }
    t.deepEqual(seen, []);
    // The victim's own reads do show the markers (so the check above could fail).
    const own = await send(app, 'GET', `/api/v1/payment-links/${victimIds.link}/`, bearer(victim.merchantToken));
    t.true((await own.text()).includes('victim-link-marker'));
    const sale = await send(app, 'GET', `/api/v1/online/sales/${victimIds.sale}/`, bearer(victim.merchantToken));
    t.is(sale.status, 200);
  },
);
