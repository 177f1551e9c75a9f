import { pointAcquirerNowhere } from '../helpers/env';
import test from 'ava';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/app';
import { call, callJson, type RequestHeaders } from '../helpers/http';
import { newMerchant, systemToken, type TestMerchant } from '../helpers/identity';
import { fillPath, LEAKS_INTERNALS, operationsOf, type Operation } from './swagger-routes';
import { CHARGEBACK_NOTICE_SECRET_HEADER } from '../../src/acquirer/chargebacks';
import { getConfig } from '../../config';

let app: TestApp;
let merchant: TestMerchant;
let operations: Operation[];

test.before(async () => {
  // Before the config loads: no acquirer answers (calls that pass validation get 502), and a small
  // body limit so the oversized-body test stays light.
  pointAcquirerNowhere();
  process.env.BODY_LIMIT = '64kb';
  app = await startTestApp();
  merchant = await newMerchant({ establishmentNumbers: ['1234567890'] });
  operations = await operationsOf(app.url);
});
test.after.always(() => app?.close());

const printable = (max: number) => fc.stringMatching(new RegExp(`^[ -~]{0,${max}}$`));
const hostileText = fc.oneof(
  printable(30),
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '1e309',
    'NaN',
    '99999999999999999999',
    '__proto__',
    'constructor',
    '$gt',
    '{"$gt":""}',
    '../../etc/passwd',
    '%00',
    '<script>',
    "' OR 1=1 --",
    'null',
    'true',
    '',
  ),
);
const pathValue = fc.oneof(
  fc.integer().map(String),
  hostileText.map(encodeURIComponent),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '..%2f..%2f', '%2e%2e'),
);
const anyJson = fc.jsonValue({ maxDepth: 3 });

/**
 * A credential of each kind the API knows, or none, or garbage. Drawn as a label so a failure
 * report never prints a real token.
 */
function credential(): fc.Arbitrary<{ label: string; junk: string }> {
  return fc.record({
    label: fc.constantFrom(
      'none',
      'merchant-token',
      'merchant-jwt',
      'system-for-merchant',
      'system',
      'junk-bearer',
      'junk',
    ),
    junk: printable(60),
  });
}

function credentialHeaders({ label, junk }: { label: string; junk: string }): Record<string, string> {
  switch (label) {
    case 'merchant-token':
      return { authorization: `Bearer ${merchant.merchantToken}` };
    case 'merchant-jwt':
      return { authorization: `Bearer ${merchant.accessToken}` };
    case 'system-for-merchant':
      return { authorization: `Bearer ${systemToken()}`, 'x-merchant-id': String(merchant.merchantId) };
    case 'system':
      return { authorization: `Bearer ${systemToken()}` };
    case 'junk-bearer':
      return { authorization: `Bearer ${junk}` };
    case 'junk':
      return { authorization: junk };
    default:
      return {};
  }
}

function bodyFor(op: Operation): fc.Arbitrary<{ text: string | undefined; contentType: string | undefined }> {
  const fieldsObject = op.bodyFields.length
    ? fc.dictionary(fc.constantFrom(...op.bodyFields), fc.oneof(anyJson, hostileText), {
        maxKeys: op.bodyFields.length,
      })
    : fc.dictionary(printable(10), anyJson, { maxKeys: 4 });
  return fc.record({
    text: fc.oneof(
      fieldsObject.map((o) => JSON.stringify(o)),
      anyJson.map((v) => JSON.stringify(v)),
      printable(80), // malformed JSON
      fc.constantFrom(
        '{',
        '{"a":',
        '[1,2',
        '{"a":1}}',
        'null',
        '""',
        '\u0000',
        '{"__proto__":{"polluted":1}}',
        '{"constructor":{"prototype":{"x":1}}}',
      ),
      fc.constant(undefined),
    ),
    contentType: fc.constantFrom(
      'application/json',
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin9',
      undefined,
    ),
  });
}

async function callAndCheck(
  t: { log(...v: unknown[]): void },
  op: Operation,
  path: string,
  headers: RequestHeaders,
  body?: string,
): Promise<void> {
  const res = await call(app, op.method, path, headers, body);
  const { text } = res;
  const where = `${op.method} ${app.url}${path} -> ${res.status}`;
  if (res.status >= 500 && res.status !== 502 && res.status !== 503) throw new Error(`${where}: ${text.slice(0, 300)}`);
  if (LEAKS_INTERNALS.test(text)) throw new Error(`${where} leaks internals: ${text.slice(0, 300)}`);
  // Pages for people (the checkout page, its assets) answer their errors as pages too.
  if (op.answersJson || (res.status >= 400 && res.status !== 404)) {
    const type = res.headers.get('content-type') ?? '';
    if (!/application\/json/.test(type))
      throw new Error(`${where} answered ${type || 'no content type'}: ${text.slice(0, 200)}`);
    if (text) {
      const parsed = JSON.parse(text) as unknown;
      if (res.status >= 400 && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)))
        throw new Error(`${where}: error body is not a JSON object: ${text.slice(0, 200)}`);
    }
  }
  void t;
}

const RUNS = Number(process.env.HOSTILE_RUNS || 12);

test('random path values, query strings and headers on every route: no 500, no internals, json errors', async (t) => {
  for (const op of operations) {
    const values = fc.record(
      Object.fromEntries(op.pathParams.map((name) => [name, pathValue])) as Record<string, fc.Arbitrary<string>>,
    );
    const query = fc.dictionary(
      fc.oneof(
        fc.constantFrom(...(op.queryParams.length ? op.queryParams : ['page']), 'page[$gt]', 'limit', '__proto__'),
        printable(8),
      ),
      hostileText,
      { maxKeys: 4 },
    );
    const headers = fc.record({
      'idempotency-key': fc.option(printable(300), { nil: undefined }),
      'x-merchant-id': fc.option(hostileText, { nil: undefined }),
      'x-request-id': fc.option(printable(120), { nil: undefined }),
      'x-forwarded-for': fc.option(printable(40), { nil: undefined }),
    });
    await t.notThrowsAsync(
      fc.assert(
        fc.asyncProperty(values, query, headers, credential(), async (params, q, extra, auth) => {
          const search = new URLSearchParams(q).toString();
          const path = `${fillPath(op.path, params)}${search ? `?${search}` : ''}`;
          const cleanExtra = Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)) as Record<
            string,
            string
          >;
          await callAndCheck(t, op, path, { ...cleanExtra, ...credentialHeaders(auth) });
        }),
        { numRuns: RUNS, includeErrorInReport: true },
      ),
      `${op.method} ${op.path}`,
    );
  }
});

test('random and malformed bodies on every route that takes one: no 500, no internals, json errors', async (t) => {
  for (const op of operations.filter((o) => o.takesBody)) {
    await t.notThrowsAsync(
      fc.assert(
        fc.asyncProperty(bodyFor(op), credential(), async (body, auth) => {
          // No content type of ours: fetch's own for a text body, when the case gives none.
          const headers = { ...credentialHeaders(auth), 'content-type': body.contentType };
          await callAndCheck(t, op, fillPath(op.path, {}), headers, body.text);
        }),
        { numRuns: RUNS, includeErrorInReport: true },
      ),
      `${op.method} ${op.path}`,
    );
  }
});

test('a body over the limit is 413 json on each route taking one (or refused unread for its credential)', async (t) => {
  const oversized = JSON.stringify({ description: 'x'.repeat(70 * 1024) });
  for (const op of operations.filter((o) => o.takesBody)) {
    // Every route's own credential: a merchant token, and the chargeback notice intake's secret (checked before the
    // body is read).
    const res = await callJson(
      app,
      op.method,
      fillPath(op.path, {}),
      {
        authorization: `Bearer ${merchant.merchantToken}`,
        [CHARGEBACK_NOTICE_SECRET_HEADER]: getConfig().acquirer.chargeback.notificationSecret,
      },
      oversized,
    );
    // 413, or refused for its credential before the body is read (a route that takes no merchant token).
    t.true([413, 401, 403].includes(res.status), `${op.method} ${op.path}: ${res.status}`);
    t.regex(res.headers.get('content-type') ?? '', /application\/json/);
    t.truthy((res.body as { detail?: string }).detail);
  }
});

test('unknown paths and methods are 404 json', async (t) => {
  await t.notThrowsAsync(
    fc.assert(
      fc.asyncProperty(printable(40), fc.constantFrom('GET', 'POST', 'DELETE', 'OPTIONS'), async (junk, method) => {
        const { status, headers, text } = await call(app, method, `/no-such/${encodeURIComponent(junk)}`);
        if (method !== 'OPTIONS' && status !== 404) throw new Error(`${method} answered ${status}`);
        if (status >= 400 && !/application\/json/.test(headers.get('content-type') ?? ''))
          throw new Error(`not json: ${text}`);
      }),
      { numRuns: 30, includeErrorInReport: true },
    ),
  );
});
