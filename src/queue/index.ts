/**
 * The one module that creates BullMQ queues and workers.
 *
 * Producers share one ioredis connection with the offline queue off, so a dead Redis fails fast
 * (the route answers 503) instead of piling up commands. Workers get their own connections with
 * maxRetriesPerRequest null, as BullMQ requires for blocking commands.
 */
import crypto from 'node:crypto';
import { Queue, Worker, type Job, type JobsOptions, type Processor, type WorkerOptions } from 'bullmq';
import Redis, { type RedisOptions } from 'ioredis';
import { getConfig } from '../../config';
import { logger } from '../logger';
import { jobDuration, jobFailures, jobStalls } from '../metrics/registry';

export const defaultJobOptions: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { count: 5000, age: 7 * 24 * 3600 },
  removeOnFail: { count: 20000, age: 30 * 24 * 3600 },
};

let producerConnection: Redis | undefined;
const queues = new Map<string, Queue>();
const workers: Worker[] = [];
const extraConnections: Redis[] = [];

function redisOptions(extra: RedisOptions): RedisOptions {
  return { connectTimeout: 3000, ...extra };
}

/** Shared producer connection: fails fast when Redis is down. */
export function getProducerConnection(): Redis {
  if (!producerConnection) {
    producerConnection = new Redis(getConfig().redisUrl, redisOptions({ enableOfflineQueue: false, maxRetriesPerRequest: 1 }));
    producerConnection.on('error', (err) => logger.warn({ err }, 'redis producer connection error'));
  }
  return producerConnection;
}

/** A separate connection for things like rate limits that must not block on queue traffic. */
export function createRedisConnection(extra: RedisOptions = {}): Redis {
  const connection = new Redis(getConfig().redisUrl, redisOptions({ enableOfflineQueue: false, maxRetriesPerRequest: 1, ...extra }));
  connection.on('error', (err) => logger.warn({ err }, 'redis connection error'));
  extraConnections.push(connection);
  return connection;
}

export function getQueue<T = unknown>(name: string): Queue<T> {
  let queue = queues.get(name);
  if (!queue) {
    queue = new Queue(name, { connection: getProducerConnection(), prefix: getConfig().queuePrefix, defaultJobOptions });
    queue.on('error', (err) => logger.warn({ err, queue: name }, 'queue error'));
    queues.set(name, queue);
  }
  return queue as Queue<T>;
}

export function allQueues(names: string[]): Queue[] {
  return names.map((name) => getQueue(name));
}

export function startWorker<T>(name: string, processor: Processor<T>, options: Partial<WorkerOptions> = {}): Worker<T> {
  const connection = new Redis(getConfig().redisUrl, redisOptions({ maxRetriesPerRequest: null }));
  connection.on('error', (err) => logger.warn({ err, queue: name }, 'redis worker connection error'));
  const worker = new Worker<T>(name, processor, {
    connection,
    prefix: getConfig().queuePrefix,
    concurrency: getConfig().worker.concurrency,
    // A job whose worker died (SIGKILL, lost machine) is taken again once its lock expires.
    lockDuration: getConfig().worker.lockDurationMs,
    stalledInterval: getConfig().worker.lockDurationMs,
    ...options,
  });
  const secondsSinceStart = (job: Job<T>) => (job.processedOn ? Math.max(0, Date.now() - job.processedOn) / 1000 : undefined);
  worker.on('error', (err) => logger.error({ err, queue: name }, 'worker error'));
  worker.on('failed', (job: Job<T> | undefined, err) => {
    logger.warn({ queue: name, jobId: job?.id, attemptsMade: job?.attemptsMade, err: { message: err.message } }, 'job failed');
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
  extraConnections.push(connection);
  return worker;
}

/** Stops taking work, lets in-flight jobs finish, closes every connection this module opened. */
/**
 * Moves a failed job back to waiting. Schedulers run their sweeps at the same time, so another may
 * have retried (or BullMQ removed) the job first: that is not an error, the answer is 0.
 */
export async function retryFailedJob(job: Job): Promise<0 | 1> {
  try {
    await job.retry('failed');
    return 1;
  } catch (error) {
    logger.debug({ err: { message: (error as Error).message }, jobId: job.id }, 'failed job already retried or removed');
    return 0;
  }
}

/**
 * The job of a stored record (a notice to apply): its id is unique to the record and to this
 * queueing, and is kept on the record. An id derived from content alone is refused by BullMQ
 * while Redis still holds a finished job under it (from an earlier run, another database on the
 * same Redis, or a job that ended without applying), and the record would never be applied.
 */
export function recordJobId(prefix: string, recordId: string): string {
  return `${prefix}-${recordId}-${crypto.randomBytes(6).toString('hex')}`;
}

/** Job states in which a job will still run by itself. */
const LIVE_JOB_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/** Whether the job under `jobId` will still run by itself; a sweep queues a record again only when it will not. */
export async function jobWillRun(queue: Queue, jobId: string | undefined | null): Promise<boolean> {
  const job = jobId ? await queue.getJob(jobId) : undefined;
  return Boolean(job && LIVE_JOB_STATES.has(await job.getState()));
}

export async function closeQueues(): Promise<void> {
  await Promise.all(workers.splice(0).map((w) => w.close()));
  await Promise.all([...queues.values()].map((q) => q.close()));
  queues.clear();
  for (const c of extraConnections.splice(0)) c.disconnect();
  producerConnection?.disconnect();
  producerConnection = undefined;
}

export async function redisAnswers(): Promise<boolean> {
  try {
    return (await getProducerConnection().ping()) === 'PONG';
  } catch {
    return false;
  }
}

/** Resolves once the producer connection is ready (commands fail fast before that, by design). */
export async function waitForRedis(timeoutMs = 10_000): Promise<void> {
  const connection = getProducerConnection();
  if (connection.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis not ready after ${timeoutMs} ms`)), timeoutMs);
    connection.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
