import '../helpers/env';
import test from 'ava';
import { getQueue } from '../../src/queue/queues';
import { HeartbeatModel } from '../../src/health/heartbeat';
import { enqueueHeartbeat, HEARTBEAT_QUEUE } from '../../jobs/heartbeat';
import { eventually, startProcess } from '../helpers/processes';
import { json } from '../helpers/app';
import { useServices } from '../helpers/services';
import { send } from '../helpers/http';

useServices({
  cleanUp: async () => {
    await getQueue(HEARTBEAT_QUEUE)
      .obliterate({ force: true })
      .catch(() => undefined);
  },
});

test.serial('a job enqueued by the scheduler code is completed by a worker process', async (t) => {
  const web = await startProcess('web');
  const worker = await startProcess('worker');
  // Stopped whatever the outcome: a worker left running would take the next test's job.
  try {
    const ready = await json(await send(web, 'GET', '/readyz'));
    t.is(ready.status, 'ready');
    const now = new Date('2030-01-01T10:00:30Z');
    await enqueueHeartbeat(now);
    await enqueueHeartbeat(new Date('2030-01-01T10:00:55Z')); // same minute: same job id, not a second job
    const queue = getQueue(HEARTBEAT_QUEUE);
    // Read again once completed: a job read before its state may have finished in between, without its return value.
    await eventually(async () => (await (await queue.getJob('heartbeat-2030-01-01T1000'))?.getState()) === 'completed');
    const job = await queue.getJob('heartbeat-2030-01-01T1000');
    t.is(job!.returnvalue, 'recorded');
    t.is(await HeartbeatModel.countDocuments({ _id: 'heartbeat-2030-01-01T1000' }), 1);
    t.is(await queue.getJobCountByTypes('completed', 'waiting', 'active', 'delayed'), 1);
  } finally {
    await worker.stop();
    await web.stop();
  }
});

test.serial('sigterm lets the running job finish exactly once, then the worker exits 0', async (t) => {
  const worker = await startProcess('worker');
  const queue = getQueue(HEARTBEAT_QUEUE);
  await queue.add('heartbeat', { enqueuedAt: new Date().toISOString(), holdMs: 2500 }, { jobId: 'slow-one' });
  await eventually(async () => (await (await queue.getJob('slow-one'))?.getState()) === 'active');
  const exit = await worker.stop('SIGTERM');
  t.is(exit.code, 0);
  const job = await queue.getJob('slow-one');
  t.is(await job!.getState(), 'completed');
  t.is(job!.attemptsMade, 1);
  t.is(await HeartbeatModel.countDocuments({ _id: 'slow-one' }), 1);
  t.true(worker.logs.join('').includes('worker: stopped'));
});

test.serial('headers over the node limit get a json 431 from the web process', async (t) => {
  const web = await startProcess('web');
  const res = await send(web, 'GET', '/healthz', { 'x-padding': 'a'.repeat(20_000) });
  t.is(res.status, 431);
  t.deepEqual(await json(res), { detail: 'Request headers too large.' });
  await web.stop();
});
