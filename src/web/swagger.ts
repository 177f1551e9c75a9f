/** Swagger 2.0 description built from the same route table Express serves. */
import type { Feature, RouteSpec } from '../http/routes';
import { errorDetail, fieldErrors } from '../http/error-bodies';
import { errorResponses, swaggerPath } from '../http/routes';
import { swaggerDefinitions, swaggerRef } from '../http/schema';
import { describeSecurity } from '../http/credential-policy';

const { detail } = errorResponses;
const responses400 = {
  description:
    'The request could not be read: malformed JSON or a NUL character in the path or query string ' +
    '({"detail": "..."}), or a NUL character in a body field (that field named)',
  schema: swaggerRef(fieldErrors),
};

/**
 * What the app answers before or around any route's own work (src/web/errors.ts), added where the
 * route does not describe the status itself: a request that cannot be read, a body over the route's
 * limit or in an encoding we do not read, a backing service that is down. A 500 is left out on
 * purpose: the suite's response check then fails on any.
 */
function answeredByEveryRoute(route: RouteSpec): Record<string, unknown> {
  const own = route.doc.responses;
  const shared: Record<string, unknown> = {
    400: responses400,
    503: detail('A backing service (MongoDB, Redis) does not answer; Retry-After says when to try again'),
  };
  if (route.method !== 'get') {
    shared[413] = detail("The body is over this operation's limit");
    shared[415] = detail(
      'The body is not JSON (a Content-Type other than application/json), or in a charset or a content ' +
        'encoding that is not read',
    );
  }
  return Object.fromEntries(Object.entries(shared).filter(([status]) => !own[status]));
}

export function buildSwagger(features: Feature[], publicBaseUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const definitions: Record<string, unknown> = swaggerDefinitions(errorDetail, fieldErrors);
  for (const feature of features) {
    Object.assign(definitions, feature.definitions ?? {});
    for (const route of feature.routes) {
      const path = swaggerPath(route.path);
      const pathParams = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
      const declared = new Set((route.doc.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name));
      const parameters = [
        ...(route.doc.parameters ?? []),
        ...pathParams
          .filter((name) => !declared.has(name))
          .map((name) => ({ name, in: 'path', required: true, type: 'string' })),
      ];
      const responses = { ...route.doc.responses, ...answeredByEveryRoute(route) };
      if (route.auth) {
        responses[401] ??= errorResponses.credentialRefused;
        responses[403] ??= detail('Credential of a kind this operation does not accept');
      }
      (paths[path] ??= {})[route.method] = {
        ...route.doc,
        tags: route.doc.tags ?? [feature.name],
        description: [route.doc.description, describeSecurity(route.auth)].filter(Boolean).join('\n\n'),
        parameters,
        responses,
        ...(route.auth ? { security: [{ BearerAuth: [] }] } : {}),
      };
    }
  }
  const url = new URL(publicBaseUrl);
  return {
    swagger: '2.0',
    info: {
      title: 'Online Sales, Payment Link, Subscription Charge and Chargeback API',
      version: '1.0',
      description:
        'Payments platform for Brazilian merchants. Money is integer cents unless a field says otherwise. ' +
        ('Errors are JSON objects: validation failures are a field map {"field": ["message"]}, other errors ' +
          '{"detail": "..."}.'),
    },
    host: url.host,
    basePath: '/',
    schemes: [url.protocol.replace(':', '')],
    consumes: ['application/json'],
    produces: ['application/json'],
    securityDefinitions: {
      BearerAuth: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description:
          'Authorization: Bearer <credential>. The credential is a JWT access token from POST /api/token/, an ' +
          'individual merchant token (mt_...), or the system token.',
      },
    },
    tags: features.filter((f) => f.tag).map((f) => f.tag),
    paths,
    definitions,
  };
}
