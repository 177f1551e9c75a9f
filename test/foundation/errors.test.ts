import '../helpers/env';
import test from 'ava';
import { celebrate, Joi, Segments } from 'celebrate';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { features } from '../../src/web/areas';
import type { Feature } from '../../src/http/routes';
import { send } from '../helpers/http';

// A feature that only this test registers, to drive the error paths of the real app.
const probe: Feature = {
  name: 'probe',
  routes: [
    {
      method: 'get',
      path: '/probe/throw',
      handler: () => {
        throw new Error('secret internals at /srv/app.ts:12');
      },
      doc: { operationId: 'probeThrow', summary: 'throws', responses: {} },
    },
    {
      method: 'post',
      path: '/probe/validate',
      bodyLimit: 'max', // reads up to BODY_LIMIT, as the routes that carry documents do
      before: [
        celebrate(
          { [Segments.BODY]: Joi.object({ value: Joi.number().integer().required(), name: Joi.string().max(3) }) },
          { abortEarly: false },
        ),
      ],
      handler: (req, res) => {
        res.json({ ok: true, body: req.body });
      },
      doc: { operationId: 'probeValidate', summary: 'validates', responses: {} },
    },
  ],
};

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ features: [...features, probe] });
});
test.after.always(() => app?.close());

test('malformed json is a 400 json error', async (t) => {
  const res = await send(app, 'POST', '/probe/validate', { 'content-type': 'application/json' }, '{"value": 1,');
  t.is(res.status, 400);
  t.deepEqual(await json(res), { detail: 'Malformed JSON in request body.' });
});

test('unknown path is a 404 json error', async (t) => {
  const res = await send(app, 'GET', '/no/such/path');
  t.is(res.status, 404);
  t.deepEqual(await json(res), { detail: 'Not found.' });
});

test('a body over the limit is a 413 json error', async (t) => {
  const big = JSON.stringify({ value: 1, pad: 'x'.repeat(13 * 1024 * 1024) });
  const res = await send(app, 'POST', '/probe/validate', { 'content-type': 'application/json' }, big);
  t.is(res.status, 413);
  t.deepEqual(await json(res), { detail: 'Request body too large.' });
});

test('an 8 MB file in base64 fits under the limit', async (t) => {
  const body = JSON.stringify({ value: 1, file: Buffer.alloc(8 * 1024 * 1024, 7).toString('base64') });
  const res = await send(app, 'POST', '/probe/validate', { 'content-type': 'application/json' }, body);
  // the probe schema rejects the unknown field, which proves the body was parsed rather than refused for size
  t.is(res.status, 400);
  t.deepEqual(Object.keys(await json(res)), ['file']);
});

test('a thrown error is a 500 without stack or internals', async (t) => {
  const res = await send(app, 'GET', '/probe/throw');
  t.is(res.status, 500);
  const text = await res.text();
  t.deepEqual(JSON.parse(text), { detail: 'Internal server error.' });
  t.false(text.includes('srv/app.ts'));
});

test('validation failures are a field map naming every bad field', async (t) => {
  const res = await send(
    app,
    'POST',
    '/probe/validate',
    { 'content-type': 'application/json' },
    { value: 1.5, name: 'toolong' },
  );
  t.is(res.status, 400);
  const body = await json(res);
  t.deepEqual(Object.keys(body).sort(), ['name', 'value']);
  t.true(Array.isArray(body.value) && typeof body.value[0] === 'string');
});

test('every response carries a request id, and a sane incoming one is kept', async (t) => {
  const fresh = await send(app, 'GET', '/healthz');
  t.regex(fresh.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  const kept = await send(app, 'GET', '/healthz', { 'x-request-id': 'abc-123' });
  t.is(kept.headers.get('x-request-id'), 'abc-123');
  const replaced = await send(app, 'GET', '/healthz', { 'x-request-id': 'bad id\twith spaces' });
  t.not(replaced.headers.get('x-request-id'), 'bad id\twith spaces');
});

test('helmet headers are set', async (t) => {
  const res = await send(app, 'GET', '/healthz');
  t.is(res.headers.get('x-content-type-options'), 'nosniff');
  t.truthy(res.headers.get('content-security-policy'));
  t.is(res.headers.get('x-powered-by'), null);
});

test('readyz answers 200 when mongodb and redis answer', async (t) => {
  const res = await send(app, 'GET', '/readyz');
  t.is(res.status, 200);
  t.deepEqual(await json(res), { status: 'ready', mongodb: true, redis: true });
});

test('the queue dashboard needs its basic-auth credentials', async (t) => {
  const { getConfig } = await import('../../config');
  const anonymous = await send(app, 'GET', '/admin/queues');
  t.is(anonymous.status, 401);
  const wrong = await send(app, 'GET', '/admin/queues', {
    authorization: `Basic ${Buffer.from('ops:nope').toString('base64')}`,
  });
  t.is(wrong.status, 401);
  const { user, password } = getConfig().dashboard;
  const ok = await send(app, 'GET', '/admin/queues/api/queues', {
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  });
  t.is(ok.status, 200);
  const body = await json(ok);
  t.true(body.queues.some((q: { name: string }) => q.name === 'heartbeat'));
});
