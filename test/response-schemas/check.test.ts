import '../helpers/env';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app';
import { runCommand } from '../helpers/processes';
import { features } from '../../src/web/areas';
import { healthFeature } from '../../src/health/routes';
import { buildSwagger } from '../../src/web/swagger';
import { checkAnswer } from '../instrumentation/answers';
import type { Feature } from '../../src/http/routes';
import { judge, readRecords } from './verdict';
// Outside npm test no process preloads the recorders: this file's app records through them all the same.
import '../instrumentation/preload.cjs';
import { send } from '../helpers/http';

// This file's answers go to its own directory: under npm test the suite's would fail the run on purpose.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'response-schemas-'));
process.env.RESPONSE_SCHEMAS_DIR = dir;

const served = buildSwagger(features, 'http://localhost') as any;
const liveness = served.paths['/healthz'].get;
const json = (status: number, body: unknown) => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(body),
});

/** The served liveness route, answering its documented string with a number. */
const wrongLiveness: Feature = {
  name: 'health',
  routes: [
    {
      ...healthFeature.routes.find((route) => route.path === '/healthz')!,
      handler: (_req, res) => {
        res.json({ status: 5 });
      },
    },
  ],
};

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ features: [wrongLiveness] });
});
test.after.always(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('an answer is judged against its status in the served document', (t) => {
  t.deepEqual(checkAnswer(served, liveness, 'liveness', json(200, { status: 'ok' })), []);
  t.deepEqual(checkAnswer(served, liveness, 'liveness', json(200, { status: 5 })), [
    { path: '/status', message: 'must be string' },
    { path: '/status', message: 'must be equal to one of the allowed values (ok)' },
  ]);
  t.deepEqual(checkAnswer(served, liveness, 'liveness', json(418, { status: 'ok' })), [
    { path: '', message: 'status 418 is not documented' },
  ]);
  t.deepEqual(checkAnswer(served, liveness, 'liveness', { status: 200, contentType: 'text/html', body: '<p>' }), [
    { path: '', message: 'content type text/html is not one the operation produces (application/json)' },
  ]);
});

test('refs resolve to definitions, x-nullable admits null, read-only fields are checked in answers', (t) => {
  const document = {
    produces: ['application/json'],
    definitions: {
      Item: {
        type: 'object',
        required: ['id', 'note'],
        properties: {
          id: { type: 'string', readOnly: true },
          note: { type: 'string', 'x-nullable': true, example: 'x' },
          kind: { type: 'string', enum: ['a', 'b'] },
        },
      },
    },
    paths: {},
  };
  const operation = {
    responses: { 200: { schema: { type: 'array', items: { $ref: '#/definitions/Item' } } } },
  };
  t.deepEqual(checkAnswer(document, operation, 'items', json(200, [{ id: '1', note: null }])), []);
  t.deepEqual(
    checkAnswer(
      document,
      operation,
      'items',
      json(200, [
        { id: 1, note: 'n' },
        { note: 'n', kind: 'c' },
      ]),
    ).map((e) => e.path),
    ['/0/id', '/1', '/1/kind'],
  );
});

test('a wrong type answered by a route is recorded; the check fails naming operation, status, path', async (t) => {
  const res = await send(app, 'GET', '/healthz');
  t.is(res.status, 200);
  const records = readRecords(dir);
  t.deepEqual(records, [
    {
      operationId: 'getLiveness',
      method: 'get',
      path: '/healthz',
      status: 200,
      contentType: 'application/json',
      verdict: [
        { path: '/status', message: 'must be string' },
        { path: '/status', message: 'must be equal to one of the allowed values (ok)' },
      ],
    },
  ]);
  const check = await runCommand(process.execPath, ['--import', 'tsx', 'test/response-schemas/check.ts', dir]);
  t.is(check.code, 1, check.stdout + check.stderr);
  t.regex(check.stdout, /getLiveness \(GET \/healthz\) answered 200 application\/json: \/status: must be string/);
});

test('a whole run fails on an operation never answered with a 2xx, unless allowed with a reason', (t) => {
  const answered = [
    { operationId: 'a', method: 'get', path: '/a', status: 200, contentType: 'application/json', verdict: 'valid' },
    { operationId: 'b', method: 'get', path: '/b', status: 404, contentType: 'application/json', verdict: 'valid' },
  ] as const;
  const records = answered.map((r) => ({ ...r }));
  t.deepEqual(judge(records, ['a', 'b', 'c'], [{ operationId: 'c', why: 'needs a real acquirer' }], true), {
    answers: 2,
    findings: [],
    unanswered: ['b'],
    allowedButAnswered: [],
  });
  t.deepEqual(judge(records, ['a', 'b'], [], false).unanswered, [], 'a partial run only checks what it answered');
});
