/** The probes' answers, each declared once (src/http/schema.ts): the Swagger definitions and their types. */
import { definition, field, required, type ValueOf } from '../http/schema';

export const liveness = definition('Liveness', field.object({ status: required(field.oneOf(['ok'])) }));

export type LivenessAnswer = ValueOf<typeof liveness>;

export const readiness = definition(
  'Readiness',
  field.object({
    status: required(field.oneOf(['ready', 'unavailable'])),
    mongodb: required(field.boolean()).description('MongoDB answered a ping'),
    redis: required(field.boolean()).description('Redis answered a ping'),
  }),
);

export type ReadinessAnswer = ValueOf<typeof readiness>;
