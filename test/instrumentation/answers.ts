/**
 * npm test checks every answer the service gives against the Swagger document it serves: with
 * RESPONSE_SCHEMAS_DIR set (test/suite.ts sets it for the whole run, child processes inherit it) and
 * this recorder subscribed (test/instrumentation/preload.cjs), each route's answers are validated
 * against that route's documented response for their status, and one line per distinct verdict is
 * appended to <dir>/<pid>.jsonl. test/response-schemas/check.ts reads them after the suite. A record
 * names the operation, status, content type and either "valid" or the schema errors with the JSON
 * path of the offending value: never the body itself, which may hold tokens.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import { features } from '../../src/web/areas';
import { buildSwagger } from '../../src/web/swagger';
import { swaggerPath, type RouteSpec } from '../../src/http/routes';

type Schema = Record<string, unknown>;
type Document = {
  produces?: string[];
  definitions?: Record<string, Schema>;
  paths: Record<string, Record<string, Operation>>;
};
interface Operation {
  operationId?: string;
  produces?: string[];
  responses: Record<string, { description?: string; schema?: Schema }>;
}

export interface SchemaError {
  /** JSON pointer into the answer's body ('' for the answer as a whole). */
  path: string;
  message: string;
}

export interface AnswerRecord {
  operationId: string;
  method: string;
  path: string;
  status: number;
  contentType: string;
  verdict: 'valid' | SchemaError[];
}

/** The answer as it left: what the checks read. */
export interface Answer {
  status: number;
  /** Media type without parameters, '' when the answer had no Content-Type. */
  contentType: string;
  /** The body as sent when it was text or bytes, undefined when nothing was sent. */
  body: string | undefined;
  /** A HEAD request: no body goes out, whatever the GET would send. */
  head?: boolean;
}

const DEFINITIONS_ID = 'swagger-definitions';
/** Stands for a body that was sent but is not parsed: too large to keep, or compressed. */
const NOT_KEPT = '\u0000not kept';
/** One validator per document, so each of its schemas compiles once. */
const validators = new WeakMap<Document, SchemaValidator>();

/**
 * Swagger 2.0 schema to JSON Schema (draft-07, what ajv reads by default): `x-nullable` becomes
 * "or null", `type: file` (a download) checks nothing, refs point at the shared definitions, and the
 * Swagger-only annotations are dropped. `readOnly` stays (draft-07 knows it): a read-only property
 * is sent in answers, so it is checked like any other, `required` included.
 */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const source = schema as Schema;
  if (source.type === 'file') return {};
  const out: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith('x-') || key === 'example' || key === 'discriminator') continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/definitions/')) {
      out.$ref = `${DEFINITIONS_ID}${value}`;
    } else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, toJsonSchema(s)]));
    } else if (['items', 'additionalProperties', 'allOf', 'anyOf', 'oneOf', 'not'].includes(key)) {
      out[key] = toJsonSchema(value);
    } else {
      out[key] = value;
    }
  }
  return source['x-nullable'] === true ? { anyOf: [out, { type: 'null' }] } : out;
}

/** The formats the document uses; ajv knows none without a plugin, and strict mode refuses unknown ones. */
const FORMATS: Record<string, RegExp | true> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i,
  email: /^[^\s@]+@[^\s@]+$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  uri: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
  byte: /^[A-Za-z0-9+/]*={0,2}$/,
  password: true,
  int32: true,
  int64: true,
};

type CompiledCheck = (body: unknown) => SchemaError[];

class SchemaValidator {
  private readonly ajv;
  private readonly compiled = new Map<string, CompiledCheck>();

  constructor(document: Document) {
    const Ajv = (require('ajv') as typeof import('ajv')).default;
    this.ajv = new Ajv({ allErrors: true, strictTypes: false, strictTuples: false, logger: false });
    for (const [name, format] of Object.entries(FORMATS)) this.ajv.addFormat(name, format);
    const definitions = Object.entries(document.definitions ?? {}).map(([name, schema]) => [
      name,
      toJsonSchema(schema),
    ]);
    this.ajv.addSchema({ $id: DEFINITIONS_ID, definitions: Object.fromEntries(definitions) });
  }

  /** Errors of `body` against `schema` (compiled once per key); a schema that does not compile is one. */
  check(key: string, schema: Schema, body: unknown): SchemaError[] {
    let compiled = this.compiled.get(key);
    if (!compiled) {
      try {
        const validate = this.ajv.compile(toJsonSchema(schema) as Schema);
        compiled = (value) =>
          validate(value)
            ? []
            : (validate.errors ?? []).map((e) => ({
                path: e.instancePath,
                // The message and the keyword's parameters (an allowed list, a missing property): never the value.
                message: `${e.message ?? e.keyword}${describeParams(e.params)}`,
              }));
      } catch (error) {
        const message = `the documented schema does not compile: ${(error as Error).message}`;
        compiled = () => [{ path: '', message }];
      }
      this.compiled.set(key, compiled);
    }
    return compiled(body);
  }
}

function describeParams(params: Record<string, unknown>): string {
  if (params.allowedValues) return ` (${(params.allowedValues as unknown[]).join(', ')})`;
  if (params.additionalProperty) return ` (${String(params.additionalProperty)})`;
  return '';
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

/**
 * The verdict on one answer of `operation`: the status must be documented (or a `default`), the
 * content type one the operation produces, and a JSON body must match the status's schema. A body
 * sent where no schema is documented is a finding too: a client cannot know what it holds.
 */
export function checkAnswer(document: Document, operation: Operation, key: string, answer: Answer): SchemaError[] {
  const documented = operation.responses[String(answer.status)] ?? operation.responses.default;
  if (!documented) return [{ path: '', message: `status ${answer.status} is not documented` }];
  // A redirect's body is Express's courtesy text; the status and its Location are the answer.
  if (answer.status >= 300 && answer.status < 400) return [];
  const hasBody = answer.body !== undefined && answer.body.length > 0;
  if (!hasBody) {
    const promised = documented.schema && documented.schema.type !== 'file';
    return promised && !answer.head ? [{ path: '', message: 'no body, where the document gives a schema' }] : [];
  }
  const errors: SchemaError[] = [];
  const produces = operation.produces ?? document.produces ?? ['application/json'];
  // Swagger 2.0 gives one list per operation, not per status; the document says every error body is
  // JSON, so an error answered in JSON by a page or file route is what it promises.
  const jsonError = answer.status >= 400 && isJson(answer.contentType);
  if (!produces.includes(answer.contentType) && !jsonError) {
    errors.push({
      path: '',
      message:
        `content type ${answer.contentType || '(none)'} is not one the operation produces ` +
        `(${produces.join(', ')})`,
    });
  }
  if (!isJson(answer.contentType) || answer.body === NOT_KEPT) return errors;
  if (!documented.schema) return [...errors, { path: '', message: 'a JSON body, where the document gives no schema' }];
  let body: unknown;
  try {
    body = JSON.parse(answer.body!);
  } catch {
    return [...errors, { path: '', message: 'the body is not JSON, though its content type says so' }];
  }
  const validator = validators.get(document) ?? new SchemaValidator(document);
  validators.set(document, validator);
  return [...errors, ...validator.check(`${key} ${answer.status}`, documented.schema, body)];
}

/** A body larger than this (a document download) is not kept: its status and type are still checked. */
const MAX_KEPT_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The body a route sends, as text: res.json ends in res.send with a string, files and pages in
 * bytes, a relayed answer goes to res.end or is streamed through res.write.
 */
function captureBody(res: Response): () => string | undefined {
  const chunks: Buffer[] = [];
  let size = 0;
  let sent = false;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (typeof chunk === 'function' || chunk === undefined || chunk === null) return;
    sent = true;
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array
          ? Buffer.from(chunk)
          : undefined;
    if (!bytes || size > MAX_KEPT_BODY_BYTES) return;
    size += bytes.length;
    if (size <= MAX_KEPT_BODY_BYTES) chunks.push(bytes);
  };
  // res.send ends in res.end with the same body, so only write and end are watched.
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  res.write = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return write(...args);
  }) as Response['write'];
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return end(...args);
  }) as Response['end'];
  return () => (!sent ? undefined : size > MAX_KEPT_BODY_BYTES ? NOT_KEPT : Buffer.concat(chunks).toString('utf8'));
}

function isCompressed(res: Response): boolean {
  const encoding = res.getHeader('content-encoding');
  return encoding !== undefined && String(encoding).toLowerCase() !== 'identity';
}

/**
 * The operation of the served document this route is, or undefined for a route outside the served
 * table (a test's own probe route, whose description is the test's business).
 */
function operationOf(route: RouteSpec, document: Document): Operation | undefined {
  const served = document.paths[swaggerPath(route.path)]?.[route.method];
  return served?.operationId === route.doc.operationId ? served : undefined;
}

let servedDocument: Document | undefined;
const documentOf = () => (servedDocument ??= buildSwagger(features, 'http://localhost') as unknown as Document);
/** Per route, its operation in the served document (undefined: outside it). */
const operations = new WeakMap<RouteSpec, Operation | undefined>();
/** Per directory, the records this process wrote there, so each distinct one is written once. */
const written = new Map<string, Set<string>>();

function write(dir: string, record: AnswerRecord): void {
  const line = JSON.stringify(record);
  const lines = written.get(dir) ?? new Set<string>();
  written.set(dir, lines);
  if (lines.has(line)) return;
  lines.add(line);
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(dir, `${process.pid}.jsonl`), `${line}\n`);
}

/** Watches one request to `route` (published by src/web/app.ts); records the verdict on its answer once sent. */
export function recordAnswer({ route, req, res }: { route: RouteSpec; req: Request; res: Response }): void {
  // Read per request: a test may point its own answers elsewhere (test/response-schemas/check.test.ts).
  const dir = process.env.RESPONSE_SCHEMAS_DIR;
  if (!dir) return;
  if (!operations.has(route)) operations.set(route, operationOf(route, documentOf()));
  const operation = operations.get(route);
  if (!operation) return;
  const bodyOf = captureBody(res);
  res.once('finish', () => {
    const answer: Answer = {
      status: res.statusCode,
      contentType: mediaType(res.getHeader('content-type') as string | undefined),
      // A relayed answer may come compressed (the acquirer's content-encoding is passed on).
      body: isCompressed(res) ? NOT_KEPT : bodyOf(),
      head: req.method === 'HEAD',
    };
    let verdict: SchemaError[];
    try {
      verdict = checkAnswer(documentOf(), operation, `${route.method} ${route.path}`, answer);
    } catch (error) {
      verdict = [{ path: '', message: `the check itself failed: ${(error as Error).message}` }];
    }
    write(dir, {
      operationId: route.doc.operationId,
      method: route.method,
      path: swaggerPath(route.path),
      status: answer.status,
      contentType: answer.contentType,
      verdict: verdict.length ? verdict : 'valid',
    });
  });
}
