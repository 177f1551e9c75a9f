/**
 * The hooks of a test file that talks to the database and Redis itself and starts our processes:
 * connect before its tests; after them stop every process, close the queues, disconnect. The file
 * adds its own steps where they belong.
 */
import test from 'ava';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { closeQueues } from '../../src/queue/queues';
import { waitForRedis } from '../../src/platform/redis';
import { stopAll } from './processes';

export interface ServiceHooks {
  /** Before connecting: start an owned service, set the environment this file's processes inherit. */
  setUp?: () => Promise<void>;
  /** Once connected: start processes, create data. */
  ready?: () => Promise<void>;
  /** After every process stopped, while still connected: obliterate queues, close receivers. */
  cleanUp?: () => Promise<void>;
  /** Last, once disconnected: destroy owned services. */
  tearDown?: () => Promise<void>;
}

export function useServices(hooks: ServiceHooks = {}): void {
  test.before(async () => {
    await hooks.setUp?.();
    await connectDatabase(process.env.MONGODB_URI!);
    await waitForRedis();
    await hooks.ready?.();
  });
  test.after.always(async () => {
    await stopAll();
    await hooks.cleanUp?.();
    await closeQueues();
    await disconnectDatabase();
    await hooks.tearDown?.();
  });
}
