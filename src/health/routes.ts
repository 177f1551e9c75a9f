/** Liveness and readiness: /healthz says the process is alive, /readyz that MongoDB and Redis answer. */
import type { RequestHandler } from 'express';
import { routeTable, type Feature } from '../http/routes';
import { databaseAnswers } from '../db/connection';
import { redisAnswers } from '../platform/redis';
import type { LivenessAnswer, ReadinessAnswer } from './schemas';
import { definitions, docs, tag } from './swagger';

const handlers = {
  getLiveness: (_req, res) => {
    res.json({ status: 'ok' } satisfies LivenessAnswer);
  },
  getReadiness: async (_req, res) => {
    const [mongodb, redis] = await Promise.all([databaseAnswers(), redisAnswers()]);
    const ready = mongodb && redis;
    const answer: ReadinessAnswer = { status: ready ? 'ready' : 'unavailable', mongodb, redis };
    res.status(ready ? 200 : 503).json(answer);
  },
} satisfies Record<string, RequestHandler>;

const route = routeTable(docs, handlers);

export const healthFeature: Feature = {
  name: 'health',
  tag,
  definitions,
  routes: [route('get', '/healthz', 'getLiveness'), route('get', '/readyz', 'getReadiness')],
};
