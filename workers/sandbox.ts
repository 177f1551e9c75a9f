/** Procfile `sandbox`: the dev-only acquirer simulator. Refuses to run with NODE_ENV=production. */
import type { AddressInfo } from 'node:net';
import { getConfig } from '../config';
import { buildSandboxApp } from '../src/acquirer/sandbox/server';
import { logger } from '../src/platform/logger';
import { runProcess } from '../src/platform/lifecycle';

export async function startSandbox() {
  const config = getConfig();
  if (config.nodeEnv === 'production') throw new Error('the acquirer sandbox never runs in production');
  const server = buildSandboxApp().listen(config.sandbox.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const { notifyUrl } = config.sandbox;
  logger.info(
    { port, url: `http://127.0.0.1:${port}`, notifyUrl },
    `acquirer sandbox listening on http://127.0.0.1:${port} (notices to ${notifyUrl})`,
  );
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

if (require.main === module) runProcess('sandbox', startSandbox);
