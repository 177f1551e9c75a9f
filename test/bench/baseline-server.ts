/**
 * The in-run baseline: a bare Express app (json body parser, no helmet, no logging, no auth) with
 * each case's floor route under /baseline/<case>/, on the same database as the web process.
 * Run as its own process so it gets a CPU share like the web process does. GET /metrics serves
 * its registry (no auth: a bench-only process), so the bench counts the baselines' database
 * commands per operation the same way as the web process's.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { registry } from '../../src/platform/metrics-registry';
import { benchCases } from './cases';

async function main() {
  await connectDatabase(process.env.MONGODB_URI!);
  const app = express();
  app.use(express.json());
  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  for (const benchCase of benchCases) {
    const router = express.Router();
    benchCase.mountBaseline?.(router);
    app.use(`/baseline/${benchCase.name}`, router);
  }
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  process.stdout.write(`baseline listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  const stop = () => {
    server.closeAllConnections();
    server.close(() => void disconnectDatabase().then(() => process.exit(0)));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  process.stderr.write(`baseline failed: ${err}\n`);
  process.exit(1);
});
