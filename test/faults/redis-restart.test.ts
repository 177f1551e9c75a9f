import '../helpers/env';
import './quiet-logs';
import test from 'ava';
import mongoose from 'mongoose';
import { getQueue } from '../../src/queue/queues';
import { waitForRedis } from '../../src/platform/redis';
import { HeartbeatModel } from '../../src/health/heartbeat';
import { HEARTBEAT_QUEUE, type HeartbeatPayload } from '../../jobs/heartbeat';
import { eventually, startProcess, type RunningProcess } from '../helpers/processes';
import { newMerchant, type TestMerchant } from '../helpers/identity';
import { json } from '../helpers/app';
import { useServicesOnOwnedRedis } from './owned-services';
import { send } from '../helpers/http';

const owned = useServicesOnOwnedRedis();

function tokenRequest(web: RunningProcess, merchant: TestMerchant) {
  return send(
    web,
    'POST',
    '/api/token/',
    { 'content-type': 'application/json' },
    { username: merchant.email, password: merchant.password },
  );
}

const heartbeatsDone = async (ids: string[]) =>
  (await HeartbeatModel.countDocuments({ _id: mongoose.trusted({ $in: ids }) })) === ids.length;

test.serial(
  'redis stopped and restarted: 503 json while down, then recovery without restarting our processes and no job lost',
  async (t) => {
    const web = await startProcess('web');
    const worker = await startProcess('worker', { WORKER_LOCK_DURATION_MS: '3000' });
    const merchant = await newMerchant();
    t.is((await tokenRequest(web, merchant)).status, 200);

    const queue = getQueue<HeartbeatPayload>(HEARTBEAT_QUEUE);
    const before = ['before-0', 'before-1', 'before-2'];
    for (const jobId of before) await queue.add('heartbeat', { enqueuedAt: new Date().toISOString() }, { jobId });
    await eventually(() => heartbeatsDone(before));
    // Queued while Redis is up, due only once it has been down: they must survive the restart.
    const queued = Array.from({ length: 10 }, (_, i) => `queued-${i}`);
    await queue.addBulk(
      queued.map((jobId) => ({
        name: 'heartbeat',
        data: { enqueuedAt: new Date().toISOString() },
        opts: { jobId, delay: 2500 },
      })),
    );

    await owned.redis.stop();
    const ready = await send(web, 'GET', '/readyz');
    t.is(ready.status, 503);
    t.like(await json(ready), { status: 'unavailable', mongodb: true, redis: false });
    const token = await tokenRequest(web, merchant);
    t.is(token.status, 503, 'the token route keeps its rate limit in Redis');
    t.regex(token.headers.get('content-type') ?? '', /application\/json/);
    t.truthy((await json(token)).detail);
    // What needs only the database still answers.
    const me = await send(web, 'GET', '/api/v1/me/', { authorization: `Bearer ${merchant.merchantToken}` });
    t.is(me.status, 200);
    t.is((await send(web, 'GET', '/healthz')).status, 200);

    await owned.redis.start();
    await eventually(async () => (await send(web, 'GET', '/readyz')).status === 200, 30_000, 250);
    await eventually(async () => (await tokenRequest(web, merchant)).status === 200, 15_000, 250);
    await eventually(() => heartbeatsDone(queued), 60_000, 250);
    const after = 'after-restart';
    await waitForRedis();
    await queue.add('heartbeat', { enqueuedAt: new Date().toISOString() }, { jobId: after });
    await eventually(() => heartbeatsDone([after]), 30_000, 250);

    t.is(web.child.exitCode, null, 'the web process was never restarted');
    t.is(worker.child.exitCode, null, 'the worker process was never restarted');
    for (const id of queued) t.is(await (await queue.getJob(id))!.getState(), 'completed');
  },
);
