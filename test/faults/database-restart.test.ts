import '../helpers/env';
import './quiet-logs';
import test from 'ava';
import { getQueue } from '../../src/queue/queues';
import { HeartbeatModel } from '../../src/health/heartbeat';
import { HEARTBEAT_QUEUE, type HeartbeatPayload } from '../../jobs/heartbeat';
import { eventually, freePort, startProcess } from '../helpers/processes';
import { newMerchant } from '../helpers/identity';
import { json } from '../helpers/app';
import { TEST_DB } from '../helpers/env';
import { OwnedFerretDB } from './owned-services';
import { useServices } from '../helpers/services';
import { send } from '../helpers/http';

let ferret: OwnedFerretDB;

useServices({
  setUp: async () => {
    ferret = new OwnedFerretDB(await freePort());
    await ferret.start();
    // This file's database (and its children's) is the owned FerretDB.
    process.env.MONGODB_URI = ferret.uri(TEST_DB);
  },
  cleanUp: async () => {
    await getQueue(HEARTBEAT_QUEUE)
      .obliterate({ force: true })
      .catch(() => undefined);
  },
  tearDown: async () => {
    await ferret?.destroy();
  },
});

test.serial('database stopped and started: readyz 503 and api 503 json while down, recovery on its own', async (t) => {
  const web = await startProcess('web');
  const worker = await startProcess('worker', { WORKER_LOCK_DURATION_MS: '3000' });
  const merchant = await newMerchant();
  const me = () => send(web, 'GET', '/api/v1/me/', { authorization: `Bearer ${merchant.merchantToken}` });
  t.is((await me()).status, 200);

  await ferret.stop();
  const ready = await send(web, 'GET', '/readyz');
  t.is(ready.status, 503);
  t.like(await json(ready), { status: 'unavailable', mongodb: false, redis: true });
  const down = await me();
  t.is(down.status, 503);
  t.regex(down.headers.get('content-type') ?? '', /application\/json/);
  const body = await json(down);
  t.truthy(body.detail);
  t.false(JSON.stringify(body).includes('Mongo'), 'no driver internals in the answer');
  // A job that needs the database fails its attempt and is retried, not lost.
  const queue = getQueue<HeartbeatPayload>(HEARTBEAT_QUEUE);
  await queue.add(
    'heartbeat',
    { enqueuedAt: new Date().toISOString() },
    { jobId: 'during-outage', backoff: { type: 'fixed', delay: 1000 }, attempts: 30 },
  );

  await ferret.start();
  await eventually(async () => (await send(web, 'GET', '/readyz')).status === 200, 60_000, 250);
  await eventually(async () => (await me()).status === 200, 30_000, 250);
  await eventually(async () => (await (await queue.getJob('during-outage'))?.getState()) === 'completed', 60_000, 250);
  t.is(await HeartbeatModel.countDocuments({ _id: 'during-outage' }), 1);
  t.is(web.child.exitCode, null, 'the web process was never restarted');
  t.is(worker.child.exitCode, null, 'the worker process was never restarted');
});
