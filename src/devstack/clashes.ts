/**
 * What a second `npm start` beside a running stack would share with it without a word: the web and sandbox ports
 * (the sandbox would exit with EADDRINUSE and take the whole stack down), and the queue prefix (each stack's workers
 * would take the other's jobs, whose records are in the other's database). Found before anything starts, each named
 * with what to set.
 */
import net from 'node:net';
import type { Config } from '../../config';
import { queueNames } from '../../jobs';
import { closeQueues, getQueue } from '../queue/queues';

/** Whether a listener could not bind host:port now (port 0 picks a free one, so never). */
async function portTaken(host: string, port: number): Promise<boolean> {
  if (port === 0) return false;
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(true));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

async function liveWorkersOnPrefix(): Promise<number> {
  try {
    const counts = await Promise.all(queueNames().map((name) => getQueue(name).getWorkersCount()));
    return counts.reduce((sum, count) => sum + count, 0);
  } finally {
    await closeQueues();
  }
}

/** What to set to run this stack beside the one in the way. */
function remedy(config: Pick<Config, 'instance'>): string {
  return config.instance
    ? `another stack already runs as INSTANCE=${config.instance}: choose another name, ` +
        `e.g. INSTANCE=${config.instance}-2`
    : 'to run a second stack beside it, name this one, e.g. `INSTANCE=two npm start` (its own database, queue ' +
        'prefix and ports; see the README, "A second stack beside the first")';
}

/** Every clash with a running stack, each a sentence naming the variable in the way; empty when none. */
export async function clashesWithRunningStack(
  config: Pick<Config, 'instance' | 'host' | 'port' | 'sandbox' | 'queuePrefix'>,
): Promise<string[]> {
  const clashes: string[] = [];
  const ports = [
    { name: 'PORT', host: config.host, port: config.port },
    { name: 'SANDBOX_PORT', host: '127.0.0.1', port: config.sandbox.port },
  ];
  for (const { name, host, port } of ports)
    if (await portTaken(host, port))
      clashes.push(`port ${port} (${name}) is in use on ${host}, perhaps by another stack`);
  const workers = await liveWorkersOnPrefix();
  if (workers)
    clashes.push(
      `${workers} workers of another stack are live on queue prefix '${config.queuePrefix}' (QUEUE_PREFIX): they ` +
        "would take this stack's jobs, and its database (MONGODB_URI) is likely this one's too",
    );
  return clashes.length ? [...clashes, remedy(config)] : [];
}
