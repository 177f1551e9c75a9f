/** Runs the real Express app in the test process on a free port, against the real services. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import test from 'ava';
import { buildApp, type AppOptions } from '../../src/web/app';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { closeQueues } from '../../src/queue/queues';
import { waitForRedis } from '../../src/platform/redis';
import { newMerchant, type TestMerchant } from './identity';

export interface TestApp {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startTestApp(options: AppOptions = {}): Promise<TestApp> {
  await connectDatabase(process.env.MONGODB_URI!);
  await waitForRedis();
  const server = buildApp(options).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeQueues();
      await disconnectDatabase();
    },
  };
}

export interface AppWithMerchant {
  app: TestApp;
  merchant: TestMerchant;
}

/**
 * The hooks of a file whose tests call the in-process app as one merchant: the app starts and the merchant is
 * created before the file's tests, the app closes after them. The fields are set once those hooks ran.
 */
export function useAppWithMerchant(): AppWithMerchant {
  const running = {} as AppWithMerchant;
  test.before(async () => {
    running.app = await startTestApp();
    running.merchant = await newMerchant();
  });
  test.after.always(() => running.app?.close());
  return running;
}

export async function json(response: Response): Promise<any> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON (${response.status}): ${text.slice(0, 300)}`);
  }
}
