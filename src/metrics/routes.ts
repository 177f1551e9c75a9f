/** GET /metrics in Prometheus text format, behind the same basic auth as the queue dashboard. */
import type { RequestHandler } from 'express';
import { routeTable, type Feature } from '../http/routes';
import { basicAuth } from '../auth/basic-auth';
import { registry } from '../platform/metrics-registry';
import { recordAcquirerCalls } from './acquirer';
import { docs, tag } from './swagger';

recordAcquirerCalls();

export const serveMetrics: RequestHandler = async (_req, res) => {
  const body = await registry.metrics();
  res.set('Content-Type', registry.contentType).send(body);
};

const route = routeTable(docs, { getMetrics: serveMetrics });

export const metricsFeature: Feature = {
  name: 'metrics',
  tag,
  // The credential before the body: a refused request costs no reading (issue 27).
  routes: [route('get', '/metrics', 'getMetrics', { beforeBody: [basicAuth('metrics')] })],
};
