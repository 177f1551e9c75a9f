/**
 * bull-board queue dashboard at /admin/queues, staff-only (src/auth/basic-auth.ts says what it
 * accepts), and read-only but for what operators do to existing jobs (OPERATOR_ACTIONS).
 */
import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { forbidden } from '../platform/errors';
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

/**
 * The only changes the dashboard makes (PUT, under /api/queues/<queue>/): retry, clean (remove) and
 * promote, of one job or of every job of a status. A job is not content (issue 27): adding a job or
 * changing its data would let a dashboard login write what a worker then acts on, so bull-board's
 * add, update-data, delay, priority, pause, empty, obliterate, scheduler and history routes are
 * refused here, before bull-board sees them. bull-board's own readOnlyMode is no use: it refuses
 * retries too. docs/operations.md lists what operators can do.
 */
const OPERATOR_ACTIONS = [
  /^\/api\/queues\/[^/]+\/[^/]+\/(?:retry|clean|promote)$/, // one job
  /^\/api\/queues\/[^/]+\/(?:retry|clean)\/[^/]+$/, // every job of a status
  /^\/api\/queues\/[^/]+\/promote$/, // every delayed job
];

function refuseOtherChanges(req: Request, _res: Response, next: NextFunction): void {
  const reads = req.method === 'GET' || req.method === 'HEAD';
  if (reads || (req.method === 'PUT' && OPERATOR_ACTIONS.some((action) => action.test(req.path)))) return next();
  next(forbidden('The queue dashboard retries, cleans and promotes existing jobs; it makes no other change.'));
}

export function dashboardRouter(queueNames: string[]): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({ queues: queueNames.map((name) => new BullMQAdapter(getQueue(name))), serverAdapter });
  const app = serverAdapter.getRouter() as Express;
  dropThirdPartyStylesheets(app);
  const guarded = express.Router();
  guarded.use(refuseOtherChanges, app);
  return guarded;
}
