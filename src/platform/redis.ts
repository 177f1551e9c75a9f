/**
 * Every Redis connection of the code: to REDIS_URL, or to the cluster when REDIS_CLUSTER_NODES is set.
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
 *
 * Every connection, to the single Redis and to each cluster node, logs in with the same credentials
 * and speaks TLS with rediss:// (config/redis-variables.ts): a cluster takes them from REDIS_URL and
 * REDIS_USERNAME/REDIS_PASSWORD/REDIS_TLS_* as a single Redis does, so none of its nodes is reached in
 * the clear or anonymously when the configuration says otherwise.
 */
import Redis, { Cluster, type RedisOptions } from 'ioredis';
import { getConfig } from '../../config';
import { redisSecurityOf } from '../../config/redis-variables';
import { logger } from './logger';

/**
 * A connection to the single Redis or to the cluster: both take the same commands (a key's command goes to its slot's
 * master).
 */
export type RedisClient = Redis | Cluster;

let producerConnection: RedisClient | undefined;
const extraConnections: RedisClient[] = [];

/** Every Redis connection is made here: to REDIS_URL, or to the cluster when REDIS_CLUSTER_NODES is set. */
function connect(extra: RedisOptions): RedisClient {
  const { redisUrl, redisClusterNodes, redisSecurity } = getConfig();
  const options: RedisOptions = {
    connectTimeout: 3000,
    ...redisSecurityOf({ url: redisUrl, ...redisSecurity }),
    ...extra,
  };
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

/** Closes every connection made here (the queues and workers on them are closed first). */
export function closeRedisConnections(): void {
  for (const c of extraConnections.splice(0)) c.disconnect();
  producerConnection?.disconnect();
  producerConnection = undefined;
}
