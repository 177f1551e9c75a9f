/** Swagger text of the health probes; the answers' definitions come from schemas.ts. */
import type { SwaggerOperation } from '../http/routes';
import { swaggerDefinitions, swaggerRef } from '../http/schema';
import { liveness, readiness } from './schemas';

export const tag = { name: 'health', description: 'Process liveness and readiness probes' };

export const definitions = swaggerDefinitions(liveness, readiness);

export const docs = {
  getLiveness: {
    operationId: 'getLiveness',
    summary: 'Process is alive',
    tags: ['health'],
    responses: { 200: { description: 'Alive', schema: swaggerRef(liveness) } },
  },
  getReadiness: {
    operationId: 'getReadiness',
    summary: 'MongoDB and Redis answer',
    tags: ['health'],
    responses: {
      200: { description: 'Ready', schema: swaggerRef(readiness) },
      503: {
        description: 'A backing service does not answer; body says which',
        schema: swaggerRef(readiness),
      },
    },
  },
} satisfies Record<string, SwaggerOperation>;
