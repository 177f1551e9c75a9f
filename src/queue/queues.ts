/**
 * The one module that creates BullMQ queues and workers, on the connections of src/platform/redis.ts.
 */
import { Queue, Worker, type Job, type JobsOptions, type Processor, type WorkerOptions } from 'bullmq';
import { getConfig } from '../../config';
import { logger } from '../platform/logger';
import { jobDuration, jobFailures, jobStalls } from '../platform/metrics-registry';
import { queueTelemetry } from '../platform/tracing';
import { closeRedisConnections, createWorkerConnection, getProducerConnection } from '../platform/redis';

export const defaultJobOptions: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { count: 5000, age: 7 * 24 * 3600 },
  removeOnFail: { count: 20000, age: 30 * 24 * 3600 },
};

const queues = new Map<string, Queue>();
const workers: Worker[] = [];

export function getQueue<T = unknown>(name: string): Queue<T> {
  let queue = queues.get(name);
  if (!queue) {
    queue = new Queue(name, {
      connection: getProducerConnection(),
      prefix: getConfig().queuePrefix,
      defaultJobOptions,
      // Traces on: a producer span per add, its context carried in the job for the worker's span.
      telemetry: queueTelemetry(),
    });
    queue.on('error', (err) => logger.warn({ err, queue: name }, 'queue error'));
    queues.set(name, queue);
  }
  return queue as Queue<T>;
}

export function allQueues(names: string[]): Queue[] {
  return names.map((name) => getQueue(name));
}

export function startWorker<T>(name: string, processor: Processor<T>, options: Partial<WorkerOptions> = {}): Worker<T> {
  const connection = createWorkerConnection(name);
  const worker = new Worker<T>(name, processor, {
    connection,
    prefix: getConfig().queuePrefix,
    concurrency: getConfig().worker.concurrency,
    // A job whose worker died (SIGKILL, lost machine) is taken again once its lock expires.
    lockDuration: getConfig().worker.lockDurationMs,
    stalledInterval: getConfig().worker.lockDurationMs,
    telemetry: queueTelemetry(),
    ...options,
  });
  const secondsSinceStart = (job: Job<T>) =>
    job.processedOn ? Math.max(0, Date.now() - job.processedOn) / 1000 : undefined;
  worker.on('error', (err) => logger.error({ err, queue: name }, 'worker error'));
  worker.on('failed', (job: Job<T> | undefined, err) => {
    logger.warn(
      { queue: name, jobId: job?.id, attemptsMade: job?.attemptsMade, err: { message: err.message } },
      'job failed',
    );
    // BullMQ sets finishedOn only when the job goes to the failed set (no attempt left).
    jobFailures.inc({ queue: name, final: String(Boolean(job?.finishedOn)) });
    const seconds = job && secondsSinceStart(job);
    if (seconds !== undefined) jobDuration.observe({ queue: name, outcome: 'failed' }, seconds);
  });
  worker.on('completed', (job) => {
    logger.debug({ queue: name, jobId: job.id }, 'job completed');
    const seconds = secondsSinceStart(job);
    if (seconds !== undefined) jobDuration.observe({ queue: name, outcome: 'completed' }, seconds);
  });
  worker.on('stalled', (jobId) => {
    logger.warn({ queue: name, jobId }, 'stalled job put back to run again');
    jobStalls.inc({ queue: name });
  });
  workers.push(worker as unknown as Worker);
  return worker;
}

/** Stops taking work, lets in-flight jobs finish, closes every connection. */
export async function closeQueues(): Promise<void> {
  await Promise.all(workers.splice(0).map((w) => w.close()));
  await Promise.all([...queues.values()].map((q) => q.close()));
  queues.clear();
  closeRedisConnections();
}
