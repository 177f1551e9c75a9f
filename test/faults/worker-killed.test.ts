import '../helpers/env';
import test from 'ava';
import mongoose from 'mongoose';
import { getQueue } from '../../src/queue/queues';
import { HeartbeatModel } from '../../src/health/heartbeat';
import { HEARTBEAT_QUEUE, type HeartbeatPayload } from '../../jobs/heartbeat';
import { eventually, startProcess } from '../helpers/processes';
import { useServices } from '../helpers/services';

// A short lock so the job of a killed worker comes back in seconds rather than a minute.
const WORKERS = { WORKER_LOCK_DURATION_MS: '2000' };

useServices({
  cleanUp: async () => {
    await getQueue(HEARTBEAT_QUEUE)
      .obliterate({ force: true })
      .catch(() => undefined);
  },
});

test.serial(
  'a worker killed with sigkill mid-job: another worker runs the job again and its effect happens once',
  async (t) => {
    const queue = getQueue<HeartbeatPayload>(HEARTBEAT_QUEUE);
    const doomed = await startProcess('worker', WORKERS);
    await queue.add('heartbeat', { enqueuedAt: new Date().toISOString(), holdMs: 5000 }, { jobId: 'killed-mid-job' });
    await eventually(async () => (await (await queue.getJob('killed-mid-job'))?.getState()) === 'active');
    doomed.child.kill('SIGKILL');
    t.is((await doomed.exited).signal, 'SIGKILL');
    t.is(
      await HeartbeatModel.countDocuments({ _id: 'killed-mid-job' }),
      0,
      'the killed attempt had not written its effect',
    );

    const survivor = await startProcess('worker', WORKERS);
    await eventually(async () => (await (await queue.getJob('killed-mid-job'))?.getState()) === 'completed', 60_000);
    // Read again once completed: a job read while still active carries no return value.
    const job = await queue.getJob('killed-mid-job');
    t.is(job!.returnvalue, 'recorded');
    t.is(job!.stalledCounter, 1, 'BullMQ saw the first attempt stall');
    const records = await HeartbeatModel.find({ _id: 'killed-mid-job' }).lean();
    t.is(records.length, 1);
    t.true(records[0].processedBy.endsWith(`:${survivor.child.pid}`));
    await survivor.stop();
  },
);

test.serial('killing one of two workers under a stream of jobs loses none and records each once', async (t) => {
  const queue = getQueue<HeartbeatPayload>(HEARTBEAT_QUEUE);
  const [first, second] = await Promise.all([startProcess('worker', WORKERS), startProcess('worker', WORKERS)]);
  const ids = Array.from({ length: 40 }, (_, i) => `stream-${i}`);
  await queue.addBulk(
    ids.map((jobId, i) => ({
      name: 'heartbeat',
      data: { enqueuedAt: new Date().toISOString(), holdMs: 100 + (i % 7) * 60 },
      opts: { jobId },
    })),
  );
  // Kill as soon as the first worker holds some jobs, wherever it is in them.
  await eventually(
    async () => (await HeartbeatModel.countDocuments({ _id: mongoose.trusted({ $in: ids }) })) >= 5,
    30_000,
    20,
  );
  first.child.kill('SIGKILL');
  await first.exited;
  const allDone = async () =>
    (await Promise.all(ids.map(async (id) => (await queue.getJob(id))?.getState()))).every((s) => s === 'completed');
  await eventually(allDone, 90_000, 250);
  const records = await HeartbeatModel.find({ _id: mongoose.trusted({ $in: ids }) }, { _id: 1 }).lean();
  t.is(records.length, ids.length);
  t.is(new Set(records.map((r) => r._id)).size, ids.length);
  t.is((await queue.getJobCounts('failed')).failed, 0);
  await second.stop();
});
