/** The web process: connect to MongoDB and Redis, listen, and drain on SIGTERM. */
import type { AddressInfo } from 'node:net';
import { getConfig } from '../config';
import { buildApp } from './app';
import { connectDatabase, disconnectDatabase } from './db/connection';
import { closeQueues, waitForRedis } from './queue';
import { logger } from './logger';
import { runProcess } from './lifecycle';

export async function startWeb() {
  const config = getConfig();
  await connectDatabase(config.mongodbUri);
  // Start without Redis if need be: /readyz says so and queue-backed routes answer 503 until it is back.
  await waitForRedis().catch((err) => logger.warn({ err: { message: err.message } }, 'Redis not ready at start'));
  const app = buildApp();
  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  // Tests and the Procfile runner read this line to learn the port when PORT=0.
  logger.info({ port, url: `http://${config.host}:${port}` }, `web listening on http://${config.host}:${port}`);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closeQueues();
    await disconnectDatabase();
  };
}

if (require.main === module) runProcess('web', startWeb);
