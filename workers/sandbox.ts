/** Procfile `sandbox`: the dev-only acquirer simulator. Refuses to run with NODE_ENV=production (exit 78). */
// First: traces, when on, must patch express, ioredis, mongodb and undici before they load.
import '../src/platform/tracing-preload';
import { badConfiguration, exitRefusingToStart, getConfig } from '../config';
import { listenSandbox } from '../src/acquirer/sandbox/server';
import { logger } from '../src/platform/logger';
import { runProcess } from '../src/platform/lifecycle';

export async function startSandbox() {
  const config = getConfig();
  const { server, url } = await listenSandbox(config);
  const { notifyUrl, tls } = config.sandbox;
  logger.info(
    { url, notifyUrl, clientCertificates: tls.requireClientCertificate },
    `acquirer sandbox listening on ${url} (notices to ${notifyUrl})`,
  );
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

if (require.main === module) {
  // Before anything else: the simulator accepts any card and must never stand in for the acquirer in production.
  if (process.env.NODE_ENV === 'production')
    exitRefusingToStart(badConfiguration(['NODE_ENV=production: the acquirer sandbox never runs in production']));
  runProcess('sandbox', startSandbox);
}
