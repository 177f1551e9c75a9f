/** Swagger text of the health probes. */
import type { SwaggerOperation } from '../http/routes';

export const tag = { name: 'health', description: 'Process liveness and readiness probes' };

export const definitions = {
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
};

export const docs = {
  getLiveness: {
    operationId: 'getLiveness',
    summary: 'Process is alive',
    tags: ['health'],
    responses: { 200: { description: 'Alive', schema: { $ref: '#/definitions/Liveness' } } },
  },
  getReadiness: {
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
} satisfies Record<string, SwaggerOperation>;
