/**
 * The webhooks case on a Redis Cluster, beside the single-Redis row: the same deliveries
 * (webhooks.ts's deliveriesPerSecond), one worker process and then two, but every queue on a
 * six-node cluster (three masters, three replicas, AOF on) started for the case, with the bench's
 * prefix hash-tagged. The baseline is BullMQ's no-op jobs on the same cluster. For the case, the
 * bench process itself (it queues the events) is pointed at the cluster, and back after it.
 */
import { getConfig, reloadConfig } from '../../../config';
import { closeQueues } from '../../../src/queue/queues';
import { waitForRedis } from '../../../src/platform/redis';
import { OwnedRedisCluster } from '../../cluster/redis-cluster';
import { noopJobsPerSecond } from '../noop-jobs';
import { EVENTS, oneThenTwoWorkers } from './webhooks';
import type { ThroughputCase } from './types';

/** Sets these variables in this process (undefined removes one) and returns what they were. */
function setEnvironment(values: Record<string, string | undefined>): Record<string, string | undefined> {
  const before = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return before;
}

export const webhooksClusterCase: ThroughputCase = {
  name: 'webhooks-cluster',
  route: `${EVENTS} link webhook deliveries, 1 worker process, Redis Cluster (3 masters + 3 replicas)`,
  needs: ['worker'],
  baseline: 'BullMQ no-op jobs on the same cluster, same count, one Worker at WORKER_CONCURRENCY',
  async measure(context) {
    const cluster = await OwnedRedisCluster.start();
    const clusterEnv = {
      REDIS_CLUSTER_NODES: cluster.seedNodes,
      QUEUE_PREFIX: `{${getConfig().queuePrefix.replace(/[{}]/g, '')}}`,
    };
    await context.setWorkers(0);
    await closeQueues();
    const previous = setEnvironment(clusterEnv);
    try {
      reloadConfig();
      await waitForRedis();
      const onCluster = {
        ...context,
        setWorkers: (count: number, extra: Record<string, string> = {}) =>
          context.setWorkers(count, { ...clusterEnv, ...extra }),
      };
      const base = 950_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;
      const { one, twoWorkersNote } = await oneThenTwoWorkers(onCluster, base);
      await context.setWorkers(0);
      const baseline = await noopJobsPerSecond(EVENTS, getConfig().worker.concurrency);
      return {
        subject: one.side,
        baseline,
        dbCommands: one.dbCommands,
        note: `${twoWorkersNote}; compare the webhooks row (one Redis)`,
      };
    } finally {
      await context.setWorkers(0);
      await closeQueues();
      setEnvironment(previous);
      reloadConfig();
      await cluster.destroy();
      await waitForRedis();
      await context.setWorkers(1);
    }
  },
};
