/** Swagger text of the metrics route. */
import type { SwaggerOperation } from '../http/routes';

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
      401: { description: 'No or wrong basic-auth credentials', schema: { $ref: '#/definitions/ErrorDetail' } },
      403: {
        description: 'A bearer credential that is not staff',
        schema: { $ref: '#/definitions/ErrorDetail' },
      },
      429: {
        description: 'Too many staff logins from this address; Retry-After says when to try again',
        schema: { $ref: '#/definitions/ErrorDetail' },
      },
      503: {
        description: 'The credential could not be checked (a backing service does not answer)',
        schema: { $ref: '#/definitions/ErrorDetail' },
      },
    },
  },
} satisfies Record<string, SwaggerOperation>;
