import '../helpers/env';
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import fc from 'fast-check';
import { getConfig } from '../../config';
import { APPROVED_CARD_NUMBER, cardSaleBody, encryptedTestCard } from '../helpers/cards';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { CHARGEBACK_NOTICE_SECRET_HEADER } from '../../src/acquirer/chargebacks';
import { DEFAULT_BODY_LIMIT_BYTES } from '../../src/http/routes';
import { startTestApp, type TestApp } from '../helpers/app';
import { call, callJson } from '../helpers/http';
import { startProcess, stopAll } from '../helpers/processes';
import { bearer, newMerchant, newStaff, systemToken, type TestMerchant } from '../helpers/identity';
import { fillPath, LEAKS_INTERNALS, operationsOf, type Operation } from './swagger-routes';

// fuzz.test.ts fuzzes every route with no acquirer at all (so any call that gets through is a
// 502). Here a real sandbox answers behind a counting proxy, so bodies that pass validation
// reach deep into the features, and a 5xx is allowed only when that very request reached the
// acquirer. Requests also carry real ids, valid-looking field values, deep nesting, large strings,
// duplicated headers and odd credentials, once with a credential the route accepts and once without.

const BODY_LIMIT_BYTES = 256 * 1024;
const RUNS_WITH_CREDENTIAL = Number(process.env.HOSTILE_RUNS || 20);
const RUNS_WITHOUT_CREDENTIAL = Math.max(2, Math.ceil(RUNS_WITH_CREDENTIAL / 3));
const CHARGEBACK_EC = '3100000006';
const CB = '/api/v1/acquirer/chargeback';

/**
 * Operations that call the acquirer (sales, checkout pay, subscription card charges and refunds,
 * the chargeback proxy): the only ones that may answer 502/503, or pass an acquirer 5xx through.
 */
const ACQUIRER_BACKED = [
  /^\/api\/v1\/online\/sales\//,
  /^\/api\/v1\/checkout-links\/\{guid\}\/pay$/,
  /^\/api\/v1\/subscriptions\//,
  new RegExp(`^${CB}/`),
];
const reachesAcquirer = (op: Operation) => ACQUIRER_BACKED.some((pattern) => pattern.test(op.path));

/** Object.prototype's own names before any request (a pollution adds to them). */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

let app: TestApp;
let merchant: TestMerchant;
let staff: { accessToken: string };
let operations: Operation[];
/** Requests the acquirer sandbox received (through the proxy), and their statuses. */
const acquirerCalls: number[] = [];
/** 5xx answers the checker allowed (the acquirer was reached), reported in the test log. */
const allowedFailures: string[] = [];
let proxy: http.Server;
const ids: Record<string, string[]> = {
  id: [],
  guid: [],
  chargeId: ['1'],
  pk: ['1'],
  establishmentNumber: [CHARGEBACK_EC],
  eventId: ['1'],
  idCase: [],
  idChargeback: [],
};

/** Forwards to the sandbox, counting each call: proves whether a given request reached the acquirer. */
async function countingProxy(target: string): Promise<string> {
  const { hostname, port } = new URL(target);
  proxy = http.createServer((req, res) => {
    const upstream = http.request(
      { hostname, port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        acquirerCalls.push(answer.statusCode ?? 0);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      acquirerCalls.push(0);
      res.destroy();
    });
    req.pipe(upstream);
  });
  proxy.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => proxy.once('listening', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

const card = (number = APPROVED_CARD_NUMBER) => encryptedTestCard({ number });

test.before(async () => {
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  const acquirer = await countingProxy(sandbox.url);
  Object.assign(process.env, {
    ACQUIRER_BASE_URL: acquirer,
    ACQUIRER_QUERY_URL: acquirer,
    ACQUIRER_CHARGEBACK_BASE_URL: `${acquirer}/sandbox-cb/chargeback/v1`,
    ACQUIRER_CHARGEBACK_AUTH_URL: `${acquirer}/oauth/v2/sandbox/protocol/openid-connect/token`,
    ACQUIRER_TIMEOUT_MS: '10000', // a loaded machine must not turn a slow sandbox into a 502
    BODY_LIMIT: `${BODY_LIMIT_BYTES / 1024}kb`,
  });
  if (getConfig().acquirer.baseUrl !== acquirer)
    throw new Error('the config was loaded before the test pointed it at the sandbox');
  app = await startTestApp();
  merchant = await newMerchant({ establishmentNumbers: [CHARGEBACK_EC] });
  staff = await newStaff();
  operations = await operationsOf(app.url);

  // Real objects of the merchant, so fuzzed path values sometimes name something that exists.
  const post = async (path: string, body: unknown) =>
    (await call(app, 'POST', path, bearer(merchant.merchantToken), body)).body;
  const sale = await post('/api/v1/online/sales/pre-capture/', cardSaleBody(card()));
  const link = await post('/api/v1/payment-links/', { value: 2590, description: 'fuzz' });
  const subscription = await post('/api/v1/subscriptions/', {
    value: 4990,
    billingCycle: 'monthly',
    firstDueDate: '2030-01-10',
    encryptedCard: card(),
  });
  ids.id.push(String(sale.data?.id), String(link.id), String(subscription.data?.id));
  ids.guid.push(String(link.payment_link_guid));
  const cases = (await callJson(sandbox, 'GET', `/sandbox-cb/_test/cases/${CHARGEBACK_EC}`)).body as {
    idCase: number;
    idChargeback: number;
  }[];
  ids.idCase.push(...cases.slice(0, 2).map((c) => String(c.idCase)));
  ids.idChargeback.push(...cases.slice(0, 2).map((c) => String(c.idChargeback)));
  if (ids.id.includes('undefined') || ids.guid.includes('undefined'))
    throw new Error(`setup failed: ${JSON.stringify({ sale, link, subscription })}`);
});
test.after.always(async () => {
  await closeAcquirerClient();
  await app?.close();
  proxy?.close();
  await stopAll();
});

// --- what is sent ---------------------------------------------------------------------------------

const printable = (max: number) => fc.stringMatching(new RegExp(`^[ -~]{0,${max}}$`));
const deeplyNested = fc.integer({ min: 50, max: 3000 }).chain((depth) =>
  fc.constantFrom('array', 'object').map((kind) => ({
    __raw:
      kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  })),
);
/** A value that looks right for some field, so validation passes further. */
const plausible = fc.constantFrom<unknown>(
  1990,
  1,
  0,
  -1,
  2,
  12,
  1.5,
  2 ** 53,
  'card',
  'pix',
  'monthly',
  'weekly',
  '2030-01-10',
  '2020-02-30',
  '529.982.247-25',
  '11.222.333/0001-81',
  'Maria Silva',
  'maria@example.com',
  'https://example.com/hook',
  'http://127.0.0.1/hook',
  'PENDING',
  'DONE',
  Number(CHARGEBACK_EC),
  CHARGEBACK_EC,
  'x.pdf',
  'JVBERi0xLjQK',
  true,
  false,
  null,
);
const wrongType = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.constant({}),
  fc.constant([]),
);
const largeString = fc
  .integer({ min: 1024, max: BODY_LIMIT_BYTES - 4096 })
  .map((size) => ({ __raw: JSON.stringify('é'.repeat(size / 2)) }));
const operatorObject = fc.constantFrom<unknown>(
  { $gt: '' },
  { $ne: null },
  { $where: 'sleep(100) || true' },
  { $regex: '.*' },
);
const fieldValue = fc.oneof(
  { weight: 4, arbitrary: plausible },
  { weight: 1, arbitrary: fc.constant('ENCRYPTED_CARD').map(() => card()) },
  { weight: 3, arbitrary: wrongType },
  { weight: 2, arbitrary: printable(40) },
  { weight: 1, arbitrary: operatorObject },
  { weight: 1, arbitrary: largeString },
  { weight: 1, arbitrary: deeplyNested },
);

/** JSON.stringify, except that {__raw} values are spliced in as raw JSON text (deep nesting, large strings). */
function serialize(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, inner) => {
    if (inner && typeof inner === 'object' && '__raw' in inner) {
      raws.push(String((inner as { __raw: string }).__raw));
      return `__RAW_${raws.length - 1}__`;
    }
    return inner;
  });
  return (text ?? 'null').replace(/"__RAW_(\d+)__"/g, (_m, index: string) => raws[Number(index)]);
}

function bodyFor(op: Operation): fc.Arbitrary<string | undefined> {
  const fields = op.bodyFields.length ? op.bodyFields : ['value', 'name'];
  const object = fc.dictionary(
    fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: printable(12) }),
    fieldValue,
    { maxKeys: fields.length + 1 },
  );
  return fc.oneof(
    { weight: 6, arbitrary: object.map(serialize) },
    // An array where an object belongs.
    { weight: 1, arbitrary: fc.array(object, { minLength: 1, maxLength: 3 }).map(serialize) },
    { weight: 1, arbitrary: fieldValue.map(serialize) }, // a bare value
    { weight: 1, arbitrary: deeplyNested.map(serialize) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{',
        '{"value": 1,}',
        '[1,2',
        "{'a':1}",
        '{"a":1}{"b":2}',
        '\uFEFF{}',
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{"admin":true}}}',
        'null',
        '"x"',
        '1e999',
      ),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

const pathValue = (name: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(ids[name]?.length ? ids[name] : ['1'])) },
    { weight: 1, arbitrary: fc.integer({ min: -5, max: 2 ** 31 }).map(String) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '0',
        '1.0',
        '1e3',
        '0x10',
        '-0',
        '9007199254740993',
        'null',
        '%00',
        '%2e%2e%2f',
        encodeURIComponent('{"$gt":""}'),
        encodeURIComponent('é'),
        'a'.repeat(300),
      ),
    },
  );

/** Query pairs: a name may repeat (?page=1&page=2 arrives as an array). */
const queryArb = (op: Operation) =>
  fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(...op.queryParams, 'page', 'status'),
        fc.constantFrom('page[$gt]', 'status[$ne]', 'a[b][c]', 'x[]', '__proto__[admin]', 'limit'),
      ),
      fc.oneof(printable(12), fc.constantFrom('0', '-1', '999999999999', 'PENDING', 'true', '2030-01-10', '')),
    ),
    { maxLength: 5 },
  );

type Credential =
  | 'merchant-token'
  | 'merchant-jwt'
  | 'staff-jwt'
  | 'system-for-merchant'
  | 'system'
  | 'dashboard'
  | 'notice-secret'
  | 'none';
const CREDENTIALS: Credential[] = [
  'merchant-token',
  'merchant-jwt',
  'staff-jwt',
  'system-for-merchant',
  'system',
  'dashboard',
  'notice-secret',
];

function credentialHeaders(kind: Credential): [string, string][] {
  const { user, password } = getConfig().dashboard;
  switch (kind) {
    case 'merchant-token':
      return [['authorization', `Bearer ${merchant.merchantToken}`]];
    case 'merchant-jwt':
      return [['authorization', `Bearer ${merchant.accessToken}`]];
    case 'staff-jwt':
      return [['authorization', `Bearer ${staff.accessToken}`]];
    case 'system-for-merchant':
      return [
        ['authorization', `Bearer ${systemToken()}`],
        ['x-merchant-id', String(merchant.merchantId)],
      ];
    case 'system':
      return [['authorization', `Bearer ${systemToken()}`]];
    case 'dashboard':
      return [['authorization', `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`]];
    case 'notice-secret':
      return [[CHARGEBACK_NOTICE_SECRET_HEADER, getConfig().acquirer.chargeback.notificationSecret]];
    default:
      return [];
  }
}

/** Header oddities on top of the credential: duplicates, odd schemes, idempotency keys, content types. */
const oddHeaders = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constant('x-merchant-id'),
      fc.constantFrom('1', '0', '-1', '01', '1.0', '1e0', '0x1', ' 1', '1,1', '99999999999999999999', ''),
    ),
    fc.tuple(
      fc.constant('idempotency-key'),
      fc.oneof(printable(40), fc.constantFrom('', ' ', 'fixed-key', 'fixed-key', 'a'.repeat(2000), 'a:b', '../x')),
    ),
    fc.tuple(
      fc.constant('authorization'),
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Bearer  x',
        'bearer mt_',
        'Bearer mt_x',
        'Basic',
        'Basic !!!',
        'Basic Og==',
        'Token abc',
        'Bearer a.b.c',
        'Bearer ..',
        'Bearer eyJhbGciOiJub25lIn0.e30.',
      ),
    ),
    fc.tuple(
      fc.constant('content-type'),
      fc.constantFrom(
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
        'application/json; charset=bogus',
        'application/merge-patch+json',
        '',
      ),
    ),
    fc.tuple(fc.constant('content-encoding'), fc.constantFrom('identity', 'br', 'bogus')),
    fc.tuple(fc.constant('accept'), fc.constantFrom('text/html', 'application/xml', '*/*')),
  ),
  { maxLength: 3 },
);

// --- what is checked -------------------------------------------------------------------------------

interface Answer {
  status: number;
  type: string;
  text: string;
}

/** The public HTML pages, whose 404 is a page too. */
const PAGES = new Set(['/checkout/{guid}', '/checkout/pix-automatico/{token}']);

/** A precise account of why an answer is wrong, or null. */
function problemWith(op: Operation, answer: Answer, acquirerStatuses: number[]): string | null {
  const { status, type, text } = answer;
  if (status >= 500) {
    // 502/503: the acquirer was called and failed us; another 5xx only as the acquirer's own 5xx passed through.
    const reachedAcquirer = acquirerStatuses.length > 0;
    const passedThrough = acquirerStatuses.some((s) => s === status);
    const allowed = reachesAcquirer(op) && reachedAcquirer && (status === 502 || status === 503 || passedThrough);
    if (!allowed) return `answered ${status}${reachesAcquirer(op) ? ' (the acquirer was not called)' : ''}`;
  }
  if (LEAKS_INTERNALS.test(text)) return 'shows internals';
  // Documented non-JSON answers: successes (and redirects) of the page, asset, document and metrics
  // routes, and the checkout pages' own 404 (the page renders "no such link" or "no such authorisation").
  const pageNotFound = PAGES.has(op.path) && status === 404 && /text\/html/.test(type);
  if (status < 400 && !op.answersJson) return null;
  if (status >= 300 && status < 400) return null;
  if (pageNotFound || status === 204) return null;
  if (!/^application\/json\b/.test(type)) return `answered ${type || 'no content type'}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'answered unparseable JSON';
  }
  if (status >= 400 && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)))
    return 'error body is not a JSON object';
  return null;
}

async function send(
  op: Operation,
  url: string,
  headers: [string, string][],
  body: string | undefined,
): Promise<{ answer: Answer; acquirerStatuses: number[] }> {
  const before = acquirerCalls.length;
  const h = new Headers();
  for (const [name, value] of headers) h.append(name, value); // append: a repeated name is sent twice
  const res = await fetch(url, {
    method: op.method,
    headers: h,
    body: op.method === 'GET' || op.method === 'HEAD' ? undefined : body,
    redirect: 'manual',
  });
  const text = await res.text();
  return {
    answer: { status: res.status, type: res.headers.get('content-type') ?? '', text },
    acquirerStatuses: acquirerCalls.slice(before),
  };
}

/**
 * The credential kinds this operation accepts: public ones (no Swagger security) take none; others are probed (anything
 * but 401/403).
 */
async function acceptedCredentials(op: Operation): Promise<Credential[]> {
  if (!op.secured) return ['none', 'merchant-token'];
  const accepted: Credential[] = [];
  for (const kind of CREDENTIALS) {
    const { answer } = await send(
      op,
      `${app.url}${fillPath(op.path, { guid: ids.guid[0] })}`,
      credentialHeaders(kind),
      undefined,
    );
    if (answer.status !== 401 && answer.status !== 403) accepted.push(kind);
  }
  return accepted;
}

async function fuzz(op: Operation, credentials: Credential[], numRuns: number): Promise<void> {
  const params = fc.record(
    Object.fromEntries(op.pathParams.map((name) => [name, pathValue(name)])) as Record<string, fc.Arbitrary<string>>,
  );
  await fc.assert(
    fc.asyncProperty(
      params,
      queryArb(op),
      bodyFor(op),
      oddHeaders,
      fc.constantFrom(...credentials),
      async (values, query, body, odd, credential) => {
        const search = new URLSearchParams(query).toString();
        const url = `${app.url}${fillPath(op.path, values)}${search ? `?${search}` : ''}`;
        const headers: [string, string][] = [['content-type', 'application/json'], ...credentialHeaders(credential)];
        for (const [name, value] of odd) {
          // A repeated content-type or authorization replaces ours half the time, else is sent twice.
          if (name === 'content-type' || (name === 'authorization' && value.length % 2 === 0)) {
            const at = headers.findIndex(([n]) => n === name);
            if (at >= 0) headers.splice(at, 1);
          }
          headers.push([name, value]);
        }
        const { answer, acquirerStatuses } = await send(op, url, headers, body);
        const problem = problemWith(op, answer, acquirerStatuses);
        if (answer.status >= 500)
          allowedFailures.push(`${op.method} ${op.path} ${answer.status} (acquirer ${acquirerStatuses.join(',')})`);
        // The failure report names the credential kind, never the token.
        if (problem)
          throw new Error(`${op.method} ${url.slice(0, 200)} [${credential}] ${problem}: ${answer.text.slice(0, 300)}`);
      },
    ),
    { numRuns, includeErrorInReport: true },
  );
}

test.serial(
  'every route, with a credential it accepts: no 5xx unless the acquirer was reached, no internals, json errors',
  async (t) => {
    let deepCalls = 0;
    for (const op of operations) {
      const accepted = await acceptedCredentials(op);
      t.true(accepted.length > 0, `${op.method} ${op.path} accepts some credential`);
      const before = acquirerCalls.length;
      await fuzz(op, accepted.length ? accepted : ['none'], RUNS_WITH_CREDENTIAL);
      deepCalls += acquirerCalls.length - before;
    }
    t.log(
      `${operations.length} operations, ${deepCalls} acquirer calls reached by fuzzed requests; ` +
        `allowed 5xx: ${allowedFailures.join('; ') || 'none'}`,
    );
  },
);

test.serial('every route without a credential: no 5xx, no internals, json errors', async (t) => {
  for (const op of operations)
    await t.notThrowsAsync(fuzz(op, ['none'], RUNS_WITHOUT_CREDENTIAL), `${op.method} ${op.path}`);
});

test.serial(
  'a body nested 50 000 levels deep in a known or an unknown field is never a 5xx, with or without an idempotency key',
  async (t) => {
    // Regression: POST /api/v1/payment-links/ with an Idempotency-Key hashed the raw body
    // recursively before validating it, and a deep unknown field overflowed the stack (500).
    const deep = (open: string, close: string) => ({ __raw: `${open.repeat(50_000)}${close.repeat(50_000)}` });
    const seen: string[] = [];
    for (const op of operations.filter((o) => o.takesBody && o.method !== 'GET')) {
      const credential = (await acceptedCredentials(op))[0] ?? 'none';
      const bodies = [
        ...op.bodyFields.map((field) => ({ value: 1990, description: 'deep', [field]: deep('[', ']') })),
        { value: 1990, description: 'deep', unknownField: deep('{"a":', '}') },
        { value: 1990, description: 'deep', unknownField: deep('[', ']') },
      ];
      for (const [index, body] of bodies.entries()) {
        for (const key of [undefined, `deep-${index}-${op.method}-${op.path}`.replace(/[^\x21-\x7e]/g, '')]) {
          const headers: [string, string][] = [['content-type', 'application/json'], ...credentialHeaders(credential)];
          if (key) headers.push(['idempotency-key', key.slice(0, 200)]);
          const { answer, acquirerStatuses } = await send(
            op,
            `${app.url}${fillPath(op.path, { guid: ids.guid[0], establishmentNumber: CHARGEBACK_EC })}`,
            headers,
            serialize(body),
          );
          const problem = problemWith(op, answer, acquirerStatuses);
          if (problem)
            seen.push(
              `${op.method} ${op.path} [${credential}${key ? ', idempotency key' : ''}] ` +
                `${problem}: ${answer.text.slice(0, 150)}`,
            );
        }
      }
    }
    t.deepEqual(seen, []);
  },
);

test.serial('no fuzzed body or query polluted the prototypes of this process', (t) => {
  const probe = {} as Record<string, unknown>;
  t.deepEqual(Object.keys(Object.prototype), []);
  t.is(probe.admin, undefined);
  t.is(probe.polluted, undefined);
  t.deepEqual(
    Object.getOwnPropertyNames(Object.prototype).filter((name) => !PROTOTYPE_NAMES.has(name)),
    [],
  );
});

test('the checker refuses what it must', (t) => {
  const sales = { path: '/api/v1/online/sales/pre-capture/', answersJson: true } as Operation;
  const links = { path: '/api/v1/payment-links/', answersJson: true } as Operation;
  const page = { path: '/checkout/{guid}', answersJson: false } as Operation;
  const json400 = { status: 400, type: 'application/json; charset=utf-8', text: '{"value":["x"]}' };
  t.is(problemWith(links, json400, []), null);
  t.regex(problemWith(links, { ...json400, status: 500 }, [])!, /answered 500/);
  t.regex(problemWith(links, { ...json400, status: 502 }, [200])!, /answered 502/);
  t.regex(problemWith(sales, { ...json400, status: 502 }, [])!, /not called/);
  t.is(problemWith(sales, { ...json400, status: 502 }, [0]), null);
  t.regex(problemWith(sales, { ...json400, status: 500 }, [200])!, /answered 500/);
  t.is(problemWith(sales, { ...json400, status: 500 }, [500]), null);
  t.regex(
    problemWith(links, { ...json400, text: '{"detail":"at handler (/work/main/src/x.ts:1:2)"}' }, [])!,
    /internals/,
  );
  t.regex(problemWith(links, { ...json400, type: 'text/html' }, [])!, /text\/html/);
  t.regex(problemWith(links, { ...json400, text: '["x"]' }, [])!, /not a JSON object/);
  t.regex(problemWith(page, { ...json400, type: 'text/html' }, [])!, /text\/html/);
  t.is(problemWith(page, { status: 404, type: 'text/html; charset=utf-8', text: '<html>' }, []), null);
});

// --- bodies over the limit --------------------------------------------------------------------------

/** Public and protected routes, each with and without a credential. */
const OVERSIZED_ON: [method: string, path: string, protectedRoute: boolean][] = [
  ['POST', '/api/token/', false],
  ['POST', '/api/v1/online/sales/pre-capture/', true],
  ['POST', '/api/v1/payment-links/', true],
  ['PATCH', '/api/v1/checkout-links/{guid}/payer', false],
  ['PUT', '/api/v1/checkout-links/{guid}/pay', false],
  ['PUT', `${CB}/refuse/`, true],
  ['POST', '/api/v1/subscriptions/', true],
];

async function expect413(
  t: import('ava').ExecutionContext,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: RequestInit['body'],
  what: string,
  status = 413,
) {
  const url = `${app.url}${fillPath(path, { guid: ids.guid[0] })}`;
  const res = await fetch(url, { method, headers, body, duplex: 'half' } as RequestInit);
  const text = await res.text();
  t.is(res.status, status, `${what} ${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/, `${what} ${method} ${path}`);
  t.is(typeof (JSON.parse(text) as { detail?: unknown }).detail, 'string', `${what} ${method} ${path}`);
}

test(
  'a body over the limit is 413 json on public routes and, with a credential, protected ones; without one a ' +
    'protected route is 401 unread',
  async (t) => {
    const oversized = serialize({ value: 1, description: { __raw: JSON.stringify('x'.repeat(BODY_LIMIT_BYTES + 1)) } });
    for (const [method, path, protectedRoute] of OVERSIZED_ON) {
      for (const auth of [{}, { authorization: `Bearer ${merchant.merchantToken}` }] as Record<string, string>[]) {
        const credential = Object.keys(auth).length > 0;
        await expect413(
          t,
          method,
          path,
          { 'content-type': 'application/json', ...auth },
          oversized,
          credential ? 'credential' : 'no credential',
          protectedRoute && !credential ? 401 : 413,
        );
      }
    }
  },
);

test(
  'a body over the limit is 413 json when streamed without a length and when it only grows that large once ' +
    'inflated',
  async (t) => {
    const oversized = serialize({ value: 1, description: { __raw: JSON.stringify('x'.repeat(BODY_LIMIT_BYTES + 1)) } });
    const gzipped = zlib.gzipSync(oversized); // a few hundred bytes on the wire
    t.true(gzipped.length < 4096);
    for (const [method, path] of [OVERSIZED_ON[0], OVERSIZED_ON[2], OVERSIZED_ON[3]]) {
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${merchant.merchantToken}` };
      const chunks = new ReadableStream({
        start(controller) {
          for (let at = 0; at < oversized.length; at += 64 * 1024)
            controller.enqueue(new TextEncoder().encode(oversized.slice(at, at + 64 * 1024)));
          controller.close();
        },
      });
      await expect413(t, method, path, headers, chunks, 'chunked');
      await expect413(t, method, path, { ...headers, 'content-encoding': 'gzip' }, gzipped, 'gzip');
    }
  },
);

test('a body just under the limit is not refused for its size', async (t) => {
  // The refusal carries documents: it reads up to BODY_LIMIT. An ordinary route reads up to its own 100 KB default.
  const under = serialize({ value: 1, description: { __raw: JSON.stringify('x'.repeat(BODY_LIMIT_BYTES - 1024)) } });
  const res = await call(app, 'PUT', `${CB}/refuse/`, bearer(merchant.merchantToken), under);
  t.not(res.status, 413);
  t.true(res.status < 500);
  const underDefault = serialize({
    value: 1,
    description: { __raw: JSON.stringify('x'.repeat(DEFAULT_BODY_LIMIT_BYTES - 1024)) },
  });
  const link = await call(app, 'POST', '/api/v1/payment-links/', bearer(merchant.merchantToken), underDefault);
  t.not(link.status, 413);
  t.true(link.status < 500);
});
