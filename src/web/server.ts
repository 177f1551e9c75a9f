/** The web process: connect to MongoDB and Redis, listen, and drain on SIGTERM. */
// First: traces, when on, must patch express, ioredis, mongodb and undici before they load.
import '../platform/tracing-preload';
import type { AddressInfo } from 'node:net';
import { getConfig } from '../../config';
import { buildApp } from './app';
import { connectDatabase, disconnectDatabase } from '../db/connection';
import { refuseToStartWithPendingMigrations } from '../db/migrations/pending';
import { closeQueues } from '../queue/queues';
import { waitForRedis } from '../platform/redis';
import { logger } from '../platform/logger';
import { runProcess } from '../platform/lifecycle';

export async function startWeb() {
  const config = getConfig();
  await connectDatabase(config.mongodbUri);
  await refuseToStartWithPendingMigrations('web');
  // Start without Redis if need be: /readyz says so and queue-backed routes answer 503 until it is back.
  await waitForRedis().catch((err) => logger.warn({ err: { message: err.message } }, 'Redis not ready at start'));
  const app = buildApp();
  const server = app.listen(config.port, config.host);
  // Node answers unparseable requests (e.g. headers over 16 KB) before Express sees them; keep those answers JSON too.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const [status, reason, detail] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'Request headers too large.']
        : [400, 'Bad Request', 'Malformed HTTP request.'];
    const body = JSON.stringify({ detail });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ` +
        `${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  // Tests and the Procfile runner read this line to learn the port when PORT=0. The URLs the service builds and
  // calls follow, since their defaults derive from the ports and an explicit value may differ.
  const urls = { publicBaseUrl: config.publicBaseUrl, acquirerUrl: config.acquirer.baseUrl };
  logger.info(
    { port, url: `http://${config.host}:${port}`, ...urls },
    `web listening on http://${config.host}:${port} (public URL ${urls.publicBaseUrl}, acquirer ${urls.acquirerUrl})`,
  );
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closeQueues();
    await disconnectDatabase();
  };
}

if (require.main === module) runProcess('web', startWeb);
