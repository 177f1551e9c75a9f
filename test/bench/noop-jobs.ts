/**
 * BullMQ's own floor: how fast `count` no-op jobs go through one Worker at `concurrency`, on the
 * same Redis, in the bench process. Cases whose work is a queue job compare against it.
 */
import { Worker } from 'bullmq';
import { getConfig } from '../../config';
import { getQueue } from '../../src/queue/queues';
import { createWorkerConnection } from '../../src/platform/redis';
import type { Side } from './cases/types';

export async function noopJobsPerSecond(count: number, concurrency: number, queueName = 'bench-noop'): Promise<Side> {
  const queue = getQueue(queueName);
  await queue.obliterate({ force: true });
  const connection = createWorkerConnection(queueName);
  let done = 0;
  let finished!: () => void;
  const allDone = new Promise<void>((resolve) => (finished = resolve));
  const worker = new Worker(queueName, async () => undefined, {
    connection,
    prefix: getConfig().queuePrefix,
    concurrency,
    autorun: false,
  });
  worker.on('completed', () => {
    if (++done === count) finished();
  });
  for (let i = 0; i < count; i += 1000) {
    const size = Math.min(1000, count - i);
    await queue.addBulk(
      Array.from({ length: size }, (_, j) => ({ name: 'noop', data: { n: i + j }, opts: { removeOnComplete: true } })),
    );
  }
  const started = performance.now();
  void worker.run();
  await allDone;
  const seconds = (performance.now() - started) / 1000;
  await worker.close();
  connection.disconnect();
  await queue.obliterate({ force: true });
  return {
    requestsPerSecond: Math.round((count / seconds) * 10) / 10,
    requests: count,
    statusCodes: {},
    errors: 0,
    valid: true,
  };
}
