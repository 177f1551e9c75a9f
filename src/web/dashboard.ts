/** bull-board queue dashboard at /admin/queues, staff-only (src/auth/basic-auth.ts says what it accepts). */
import type { Express, Router } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { getQueue } from '../queue/queues';

export const DASHBOARD_PATH = '/admin/queues';

/**
 * bull-board's page links a Google Fonts stylesheet, which our Content-Security-Policy (style-src
 * 'self') blocks with a console error on every load. Everything else it loads is ours, so the link
 * is dropped from the rendered page: its CSS names system fallbacks after IBM Plex, and an
 * operator's browser never calls a third party from the dashboard.
 */
const THIRD_PARTY_STYLESHEET = /<link\b(?=[^>]*\brel="stylesheet")(?=[^>]*\bhref="(?:https?:)?\/\/)[^>]*>\s*/g;

type RenderFile = (file: string, options: object, callback: (error: Error | null, html?: string) => void) => void;

function dropThirdPartyStylesheets(app: Express): void {
  const engines = (app as unknown as { engines: Record<string, RenderFile> }).engines;
  const render = engines['.ejs'];
  app.engine('ejs', (file, options, callback) =>
    render(file, options, (error, html) => callback(error, html?.replace(THIRD_PARTY_STYLESHEET, ''))),
  );
}

export function dashboardRouter(queueNames: string[]): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({ queues: queueNames.map((name) => new BullMQAdapter(getQueue(name))), serverAdapter });
  const app = serverAdapter.getRouter() as Express;
  dropThirdPartyStylesheets(app);
  return app as unknown as Router;
}
