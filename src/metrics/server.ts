/**
 * The worker process's own /metrics listener (job durations, failures, acquirer calls made from
 * jobs), started only when METRICS_PORT is set. Same basic auth as the web process's /metrics.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { basicAuth } from '../auth/basic-auth';
import { logger } from '../platform/logger';
import { serveMetrics } from './routes';

export async function startMetricsListener(
  port: number,
  host: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', basicAuth('metrics'), serveMetrics);
  app.use((_req, res) => {
    res.status(404).json({ detail: 'Not found.' });
  });
  const server = app.listen(port, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port: bound } = server.address() as AddressInfo;
  const url = `http://${host}:${bound}`;
  // Tests read this line to learn the port when METRICS_PORT=0.
  logger.info({ url }, `metrics listening on ${url}/metrics`);
  return {
    url,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
