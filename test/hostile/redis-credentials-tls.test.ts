/**
 * Redis as production should run it: TLS only (no plain port, a client certificate required), a
 * password on the default user and an ACL user for our processes. Whoever lacks one of them is
 * refused; our web and worker processes, given REDIS_USERNAME, REDIS_PASSWORD and REDIS_TLS_*,
 * work through it: readiness, the token rate limit, the dashboard, a job enqueued here and run by
 * the worker. This process uses the same configuration (its queues are the producer side).
 */
import '../helpers/env';
import '../faults/quiet-logs';
import test from 'ava';
import fs from 'node:fs';
import { getConfig } from '../../config';
import { getQueue } from '../../src/queue/queues';
import { HeartbeatModel } from '../../src/health/heartbeat';
import { HEARTBEAT_QUEUE, type HeartbeatPayload } from '../../jobs/heartbeat';
import { json } from '../helpers/app';
import { send } from '../helpers/http';
import { newMerchant } from '../helpers/identity';
import { eventually, freePort, startProcess, type RunningProcess } from '../helpers/processes';
import { useServices } from '../helpers/services';
import {
  makeTestPki,
  pingRedis,
  REDIS_ACL_PASSWORD,
  REDIS_ACL_USER,
  REDIS_REQUIREPASS,
  securedRedisEnvironment,
  type TestPki,
} from '../helpers/redis-security';
import { SecuredOwnedRedis } from '../faults/owned-services';

let pki: TestPki;
let redis: SecuredOwnedRedis;
let web: RunningProcess;
let worker: RunningProcess;

useServices({
  setUp: async () => {
    pki = await makeTestPki();
    redis = new SecuredOwnedRedis(await freePort(), pki);
    await redis.start();
    // Before anything loads the config: this process and the processes it starts use this Redis.
    const url = `rediss://127.0.0.1:${redis.port}`;
    Object.assign(process.env, { REDIS_URL: url, ...securedRedisEnvironment(pki) });
    if (getConfig().redisUrl !== url) throw new Error('config was loaded before the secured Redis was set');
  },
  ready: async () => {
    [web, worker] = await Promise.all([startProcess('web'), startProcess('worker')]);
  },
  tearDown: async () => {
    await redis?.destroy();
    if (pki) fs.rmSync(pki.dir, { recursive: true, force: true });
  },
});

test('Redis refuses whoever comes without TLS, without the client certificate or without the password', async (t) => {
  const tls = { ca: pki.ca, cert: pki.clientCert, key: pki.clientKey };
  const asApp = { username: REDIS_ACL_USER, password: REDIS_ACL_PASSWORD };
  t.is(await pingRedis(redis.port, { tls, ...asApp }), 'PONG', 'the way our processes connect');
  t.is(
    await pingRedis(redis.port, { tls, password: REDIS_REQUIREPASS }),
    'PONG',
    'the default user, with its password',
  );
  t.not(await pingRedis(redis.port, asApp), 'PONG', 'in the clear');
  t.regex(await pingRedis(redis.port, { tls }), /NOAUTH/, 'TLS but no password');
  t.regex(await pingRedis(redis.port, { tls, username: REDIS_ACL_USER, password: 'guess' }), /WRONGPASS/);
  t.not(await pingRedis(redis.port, { tls: { ca: pki.ca }, ...asApp }), 'PONG', 'no client certificate');
  t.not(
    await pingRedis(redis.port, { tls: { ca: pki.ca, cert: pki.strangerCert, key: pki.strangerKey }, ...asApp }),
    'PONG',
    'a client certificate from another CA',
  );
  t.regex(
    await pingRedis(redis.port, { tls: { cert: pki.clientCert, key: pki.clientKey }, ...asApp }),
    /self-signed certificate/,
    'we refuse a Redis whose certificate no CA we trust signed',
  );
});

test('the web process and a worker work through it: readiness, rate limits, dashboard, a job', async (t) => {
  const ready = await send(web, 'GET', '/readyz');
  t.is(ready.status, 200);
  t.like(await json(ready), { status: 'ready', redis: true });

  const merchant = await newMerchant();
  const token = await send(
    web,
    'POST',
    '/api/token/',
    { 'content-type': 'application/json' },
    { username: merchant.email, password: merchant.password },
  );
  t.is(token.status, 200, 'the token route counts its rate limit in this Redis');

  const { user, password } = getConfig().dashboard;
  const basic = { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
  t.is((await send(web, 'GET', '/admin/queues/api/queues', basic)).status, 200, 'the dashboard reads the queues');

  const jobId = `secured-${Date.now()}`;
  await getQueue<HeartbeatPayload>(HEARTBEAT_QUEUE).add(
    'heartbeat',
    { enqueuedAt: new Date().toISOString() },
    { jobId },
  );
  await eventually(async () => (await HeartbeatModel.countDocuments({ _id: jobId })) === 1, 30_000, 200);
  t.pass('the worker ran the job');
  const logs = worker.logs.join('') + web.logs.join('');
  t.false(logs.includes('NOAUTH'), 'no connection went without credentials');
  t.false(logs.includes(REDIS_ACL_PASSWORD), 'the password is never logged');
});
