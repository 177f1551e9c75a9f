/**
 * The acquirer sandbox: a separate HTTP server that behaves like the card acquirer for
 * development and tests (deterministic test cards, injectable faults). Never run in production.
 * Its state lives in its own memory, never in our database.
 */
import express, { type Express } from 'express';
import type { SandboxArea } from './area';
import { salesSandboxArea } from './sales';
import { chargebackSandboxArea } from './chargebacks';

const sandboxAreas: SandboxArea[] = [salesSandboxArea, chargebackSandboxArea];

export function buildSandboxApp(): Express {
  const app = express();
  app.disable('x-powered-by');
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
