/**
 * Routes are kept as a table (as bull-board does): each feature exports RouteSpec[] with its path,
 * credential policy, validation and Swagger operation. app.ts registers the table and docs.ts
 * describes the same table, so the API description cannot drift from what Express serves.
 */
import type { RequestHandler } from 'express';
import type { CredentialPolicy } from './credential-policy';
import { errorDetail, fieldErrors } from './error-bodies';
import { swaggerRef } from './schema';

/** What a JSON API body needs here (card data, a payment link, a notice): kilobytes. */
export const DEFAULT_BODY_LIMIT_BYTES = 100 * 1024;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface SwaggerOperation {
  summary: string;
  description?: string;
  tags?: string[];
  /** Unique and stable: clients generated from the document name their methods after it. */
  operationId: string;
  consumes?: string[];
  produces?: string[];
  parameters?: Record<string, unknown>[];
  responses: Record<string, Record<string, unknown>>;
}

export interface RouteSpec {
  method: HttpMethod;
  /** Express path, e.g. /api/v1/online/sales/:id/capture/ */
  path: string;
  /** Who may call it; undefined means public. Checked before the body is read. */
  auth?: CredentialPolicy;
  /** Checks that need no body (a shared-secret header), run after `auth` and before the body is read. */
  beforeBody?: RequestHandler[];
  /**
   * Largest JSON body this route reads, in bytes after decompression (413 beyond it). Default
   * DEFAULT_BODY_LIMIT_BYTES; 'max' for the few that carry documents (BODY_LIMIT, the ceiling of all).
   */
  bodyLimit?: number | 'max';
  /**
   * A NUL character (U+0000) in the body is a 400 naming the field (src/http/nul-characters.ts),
   * unless the route answers it its own way: 'handled' (the token routes, where any failure is 401).
   */
  nulInBody?: 'handled';
  /** Middleware run before the handler, once the body is read (celebrate validation, rate limits). */
  before?: RequestHandler[];
  handler: RequestHandler;
  doc: SwaggerOperation;
}

export interface Feature {
  name: string;
  routes: RouteSpec[];
  /** Swagger definitions (schemas) this feature's docs refer to with #/definitions/Name. */
  definitions?: Record<string, unknown>;
  tag?: { name: string; description: string };
}

/** Express `:param` path to Swagger `{param}` path. */
export function swaggerPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** Reusable Swagger response objects for the error bodies every route shares. */
export const errorResponses = {
  fieldErrors: {
    description: 'Invalid input: a map of field name to a list of messages',
    schema: swaggerRef(fieldErrors),
  },
  detail: (description: string) => ({ description, schema: swaggerRef(errorDetail) }),
  /** The 401 of every route that takes a bearer credential (src/auth/authenticate.ts). */
  credentialRefused: {
    description:
      'No, invalid or expired credential. WWW-Authenticate says which (RFC 6750): Bearer when none came; ' +
      'Bearer error="invalid_token" for one refused; with error_description="The access token expired" for an ' +
      'expired access token, whose detail says so too',
    headers: { 'WWW-Authenticate': { type: 'string', description: 'The bearer challenge of RFC 6750' } },
    schema: swaggerRef(errorDetail),
  },
  /** The 422 of every route that takes an Idempotency-Key: the same key came with another body. */
  idempotencyKeyReused: {
    description: 'This Idempotency-Key was used with a different body',
    schema: swaggerRef(errorDetail),
  },
};

/** The Idempotency-Key header of an idempotent create; `description` says what a replay spares. */
export const idempotencyKeyHeader = (description: string) => ({
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  type: 'string',
  maxLength: 255,
  description,
});

/** The JSON body parameter of an operation, described by definition `definition`. */
export const bodyParameter = (definition: string) => ({
  name: 'body',
  in: 'body',
  required: true,
  schema: { $ref: `#/definitions/${definition}` },
});

/** The answers of an idempotent create besides its success: bad fields, the key still in use (`inUse`), reused. */
export const idempotentCreateErrors = (inUse: string) => ({
  400: errorResponses.fieldErrors,
  409: errorResponses.detail(inUse),
  422: errorResponses.idempotencyKeyReused,
});

/** What a route table row gives besides its method, path and operation. */
export type RouteOptions = Pick<RouteSpec, 'auth' | 'beforeBody' | 'bodyLimit' | 'nulInBody' | 'before'>;

/**
 * A feature's route table reads one row per route: method, path, the operationId that names both its
 * Swagger operation (the area's swagger.ts) and its handler, then credential and checks. The
 * operation is read when the document is built (a getter in swagger.ts may state configured values).
 */
export function routeTable<Id extends string>(
  docs: Record<Id, SwaggerOperation>,
  handlers: Record<Id, RequestHandler>,
): (method: HttpMethod, path: string, id: Id, options?: RouteOptions) => RouteSpec {
  return (method, path, id, options = {}) => ({
    method,
    path,
    ...options,
    handler: handlers[id],
    get doc() {
      const doc = docs[id];
      if (doc.operationId !== id) throw new Error(`the operation of ${id} is named ${doc.operationId}`);
      return doc;
    },
  });
}
