/**
 * Issue 15 item 2: a request that will be refused costs no body reading, and each route reads at
 * most what its work needs. Measured in bytes: how much of the body we had sent when the answer
 * came (the server answered having read at most that), and the route's limit once inflated.
 */
import '../helpers/env';
import http from 'node:http';
import zlib from 'node:zlib';
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app';
import { newMerchant, type TestMerchant } from '../helpers/identity';
import { CHARGEBACK_NOTICE_PATH } from '../../src/acquirer/chargebacks';
import { send } from '../helpers/http';
import { DASHBOARD_PATH } from '../../src/web/dashboard';
import { fillPath, operationsOf } from './swagger-routes';

let app: TestApp;
let merchant: TestMerchant;
test.before(async () => {
  app = await startTestApp();
  merchant = await newMerchant({ establishmentNumbers: ['3200000001'] });
});
test.after.always(() => app?.close());

/** About 11.8 MB of JSON once inflated, a few kilobytes on the wire (the review's bomb). */
const bomb = zlib.gzipSync(Buffer.from(JSON.stringify({ pad: 'a'.repeat(11_800_000) })), { level: 9 });
const FIRST_BYTES = 1024;
/** Long enough for a loaded machine's answer (3 s was not, in CI runs): only a wrong server waits it out. */
const REST_AFTER_MS = 10_000;

/**
 * Sends the headers and the first FIRST_BYTES of the body, and the rest only if no answer came
 * within REST_AFTER_MS (a server that waits for the whole body would otherwise never answer). Returns
 * the status and how many body bytes had been sent when the answer arrived.
 */
function answerToPartialBody(
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; sentWhenAnswered: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(`${app.url}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(body.length) },
    });
    req.on('response', (res) => {
      answered = true;
      resolve({ status: res.statusCode!, sentWhenAnswered: sent });
      res.resume();
      req.destroy();
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.write(body.subarray(0, FIRST_BYTES));
    sent = FIRST_BYTES;
    setTimeout(() => {
      if (answered) return;
      sent = body.length;
      req.end(body.subarray(FIRST_BYTES));
    }, REST_AFTER_MS).unref();
  });
}

const gzipJson = { 'content-type': 'application/json', 'content-encoding': 'gzip' };

test('without a credential, a protected route answers 401 before reading the body', async (t) => {
  t.true(bomb.length > 4 * FIRST_BYTES, 'the body is well beyond what is sent first');
  for (const path of [
    '/api/v1/me/',
    '/api/v1/acquirer/chargeback/consult/?status=PENDING',
    '/api/v1/online/sales/pre-capture/',
    '/api/v1/payment-links/',
  ]) {
    const { status, sentWhenAnswered } = await answerToPartialBody(path, gzipJson, bomb);
    t.true(status === 401 || status === 404 || status === 405, `${path}: ${status}`);
    t.is(sentWhenAnswered, FIRST_BYTES, `${path} answered before the rest of the body was sent`);
  }
  const wrongCredential = await answerToPartialBody(
    '/api/v1/acquirer/chargeback/consult/?status=PENDING',
    { ...gzipJson, authorization: 'Bearer nonsense' },
    bomb,
  );
  t.deepEqual(wrongCredential, { status: 401, sentWhenAnswered: FIRST_BYTES });
});

test('the chargeback notice intake checks its secret before reading the body', async (t) => {
  t.deepEqual(await answerToPartialBody(CHARGEBACK_NOTICE_PATH, gzipJson, bomb), {
    status: 401,
    sentWhenAnswered: FIRST_BYTES,
  });
  t.deepEqual(
    await answerToPartialBody(CHARGEBACK_NOTICE_PATH, { ...gzipJson, 'x-notification-secret': 'wrong' }, bomb),
    { status: 401, sentWhenAnswered: FIRST_BYTES },
  );
});

test('with a credential, a kilobyte route stops inflating at its own limit: 413, not a parsed 11.8 MB', async (t) => {
  const res = await send(
    app,
    'POST',
    '/api/v1/acquirer/chargeback/consult/?status=PENDING',
    { ...gzipJson, authorization: `Bearer ${merchant.merchantToken}` },
    bomb,
  );
  t.is(res.status, 413);
  // 200 KB of JSON: over the 100 KB default of an ordinary route, under the refusal's document limit.
  const medium = JSON.stringify({
    establishmentNumber: 3200000001,
    idChargeback: 1,
    IdCase: '1',
    file: 'A'.repeat(200 * 1024),
    fileName: '1.pdf',
  });
  const consult = await send(
    app,
    'POST',
    '/api/v1/acquirer/chargeback/consult/?status=PENDING',
    { 'content-type': 'application/json', authorization: `Bearer ${merchant.merchantToken}` },
    medium,
  );
  t.is(consult.status, 413);
  const refuse = await send(
    app,
    'PUT',
    '/api/v1/acquirer/chargeback/refuse/',
    { 'content-type': 'application/json', authorization: `Bearer ${merchant.merchantToken}` },
    medium,
  );
  t.is(refuse.status, 400, 'read and judged by its evidence rules, not refused for its size');
});

/** Sends `body` whole with `method` (a GET too, which fetch will not give a body) and gives the status. */
function statusOf(method: string, path: string, headers: Record<string, string>, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.url}${path}`, {
      method,
      headers: { ...headers, 'content-length': String(body.length) },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The operations anyone may call and the answer each documents to this body: the NUL named (400),
 * as they read bodies unauthenticated by design; the token routes answer every failure 401. The
 * acquirer's intakes are not here: their secret or signature header is checked before the body.
 */
const PUBLIC_ANSWERS: Record<string, number> = {
  'POST /api/token/': 401,
  'POST /api/token/refresh/': 401,
  'GET /api/v1/checkout-links/{guid}': 400,
  'GET /api/v1/checkout-links/{guid}/installments': 400,
  'POST /api/v1/checkout-links/{guid}/pix': 400,
  'GET /api/v1/checkout-links/{guid}/pix': 400,
  'PATCH /api/v1/checkout-links/{guid}/payer': 400,
  'PATCH /api/v1/checkout-links/{guid}/address': 400,
  'PUT /api/v1/checkout-links/{guid}/pay': 400,
  'GET /checkout/{guid}': 400,
  'GET /api/v1/checkout-mandates/{token}': 400,
  'GET /checkout/pix-automatico/{token}': 400,
  'GET /checkout/assets/{file}': 400,
  'GET /api/v1/cards/public-key/': 400,
  'GET /api/docs/swagger.json': 400,
  'GET /healthz': 400,
  'GET /readyz': 400,
};

test('every served operation answers an unauthenticated compressed body before reading it', async (t) => {
  // A NUL is refused with a 400 naming its field once the body is read: a 401 shows it was not.
  const nulBody = zlib.gzipSync(Buffer.from(JSON.stringify({ note: 'a\u0000b' })));
  const answers: Record<string, number> = {};
  for (const operation of await operationsOf(app.url)) {
    const path = fillPath(operation.path, {});
    answers[`${operation.method} ${operation.path}`] = await statusOf(operation.method, path, gzipJson, nulBody);
  }
  for (const path of ['/', '/api/queues', '/api/queues/link-webhook/add'])
    for (const method of ['GET', 'POST', 'PUT'])
      answers[`${method} ${DASHBOARD_PATH}${path}`] = await statusOf(
        method,
        `${DASHBOARD_PATH}${path}`,
        gzipJson,
        nulBody,
      );
  const expected = Object.fromEntries(
    Object.keys(answers).map((operation) => [operation, PUBLIC_ANSWERS[operation] ?? 401]),
  );
  t.deepEqual(answers, expected);
});
