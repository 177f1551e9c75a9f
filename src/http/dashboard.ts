/** bull-board queue dashboard at /admin/queues, behind HTTP basic auth from config. */
import type { RequestHandler, Router } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { getConfig } from '../../config';
import { safeEqual } from '../auth/crypto';
import { getQueue } from '../queue';

export const DASHBOARD_PATH = '/admin/queues';

export function basicAuth(realm: string): RequestHandler {
  return (req, res, next) => {
    const { user, password } = getConfig().dashboard;
    const header = req.headers.authorization ?? '';
    const match = /^Basic (.+)$/i.exec(header);
    if (match) {
      const decoded = Buffer.from(match[1], 'base64').toString('utf8');
      const sep = decoded.indexOf(':');
      if (sep > 0 && safeEqual(decoded.slice(0, sep), user) && safeEqual(decoded.slice(sep + 1), password)) return next();
    }
    res.set('WWW-Authenticate', `Basic realm="${realm}"`).status(401).json({ detail: 'Authentication required.' });
  };
}

export function dashboardRouter(queueNames: string[]): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({ queues: queueNames.map((name) => new BullMQAdapter(getQueue(name))), serverAdapter });
  return serverAdapter.getRouter() as Router;
}
