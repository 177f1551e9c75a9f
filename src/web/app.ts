/** Builds the Express app from the feature route table. No listen, no connections opened here. */
import diagnosticsChannel from 'node:diagnostics_channel';
import express, { type Express, type RequestHandler } from 'express';
import swaggerUi from 'swagger-ui-express';
import { refuseNulInBody, refuseNulInUrl } from '../http/nul-characters';
import { JSON_BODY_TYPES, refuseNonJsonBody } from '../http/malformed-bodies';
import { getConfig } from '../../config';
import { logger as defaultLogger, type Logger } from '../platform/logger';
import { errorHandler, notFoundHandler } from './errors';
import { requireCredential } from '../auth/authenticate';
import { DEFAULT_BODY_LIMIT_BYTES, type Feature, type RouteSpec } from '../http/routes';
import { DASHBOARD_PATH, dashboardRouter } from './dashboard';
import { basicAuth } from '../auth/basic-auth';
import { features as allFeatures } from './areas';
import { queueNames } from '../../jobs';
import { httpMetricsMiddleware } from '../metrics/http';
import { reportQueues } from '../metrics/queues';
import { reportAttention } from '../metrics/attention';
import { requestLog } from './request-log';
import { securityHeaders } from './security-headers';

/**
 * The name of the channel each request to a route is published on, as `{ route, req, res }`, before
 * anything else of the route runs: npm test records every answer from there
 * (test/instrumentation/answers.ts). Routes of an app built with no subscriber publish nothing.
 */
export const ROUTE_REQUEST_CHANNEL = 'payments:http:route-request';
const routeRequest = diagnosticsChannel.channel(ROUTE_REQUEST_CHANNEL);

export interface AppOptions {
  features?: Feature[];
  logger?: Logger;
}

/** "12mb" / "64kb" (BODY_LIMIT's pattern) in bytes. */
function byteCount(limit: string): number {
  const match = /^(\d+)(kb|mb)$/i.exec(limit);
  if (!match) throw new Error(`not a size: ${limit}`);
  return Number(match[1]) * (match[2].toLowerCase() === 'mb' ? 1024 * 1024 : 1024);
}

/** JSON bodies up to `limit` bytes once decompressed; the exact bytes are kept for signed notifications. */
function jsonBody(limit: number): RequestHandler {
  return express.json({
    limit,
    type: JSON_BODY_TYPES,
    // Signed notifications (acquirer HMAC) are verified over the exact bytes received.
    verify: (req, _res, buf) => {
      (req as typeof req & { rawBody?: Buffer }).rawBody = buf;
    },
  });
}

/**
 * Express 5 leaves req.body undefined when no JSON came (no body, another content type), and Joi
 * lets undefined through an object schema that is not .required(): an empty object instead gets
 * every route its field errors (400) rather than a handler reading a property of undefined (500).
 */
const emptyBodyAsObject: RequestHandler = (req, _res, next) => {
  if (req.body === undefined) req.body = {};
  next();
};

export function buildApp(options: AppOptions = {}): Express {
  const config = getConfig();
  const logger = options.logger ?? defaultLogger;
  const features = options.features ?? allFeatures;
  const app = express();

  app.disable('x-powered-by');
  // A number is a hop count (Express would read the string '1' as an address and trust nobody).
  const trustProxy = config.trustProxy;
  app.set(
    'trust proxy',
    trustProxy === 'false'
      ? false
      : trustProxy === 'true'
        ? true
        : /^\d+$/.test(trustProxy)
          ? Number(trustProxy)
          : trustProxy,
  );
  // First, so every answer is counted, 404s and body-parser errors included.
  app.use(httpMetricsMiddleware());
  reportQueues(queueNames);
  reportAttention();
  // The request id and one log line per request (method, path, status, time; never headers or bodies).
  app.use(requestLog(logger));
  // helmet's headers (Content-Security-Policy: everything we serve loads from our own origin).
  app.use(securityHeaders());
  app.use(refuseNulInUrl);
  // The body is read per route, after its credential and header checks: a request that will be
  // refused costs no inflating or parsing, and each route reads at most what its work needs.
  const maxBodyBytes = byteCount(config.bodyLimit);
  const bodyReaders = new Map<number, RequestHandler>();
  const bodyReader = (route: RouteSpec): RequestHandler => {
    const limit = Math.min(
      route.bodyLimit === 'max' ? maxBodyBytes : (route.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES),
      maxBodyBytes,
    );
    let reader = bodyReaders.get(limit);
    if (!reader) bodyReaders.set(limit, (reader = jsonBody(limit)));
    return reader;
  };

  const publishRequests = routeRequest.hasSubscribers;
  for (const feature of features) {
    for (const route of feature.routes) {
      const publish: RequestHandler = (req, res, next) => {
        routeRequest.publish({ route, req, res });
        next();
      };
      const chain = [
        ...(publishRequests ? [publish] : []),
        ...(route.auth ? [requireCredential(route.auth)] : []),
        ...(route.beforeBody ?? []),
        refuseNonJsonBody,
        bodyReader(route),
        emptyBodyAsObject,
        ...(route.nulInBody === 'handled' ? [] : [refuseNulInBody]),
        ...(route.before ?? []),
        route.handler,
      ];
      app[route.method](route.path, ...chain);
    }
  }

  app.use(
    '/api/docs',
    swaggerUi.serve,
    swaggerUi.setup(undefined, { swaggerOptions: { url: '/api/docs/swagger.json' } }),
  );
  app.use(DASHBOARD_PATH, basicAuth('queues'), dashboardRouter(queueNames()));

  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
