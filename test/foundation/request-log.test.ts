import '../helpers/env';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/processes';
import { buildApp } from '../../src/web/app';
import { features } from '../../src/web/areas';
import { createLogger } from '../../src/platform/logger';
import type { Feature } from '../../src/http/routes';
import { send } from '../helpers/http';

/**
 * The slow route's handler: it tells the test it has the request, answers when the test lets it, and tells
 * when it has answered, so the test orders "client leaves" and "handler answers" by events, not by pauses.
 */
const slow = { arrived: signal(), release: signal(), answered: signal() };

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

// Routes only this test registers: an answer, a failure, and one slow enough for a client to leave.
const probe: Feature = {
  name: 'probe',
  routes: [
    {
      method: 'get',
      path: '/probe/echo/:value',
      handler: (req, res) => {
        res.json({ value: req.params.value });
      },
      doc: { operationId: 'probeEcho', summary: 'echoes', responses: {} },
    },
    {
      method: 'post',
      path: '/probe/throw',
      handler: () => {
        throw new Error('the cause, with its stack');
      },
      doc: { operationId: 'probeThrow', summary: 'throws', responses: {} },
    },
    {
      method: 'get',
      path: '/probe/slow',
      handler: async (_req, res) => {
        slow.arrived.resolve();
        await slow.release.promise;
        res.json({ late: true });
        slow.answered.resolve();
      },
      doc: { operationId: 'probeSlow', summary: 'answers late', responses: {} },
    },
  ],
};

interface Line {
  level: string;
  msg: string;
  name: string;
  [key: string]: unknown;
}

const lines: Line[] = [];
const destination = { write: (text: string) => void lines.push(JSON.parse(text) as Line) };
let app: TestApp;

test.before(async () => {
  app = await startTestApp({ features: [...features, probe], logger: createLogger('web', 'info', destination) });
});
test.after.always(() => app?.close());

/** The request lines (and only those) logged for a request id. */
function requestLines(id: string): Line[] {
  return lines.filter((line) => (line.req as { id?: string } | undefined)?.id === id);
}

async function oneLineFor(id: string): Promise<Line> {
  await eventually(() => requestLines(id).length > 0);
  // Another request's line, or a second one for this request, would come in the same tick or soon after.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const found = requestLines(id);
  if (found.length !== 1) throw new Error(`expected one request line for ${id}, got ${JSON.stringify(found)}`);
  return found[0];
}

test('one info line per answered request: id, method, path without its query, status and time only', async (t) => {
  const res = await send(app, 'GET', '/probe/echo/abc?token=secret-in-query&card=4000000000000010', {
    authorization: 'Bearer secret-bearer-value',
    'x-request-id': 'log-test-1',
  });
  t.is(res.status, 200);
  t.is(res.headers.get('x-request-id'), 'log-test-1');
  const line = await oneLineFor('log-test-1');
  const { time, pid, hostname, responseTime, ...rest } = line;
  t.is(typeof time, 'number');
  t.is(typeof pid, 'number');
  t.is(typeof hostname, 'string');
  t.true(Number.isInteger(responseTime) && (responseTime as number) >= 0);
  t.deepEqual(rest, {
    level: 'info',
    name: 'web',
    req: { id: 'log-test-1', method: 'GET', url: '/probe/echo/abc' },
    res: { statusCode: 200 },
    msg: 'request completed',
  });
  const text = JSON.stringify(line);
  t.false(text.includes('secret'), 'no header or query value in the line');
});

test('the request id is the answer header, fresh when the caller sends none or an unsafe one', async (t) => {
  for (const sent of [undefined, 'bad id\twith spaces', 'x'.repeat(101)]) {
    const res = await send(app, 'GET', '/probe/echo/id', sent ? { 'x-request-id': sent } : {});
    const id = res.headers.get('x-request-id') ?? '';
    t.regex(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    t.is(((await oneLineFor(id)).req as { id: string }).id, id);
  }
});

test('4xx answers are info lines with their status', async (t) => {
  const unauthorized = await send(app, 'GET', '/api/v1/me/', { 'x-request-id': 'log-test-401' });
  t.is(unauthorized.status, 401);
  const missing = await send(app, 'GET', '/no/such/path?q=1', { 'x-request-id': 'log-test-404' });
  t.is(missing.status, 404);
  const line401 = await oneLineFor('log-test-401');
  t.like(line401, { level: 'info', msg: 'request completed', res: { statusCode: 401 } });
  const line404 = await oneLineFor('log-test-404');
  t.like(line404, { level: 'info', msg: 'request completed', req: { url: '/no/such/path' }, res: { statusCode: 404 } });
});

test('a 5xx is an error line with the status, no stack; the cause is logged with its stack under the id', async (t) => {
  const res = await send(app, 'POST', '/probe/throw', { 'x-request-id': 'log-test-500' });
  t.is(res.status, 500);
  const line = await oneLineFor('log-test-500');
  t.like(line, {
    level: 'error',
    msg: 'request answered 500',
    req: { id: 'log-test-500', method: 'POST', url: '/probe/throw' },
    res: { statusCode: 500 },
  });
  t.false('err' in line);
  t.false(JSON.stringify(line).includes('stack'));
  const cause = lines.find((l) => l.reqId === 'log-test-500');
  t.like(cause, { level: 'error', msg: 'unhandled error', err: { message: 'the cause, with its stack' } });
  t.regex(String((cause?.err as { stack?: string }).stack), /request-log\.test\.ts/);
});

test('a card-number-like run in the path is masked in the line', async (t) => {
  const res = await send(app, 'GET', '/probe/echo/4000000000000010', { 'x-request-id': 'log-test-card' });
  t.is(res.status, 200);
  const line = await oneLineFor('log-test-card');
  t.is((line.req as { url: string }).url, '/probe/echo/[masked ****0010]');
});

test('a request whose client leaves before the answer gets one line, marked aborted', async (t) => {
  const request = http.get(`${app.url}/probe/slow`, { headers: { 'x-request-id': 'log-test-gone' } });
  request.on('error', () => {});
  await slow.arrived.promise;
  request.destroy();
  const line = await oneLineFor('log-test-gone');
  t.like(line, { level: 'info', msg: 'request aborted', aborted: true, req: { url: '/probe/slow' } });
  // The handler answers later into the closed connection: still the one line.
  slow.release.resolve();
  await slow.answered.promise;
  await new Promise((resolve) => setImmediate(resolve));
  t.is(requestLines('log-test-gone').length, 1);
});

test('below info (LOG_LEVEL=warn) answered requests log nothing; a 5xx still does', async (t) => {
  const quiet: Line[] = [];
  const logger = createLogger('web', 'warn', { write: (text: string) => void quiet.push(JSON.parse(text) as Line) });
  // A second app on the connections the first one opened (closing it must not close them).
  const server = buildApp({ features: [...features, probe], logger }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await send({ url }, 'GET', '/probe/echo/x', { 'x-request-id': 'quiet-200' });
    await send({ url }, 'POST', '/probe/throw', { 'x-request-id': 'quiet-500' });
    await eventually(() => quiet.some((l) => (l.req as { id?: string } | undefined)?.id === 'quiet-500'));
    t.false(quiet.some((l) => (l.req as { id?: string } | undefined)?.id === 'quiet-200'));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
