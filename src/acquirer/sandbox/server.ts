/**
 * The acquirer sandbox: a separate HTTP server that behaves like the card acquirer for
 * development and tests (deterministic test cards, injectable faults). Never run in production.
 * Its state lives in its own memory, never in our database.
 *
 * With SANDBOX_TLS_CERT/KEY it serves HTTPS, and with SANDBOX_TLS_REQUIRE_CLIENT_CERT it demands, as the
 * acquirer does, a client certificate signed by SANDBOX_TLS_CA on the chargeback API (token and calls): a connection
 * without one, or with one it does not accept, is closed unanswered, the way a TLS terminator refuses it. The card
 * API and the test controls need none, as at the acquirer (its card API has no mutual TLS).
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import express, { type Express, type RequestHandler } from 'express';
import type { Config } from '../../../config';
import { logger } from '../../platform/logger';
import type { SandboxArea } from './area';
import { salesSandboxArea } from './sales';
import { chargebackSandboxArea } from './chargebacks';
import { pixAutomaticoSandboxArea } from './pix-automatico';
import { authenticationSandboxArea } from './authentication';
import { cardsSandboxArea } from './cards';

// Pix Automático first: it takes the recurrences' POST /1/sales and passes every other sale on; Zero Auth after
// sales (the card API's `/1` middleware, request count and injected faults, runs before it); the authentication
// service (3-D Secure) under /mpi, a host of its own at the acquirer.
const sandboxAreas: SandboxArea[] = [
  pixAutomaticoSandboxArea,
  salesSandboxArea,
  chargebackSandboxArea,
  cardsSandboxArea,
  authenticationSandboxArea,
];

/** The paths of the acquirer's chargeback API (its OAuth2 token included), which demand mutual TLS. */
const MUTUAL_TLS_PATHS = /^\/(oauth\/|sandbox-cb\/chargeback\/)/;

/** Closes a chargeback API connection that presented no accepted client certificate, logging why. */
const demandClientCertificate: RequestHandler = (req, _res, next) => {
  const socket = req.socket as TLSSocket;
  if (!MUTUAL_TLS_PATHS.test(req.path) || socket.authorized) return next();
  const presented = socket.getPeerCertificate();
  const reason = presented?.subject ? String(socket.authorizationError) : 'no client certificate';
  logger.warn(
    { path: req.path, reason, subject: presented?.subject?.CN },
    `sandbox: chargeback API connection refused (${reason})`,
  );
  socket.destroy();
};

export function buildSandboxApp(options: { requireClientCertificate?: boolean } = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  if (options.requireClientCertificate) app.use(demandClientCertificate);
  app.use(express.json({ limit: '20mb' }));
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok', areas: sandboxAreas.map((a) => a.name) });
  });
  for (const area of sandboxAreas) app.use(area.router());
  app.use((_req, res) => {
    res.status(404).json([{ Code: 307, Message: 'Resource not found' }]);
  });
  return app;
}

/** Listens on SANDBOX_PORT (loopback only), over HTTPS when a certificate is configured; gives the server and URL. */
export async function listenSandbox(config: Pick<Config, 'sandbox'>): Promise<{ server: http.Server; url: string }> {
  const { port, tls } = config.sandbox;
  const app = buildSandboxApp({ requireClientCertificate: Boolean(tls.cert) && tls.requireClientCertificate });
  const server = tls.cert
    ? https.createServer(
        {
          cert: tls.cert,
          key: tls.key,
          ...(tls.ca ? { ca: tls.ca } : {}),
          // Asked, checked per path (the card API needs none): a refusal is the app's, not the handshake's.
          requestCert: Boolean(tls.ca),
          rejectUnauthorized: false,
        },
        app,
      )
    : http.createServer(app);
  server.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const scheme = tls.cert ? 'https' : 'http';
  return { server, url: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
