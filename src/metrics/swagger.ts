/** Swagger text of the metrics route. */
import { errorResponses, type SwaggerOperation } from '../http/routes';

export const tag = { name: 'metrics', description: 'What operators watch (Prometheus)' };

export const docs = {
  getMetrics: {
    operationId: 'getMetrics',
    summary: 'Prometheus metrics of this process',
    description:
      'HTTP basic auth with DASHBOARD_USER / DASHBOARD_PASSWORD (as /admin/queues). Request counts and ' +
      'durations by route template ' +
      ('and status, queue depth per queue and state (read from Redis), acquirer call latency and errors, ' +
        'process figures. ') +
      'Worker processes serve their job figures on their own METRICS_PORT.',
    tags: ['metrics'],
    produces: ['text/plain'],
    responses: {
      200: { description: 'Prometheus text exposition format 0.0.4' },
      401: errorResponses.detail('No or wrong basic-auth credentials'),
      403: errorResponses.detail('A bearer credential that is not staff'),
      429: errorResponses.detail('Too many staff logins from this address; Retry-After says when to try again'),
      503: errorResponses.detail('The credential could not be checked (a backing service does not answer)'),
    },
  },
} satisfies Record<string, SwaggerOperation>;
