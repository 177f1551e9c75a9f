import { send } from '../helpers/http';
/** Every operation of our served Swagger document, with what a hostile test needs to call it. */
export interface Operation {
  method: string;
  /** Swagger path, e.g. /api/v1/online/sales/{id}/capture/ */
  path: string;
  pathParams: string[];
  queryParams: string[];
  headerParams: string[];
  /** Top-level property names of the JSON body schema ($ref resolved), when the operation takes one. */
  bodyFields: string[];
  takesBody: boolean;
  secured: boolean;
  /** false when a success is not JSON (an HTML page, a script, a file, Prometheus text). */
  answersJson: boolean;
}

type Json = Record<string, any>;

export async function operationsOf(baseUrl: string): Promise<Operation[]> {
  const doc = (await (await send({ url: baseUrl }, 'GET', '/api/docs/swagger.json')).json()) as Json;
  const resolve = (schema: Json | undefined): Json | undefined =>
    schema?.$ref ? resolve(doc.definitions[String(schema.$ref).replace('#/definitions/', '')]) : schema;
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(methods)) {
      const params: Json[] = op.parameters ?? [];
      const body = params.find((p) => p.in === 'body');
      const produces: string[] | undefined = op.produces;
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        headerParams: params.filter((p) => p.in === 'header').map((p) => p.name),
        bodyFields: Object.keys(resolve(body?.schema)?.properties ?? {}),
        takesBody: Boolean(body) || ['POST', 'PUT', 'PATCH'].includes(method.toUpperCase()),
        secured: Boolean(op.security),
        answersJson: !produces || produces.includes('application/json'),
      });
    }
  }
  return operations;
}

/** Fills a Swagger path's {params} with the given (already encoded) values. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => values[name] ?? '1');
}

/** A body that shows internals: a stack frame, a source file, a module path. */
export const LEAKS_INTERNALS =
  /\bat [^\n]+\([^)]*:\d+:\d+\)|node_modules|\.ts:\d+|\/work\/|Mongo[A-Z]\w*Error|ValidationError:|CastError/;
