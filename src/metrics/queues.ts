/**
 * Queue depth, read from Redis when /metrics is scraped (not kept in memory), so the figure is
 * true whatever the number of workers.
 */
import { Gauge } from 'prom-client';
import { getQueue } from '../queue/queues';
import { redisAnswers } from '../platform/redis';
import { registry } from '../platform/metrics-registry';

export const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;

let queueNamesSource: () => string[] = () => [];
let registered = false;

/**
 * Adds queue depth to this process's /metrics. Only the web process does, so summing a metric
 * over every scraped process never counts a queue twice.
 */
export function reportQueues(names: () => string[]): void {
  queueNamesSource = names;
  if (registered) return;
  registered = true;
  registry.registerMetric(queueJobs);
  registry.registerMetric(queueRedisUp);
}

export const queueJobs = new Gauge({
  name: 'queue_jobs',
  help: 'Jobs in each queue by state (waiting, prioritized, active, delayed, failed), read from Redis at scrape time',
  labelNames: ['queue', 'state'] as const,
  registers: [],
  async collect() {
    this.reset();
    const names = queueNamesSource();
    const counts = await Promise.all(
      names.map((name) =>
        getQueue(name)
          .getJobCounts(...QUEUE_STATES)
          .catch(() => undefined),
      ),
    );
    names.forEach((name, i) => {
      const byState = counts[i];
      if (byState) for (const state of QUEUE_STATES) this.set({ queue: name, state }, byState[state] ?? 0);
    });
  },
});

/** 0 when Redis does not answer: the scrape still succeeds, without queue depth figures. */
export const queueRedisUp = new Gauge({
  name: 'queue_redis_up',
  help: '1 when Redis answered a PING at this scrape, 0 when it did not (queue_jobs is then absent)',
  registers: [],
  async collect() {
    this.set((await redisAnswers()) ? 1 : 0);
  },
});
