/** Liveness and readiness: /healthz says the process is alive, /readyz that MongoDB and Redis answer. */
import type { Feature } from '../http/routes';
import { databaseAnswers } from '../db/connection';
import { redisAnswers } from '../queue';

export const healthFeature: Feature = {
  name: 'health',
  tag: { name: 'health', description: 'Process liveness and readiness probes' },
  definitions: {
    Liveness: {
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'string', enum: ['ok'] } },
    },
    Readiness: {
      type: 'object',
      required: ['status', 'mongodb', 'redis'],
      properties: {
        status: { type: 'string', enum: ['ready', 'unavailable'] },
        mongodb: { type: 'boolean', description: 'MongoDB answered a ping' },
        redis: { type: 'boolean', description: 'Redis answered a ping' },
      },
    },
  },
  routes: [
    {
      method: 'get',
      path: '/healthz',
      handler: (_req, res) => {
        res.json({ status: 'ok' });
      },
      doc: {
        operationId: 'getLiveness',
        summary: 'Process is alive',
        tags: ['health'],
        responses: { 200: { description: 'Alive', schema: { $ref: '#/definitions/Liveness' } } },
      },
    },
    {
      method: 'get',
      path: '/readyz',
      handler: async (_req, res) => {
        const [mongodb, redis] = await Promise.all([databaseAnswers(), redisAnswers()]);
        const ready = mongodb && redis;
        res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', mongodb, redis });
      },
      doc: {
        operationId: 'getReadiness',
        summary: 'MongoDB and Redis answer',
        tags: ['health'],
        responses: {
          200: { description: 'Ready', schema: { $ref: '#/definitions/Readiness' } },
          503: {
            description: 'A backing service does not answer; body says which',
            schema: { $ref: '#/definitions/Readiness' },
          },
        },
      },
    },
  ],
};
