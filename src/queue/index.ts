/**
 * The one module that creates BullMQ queues and workers, and every Redis connection of the code.
 *
 * Producers share one ioredis connection with the offline queue off, so a dead Redis fails fast
 * (the route answers 503) instead of piling up commands. Workers get their own connections with
 * maxRetriesPerRequest null, as BullMQ requires for blocking commands.
 *
 * REDIS_CLUSTER_NODES set: each connection is an ioredis Cluster seeded with those nodes instead
 * (the options above go to every node connection). The config has already refused a QUEUE_PREFIX
 * without a hash tag, so every key of every queue, and the rate limits, live in the tag's slot.
 * When the master of that slot dies, commands fail (the cluster answers CLUSTERDOWN, or the
 * connection closes) until its replica is promoted; ioredis then finds the new master by itself.
 */
import crypto from 'node:crypto';
import { Queue, Worker, type Job, type JobsOptions, type Processor, type WorkerOptions } from 'bullmq';
import Redis, { Cluster, type RedisOptions } from 'ioredis';
import { getConfig } from '../../config';
import { logger } from '../platform/logger';
import { jobDuration, jobFailures, jobStalls } from '../platform/metrics-registry';

export const defaultJobOptions: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { count: 5000, age: 7 * 24 * 3600 },
  removeOnFail: { count: 20000, age: 30 * 24 * 3600 },
};

/**
 * A connection to the single Redis or to the cluster: both take the same commands (a key's command goes to its slot's
 * master).
 */
export type RedisClient = Redis | Cluster;

let producerConnection: RedisClient | undefined;
const queues = new Map<string, Queue>();
const workers: Worker[] = [];
const extraConnections: RedisClient[] = [];

/** Every Redis connection is made here: to REDIS_URL, or to the cluster when REDIS_CLUSTER_NODES is set. */
function connect(extra: RedisOptions): RedisClient {
  const options: RedisOptions = { connectTimeout: 3000, ...extra };
  const { redisUrl, redisClusterNodes } = getConfig();
  if (!redisClusterNodes.length) return new Redis(redisUrl, options);
  return new Cluster(redisClusterNodes, {
    // Off for producers, as on one Redis: a command while the cluster is unreachable fails at once.
    enableOfflineQueue: options.enableOfflineQueue ?? true,
    // Node connections; ioredis keeps each node's own offline queue on and never reconnects a lost
    // node itself: a MOVED answer or a slots refresh leads it to the promoted replica.
    redisOptions: options,
    ...(options.maxRetriesPerRequest === null ? RIDE_THROUGH_FAILOVER : {}),
  });
}

/**
 * A worker's commands wait out a failover instead of failing. By default ioredis gives a command
 * 16 redirections 100 ms apart (MOVED ones at once, and the surviving nodes keep pointing at the
 * dead master until its replica is promoted): a job whose completion was being written then fails
 * its attempt although its work is done, and waits out its retry delay (a minute for a webhook).
 * Here a command keeps trying for about a minute, longer than a failover with the default
 * cluster-node-timeout (15 s) takes. Producers keep the defaults: their routes answer 503 instead.
 */
const RIDE_THROUGH_FAILOVER = {
  maxRedirections: 300,
  retryDelayOnMoved: 200,
  retryDelayOnFailover: 200,
  retryDelayOnClusterDown: 200,
  retryDelayOnTryAgain: 200,
};

/** Whether connections go to a Redis Cluster (REDIS_CLUSTER_NODES). */
export function onRedisCluster(): boolean {
  return getConfig().redisClusterNodes.length > 0;
}

/** Shared producer connection: fails fast when Redis is down. */
export function getProducerConnection(): RedisClient {
  if (!producerConnection) {
    producerConnection = connect({ enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    producerConnection.on('error', (err) => logger.warn({ err }, 'redis producer connection error'));
  }
  return producerConnection;
}

/** A separate connection for things like rate limits that must not block on queue traffic. */
export function createRedisConnection(extra: RedisOptions = {}): RedisClient {
  const connection = connect({ enableOfflineQueue: false, maxRetriesPerRequest: 1, ...extra });
  connection.on('error', (err) => logger.warn({ err }, 'redis connection error'));
  extraConnections.push(connection);
  return connection;
}

/**
 * A connection for a BullMQ Worker: blocking commands need maxRetriesPerRequest null (on a cluster, on its node
 * connections).
 */
export function createWorkerConnection(queue?: string): RedisClient {
  const connection = connect({ maxRetriesPerRequest: null });
  connection.on('error', (err) => logger.warn({ err, queue }, 'redis worker connection error'));
  extraConnections.push(connection);
  return connection;
}

export function getQueue<T = unknown>(name: string): Queue<T> {
  let queue = queues.get(name);
  if (!queue) {
    queue = new Queue(name, {
      connection: getProducerConnection(),
      prefix: getConfig().queuePrefix,
      defaultJobOptions,
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
    logger.debug(
      { err: { message: (error as Error).message }, jobId: job.id },
      'failed job already retried or removed',
    );
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

/** The job Redis keeps under `jobId` and its state, and whether it will still run by itself; undefined: none kept. */
export async function keptJob(
  queue: Queue,
  jobId: string | undefined | null,
): Promise<{ job: Job; state: string; willRun: boolean } | undefined> {
  const job = jobId ? await queue.getJob(jobId) : undefined;
  if (!job) return undefined;
  const state = await job.getState();
  return { job, state, willRun: LIVE_JOB_STATES.has(state) };
}

/** Whether the job under `jobId` will still run by itself; a sweep queues a record again only when it will not. */
export async function jobWillRun(queue: Queue, jobId: string | undefined | null): Promise<boolean> {
  return Boolean((await keptJob(queue, jobId))?.willRun);
}

export async function closeQueues(): Promise<void> {
  await Promise.all(workers.splice(0).map((w) => w.close()));
  await Promise.all([...queues.values()].map((q) => q.close()));
  queues.clear();
  for (const c of extraConnections.splice(0)) c.disconnect();
  producerConnection?.disconnect();
  producerConnection = undefined;
}

/** How long readiness waits for the queues' slot on a cluster (ioredis retries a command while a failover settles). */
const CLUSTER_READY_CHECK_MS = 1500;

/**
 * Whether Redis answers where our keys are. On a cluster a PING goes to any node, so it could
 * answer while the master of the queues' slot is dead: the check reads a key in that slot instead.
 */
export async function redisAnswers(): Promise<boolean> {
  try {
    const connection = getProducerConnection();
    if (!(connection instanceof Cluster)) return (await connection.ping()) === 'PONG';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>(
      (_, reject) =>
        (timer = setTimeout(() => reject(new Error('no answer from the queues slot')), CLUSTER_READY_CHECK_MS)),
    );
    try {
      await Promise.race([connection.exists(`${getConfig().queuePrefix}:ready-check`), timeout]);
    } finally {
      clearTimeout(timer);
    }
    return true;
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
