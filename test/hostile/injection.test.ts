import { pointAcquirerNowhere } from '../helpers/env';
import test from 'ava';
import mongoose from 'mongoose';
import { startTestApp, type TestApp } from '../helpers/app';
import { newMerchant, newStaff, type TestMerchant } from '../helpers/identity';
import { fillPath, LEAKS_INTERNALS, operationsOf, type Operation } from './swagger-routes';
import { call, send } from '../helpers/http';

const MARKER = 'injected-marker';
/** Operator objects a caller might smuggle in; each is recognisable by its value. */
const INJECTIONS = [
  { $gt: '' },
  { $ne: MARKER },
  { $regex: MARKER },
  { $in: [MARKER] },
  { $exists: true, $ne: MARKER },
];

let app: TestApp;
let merchant: TestMerchant;
let staffToken: string;
let operations: Operation[];
const filters: { collection: string; method: string; filter: unknown }[] = [];

test.before(async () => {
  pointAcquirerNowhere();
  app = await startTestApp();
  merchant = await newMerchant({ establishmentNumbers: ['1234567890'] });
  staffToken = (await newStaff()).accessToken;
  operations = await operationsOf(app.url);
  // Every command mongoose sends, as sent (after sanitizeFilter and casting): the first argument
  // of a find, update, delete or count is its filter.
  mongoose.set('debug', (collection: string, method: string, ...args: unknown[]) => {
    if (/^(find|update|delete|count|distinct|replace)/i.test(method))
      filters.push({ collection, method, filter: args[0] });
  });
});
test.after.always(async () => {
  mongoose.set('debug', false);
  await app?.close();
});

/** Paths inside `value` where one of our injected operators arrived as an operator (not wrapped in $eq). */
function liveOperators(value: unknown, path = '', parentKey = ''): string[] {
  if (!value || typeof value !== 'object') return [];
  const found: string[] = [];
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const injectedValue =
      inner === '' ||
      inner === MARKER ||
      (Array.isArray(inner) && inner.includes(MARKER)) ||
      (key === '$exists' && inner === true);
    if (key.startsWith('$') && parentKey !== '$eq' && injectedValue && key !== '$eq') found.push(`${path}.${key}`);
    found.push(...liveOperators(inner, `${path}.${key}`, key));
  }
  return found;
}

const callAs = (op: Operation, path: string, body: unknown, token: string) =>
  call(app, op.method, path, { authorization: `Bearer ${token}` }, body);

test.serial(
  'operator objects in any body field, query value or path value never reach a query as operators',
  async (t) => {
    filters.length = 0;
    const problems: string[] = [];
    for (const op of operations) {
      for (const token of [merchant.merchantToken, staffToken]) {
        const attempts: { path: string; body?: unknown }[] = [];
        for (const injection of INJECTIONS) {
          if (op.takesBody) {
            attempts.push({
              path: fillPath(op.path, {}),
              body: Object.fromEntries(op.bodyFields.map((f) => [f, injection])),
            });
            for (const field of op.bodyFields)
              attempts.push({ path: fillPath(op.path, {}), body: { [field]: injection } });
            attempts.push({ path: fillPath(op.path, {}), body: injection });
          }
          const asText = encodeURIComponent(JSON.stringify(injection));
          attempts.push({ path: fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p, asText]))) });
          const query = op.queryParams
            .map((q) => `${encodeURIComponent(q)}=${asText}&${encodeURIComponent(q)}[$gt]=`)
            .join('&');
          if (query) attempts.push({ path: `${fillPath(op.path, {})}?${query}` });
        }
        for (const attempt of attempts) {
          const res = await callAs(op, attempt.path, attempt.body, token);
          if (res.status === 500 || LEAKS_INTERNALS.test(res.text))
            problems.push(
              `${op.method} ${attempt.path} ${JSON.stringify(attempt.body)} -> ${res.status} ${res.text.slice(0, 200)}`,
            );
        }
      }
    }
    const leaks = filters.flatMap((f) =>
      liveOperators(f.filter).map((where) => `${f.collection}.${f.method} filter${where}: ${JSON.stringify(f.filter)}`),
    );
    t.deepEqual(problems, []);
    t.deepEqual(leaks, []);
    t.true(filters.length > 50, 'the requests did reach the database');
  },
);

test.serial('operator objects as login credentials are refused like any wrong password', async (t) => {
  for (const injection of INJECTIONS) {
    const res = await send(
      app,
      'POST',
      '/api/token/',
      { 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9' },
      { username: injection, password: injection },
    );
    t.true([401, 429].includes(res.status), `${JSON.stringify(injection)} -> ${res.status}`);
    const withEmail = await send(
      app,
      'POST',
      '/api/token/',
      { 'content-type': 'application/json' },
      { username: merchant.email, password: injection },
    );
    t.true([401, 429].includes(withEmail.status));
  }
});

test('the detector sees an injected operator that was not neutralised', (t) => {
  t.deepEqual(liveOperators({ email: { $gt: '' } }), ['.email.$gt']);
  t.deepEqual(liveOperators({ email: { $eq: { $gt: '' } } }), []);
  t.deepEqual(liveOperators({ _id: 7, status: { $in: [MARKER] } }), ['.status.$in']);
  t.deepEqual(liveOperators({ receivedAt: { $lt: new Date() } }), []);
});
