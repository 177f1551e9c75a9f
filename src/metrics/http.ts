/** Counts and times every HTTP answer by route template, so ids in paths never become label values. */
import type { Request, RequestHandler } from 'express';
import { httpRequestDuration, httpRequests } from '../platform/metrics-registry';

/**
 * The route template Express matched (`/api/v1/online/sales/:id/`), the mount point of a
 * sub-app that answered without a route (`/api/docs/*`), or `unmatched` (404s for any path).
 */
export function routeLabel(req: Request): string {
  if (req.route?.path) return `${req.baseUrl ?? ''}${String(req.route.path)}`;
  if (req.baseUrl) return `${req.baseUrl}/*`;
  return 'unmatched';
}

export function httpMetricsMiddleware(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const labels = { method: req.method, route: routeLabel(req), status: String(res.statusCode) };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
