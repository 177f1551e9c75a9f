/**
 * Generates clients/typescript/src/generated.ts from the service's Swagger 2.0 document: one type per
 * definition, one class per tag (client.sales, client.paymentLinks, ...) with one method per operation
 * named by its operationId, and the table of operations the transport sends.
 *
 *   npm run client:generate                      the document of this checkout (buildSwagger)
 *   npm run client:generate -- --from <url|file> a served document (/api/docs/swagger.json) or a saved one
 *
 * Method shape: path parameters first (in path order), then the body, then the query object, then the
 * options (signal, headers, merchantId, and the operation's own header parameters such as idempotencyKey).
 * test/client/generated.test.ts regenerates in memory and fails when the committed file differs.
 */
import fs from 'node:fs';
import path from 'node:path';
import prettier from 'prettier';

export const GENERATED_FILE = path.resolve(__dirname, '..', 'src', 'generated.ts');
const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Group names where the tag's camelCase is not what a partner would look for. */
const GROUP_NAMES: Record<string, string> = { 'online-sales': 'sales' };

/** Groups whose class extends a hand-written base (its import) instead of ApiGroup. */
const GROUP_BASES: Record<string, { name: string; from: string }> = {
  cards: { name: 'CardEncryption', from: './cards' },
};

/**
 * Options every method takes already (transport.ts RequestOptions): a header parameter of the same name
 * is left to them.
 */
const COMMON_OPTIONS = new Set(['signal', 'headers', 'merchantId']);

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  description?: string;
  enum?: (string | number | boolean)[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  'x-nullable'?: boolean;
  default?: unknown;
  readOnly?: boolean;
}

interface Parameter extends Omit<Schema, 'required'> {
  name: string;
  in: 'path' | 'query' | 'header' | 'body' | 'formData';
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  responses: Record<string, { description?: string; schema?: Schema }>;
  produces?: string[];
  security?: unknown[];
}

export interface SwaggerDocument {
  swagger: string;
  info: { title: string; version: string };
  produces?: string[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  definitions?: Record<string, Schema>;
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

function camelCase(text: string): string {
  return words(text)
    .map((word, i) => (i === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase()))
    .join('');
}

function pascalCase(text: string): string {
  const camel = camelCase(text);
  return camel[0].toUpperCase() + camel.slice(1);
}

function identifier(name: string): string {
  const id = camelCase(name);
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(id) ? id : `_${id}`;
}

function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

/** Width of a comment's text: lines stay within 120 columns at the deepest nesting the document gives. */
const COMMENT_WIDTH = 100;

/** Word-wraps one paragraph; a single word longer than the width (a URL) keeps its own line. */
function wrap(paragraph: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > COMMENT_WIDTH) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A JSDoc block, or nothing; "*\/" inside a description would end the comment early. */
function docComment(paragraphs: (string | false | undefined)[]): string {
  const lines = paragraphs
    .filter((text): text is string => Boolean(text && text.trim()))
    .flatMap((text, i) => [
      ...(i > 0 ? [''] : []),
      ...text.split('\n').flatMap((part) => (part.trim() ? wrap(part) : [''])),
    ])
    .map((line) => line.replace(/\*\//g, '*\\/'));
  if (lines.length === 0) return '';
  if (lines.length === 1) return `/** ${lines[0]} */\n`;
  return `/**\n${lines.map((line) => ` * ${line}`.trimEnd()).join('\n')}\n */\n`;
}

function refName(ref: string): string {
  const prefix = '#/definitions/';
  if (!ref.startsWith(prefix)) throw new Error(`unsupported $ref ${ref}`);
  return ref.slice(prefix.length);
}

/** The TypeScript type of a schema. */
function typeOf(schema: Schema | undefined): string {
  if (!schema) return 'unknown';
  const base = baseTypeOf(schema);
  return schema['x-nullable'] ? `${base} | null` : base;
}

function baseTypeOf(schema: Schema): string {
  if (schema.$ref) return refName(schema.$ref);
  if (schema.allOf) return schema.allOf.map((part) => parenthesized(typeOf(part))).join(' & ');
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  switch (schema.type) {
    case 'integer':
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'file':
      return 'Uint8Array';
    case 'array':
      return `Array<${typeOf(schema.items)}>`;
    case 'object':
    case undefined:
      if (schema.properties || schema.additionalProperties !== undefined || schema.type === 'object')
        return objectType(schema);
      return 'unknown';
    default:
      throw new Error(`unsupported schema type ${schema.type}`);
  }
}

function parenthesized(type: string): string {
  return /[|&]/.test(type) ? `(${type})` : type;
}

function objectType(schema: Schema): string {
  const required = new Set(schema.required ?? []);
  const members = Object.entries(schema.properties ?? {}).map(
    ([name, property]) =>
      docComment([property.description, property.format && `Format: ${property.format}.`]) +
      `${propertyKey(name)}${required.has(name) ? '' : '?'}: ${typeOf(property)};`,
  );
  const extra = schema.additionalProperties;
  if (extra === true || (extra === undefined && !schema.properties)) members.push('[key: string]: unknown;');
  else if (extra && typeof extra === 'object') {
    // An index signature must admit every declared property's type too.
    const types = new Set([typeOf(extra), ...Object.values(schema.properties ?? {}).map((p) => typeOf(p))]);
    members.push(`[key: string]: ${types.size === 1 ? [...types][0] : 'unknown'};`);
  }
  return `{\n${members.join('\n')}\n}`;
}

function definitionSource(name: string, schema: Schema): string {
  const doc = docComment([schema.description]);
  const type = typeOf(schema);
  return type.startsWith('{') && !schema['x-nullable']
    ? `${doc}export interface ${name} ${type}\n`
    : `${doc}export type ${name} = ${type};\n`;
}

interface GeneratedOperation {
  group: string;
  method: string;
  source: string;
  spec: string;
  errors: string;
  aliases: string[];
}

function responseKind(operation: Operation, documentProduces: string[]): 'json' | 'text' | 'binary' {
  const success = Object.entries(operation.responses).filter(([status]) => /^2/.test(status));
  if (success.some(([, response]) => response.schema?.type === 'file')) return 'binary';
  // A page, a script or a metrics exposition: no schema for the success, a text type among those produced
  // (application/json may be listed too, for the error answers).
  const produces = operation.produces ?? documentProduces;
  const untyped = success.every(([, response]) => !response.schema);
  return untyped && produces.some((type) => type.startsWith('text/')) ? 'text' : 'json';
}

function operationSource(
  httpMethod: string,
  pathTemplate: string,
  operation: Operation,
  documentProduces: string[],
): GeneratedOperation {
  const id = operation.operationId;
  if (!/^[a-z][A-Za-z0-9]*$/.test(id ?? '')) throw new Error(`${httpMethod} ${pathTemplate}: operationId ${id}`);
  const typePrefix = pascalCase(id);
  const aliases: string[] = [];
  const parameters = operation.parameters ?? [];
  const pathOrder = [...pathTemplate.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const pathParams = pathOrder.map((name) => {
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
    if (!parameter) throw new Error(`${id}: path parameter ${name} is not described`);
    return parameter;
  });
  const body = parameters.find((p) => p.in === 'body');
  const query = parameters.filter((p) => p.in === 'query');
  const headers = parameters.filter((p) => p.in === 'header' && !COMMON_OPTIONS.has(headerOption(p.name)));
  if (parameters.some((p) => p.in === 'formData')) throw new Error(`${id}: formData parameters are not supported`);

  const args: string[] = [];
  const argDocs: string[] = [];
  const used = new Set<string>(['options']);
  const argName = (name: string) => {
    let candidate = identifier(name);
    while (used.has(candidate)) candidate = `${candidate}Value`;
    used.add(candidate);
    return candidate;
  };
  const pathEntries: string[] = [];
  for (const parameter of pathParams) {
    const name = argName(parameter.name);
    args.push(`${name}: string | number`);
    pathEntries.push(parameter.name === name ? name : `${propertyKey(parameter.name)}: ${name}`);
    if (parameter.description) argDocs.push(`@param ${name} ${parameter.description}`);
  }
  let bodyArg: string | undefined;
  if (body) {
    bodyArg = argName('body');
    let bodyType = typeOf(body.schema);
    if (!body.schema?.$ref) {
      aliases.push(`export type ${typePrefix}Body = ${bodyType};\n`);
      bodyType = `${typePrefix}Body`;
    }
    args.push(`${bodyArg}${body.required ? '' : '?'}: ${bodyType}`);
  }
  let queryArg: string | undefined;
  if (query.length > 0) {
    queryArg = argName('query');
    const queryType = `${typePrefix}Query`;
    const required = query.filter((p) => p.required).map((p) => p.name);
    aliases.push(
      `export interface ${queryType} ${objectType({
        type: 'object',
        properties: Object.fromEntries(query.map((p) => [p.name, p as Schema])),
        required,
        additionalProperties: false,
      })}\n`,
    );
    args.push(`${queryArg}${required.length > 0 ? '' : '?'}: ${queryType}`);
  }
  let optionsType = 'RequestOptions';
  const headerEntries: string[] = [];
  if (headers.length > 0) {
    const members = headers.map(
      (p) =>
        docComment([`Header ${p.name}.`, p.description]) +
        `${headerOption(p.name)}${p.required ? '' : '?'}: ${typeOf(p as Schema)};`,
    );
    optionsType = `${typePrefix}Options`;
    aliases.push(`export interface ${optionsType} extends RequestOptions {\n${members.join('\n')}\n}\n`);
    for (const p of headers) headerEntries.push(`${JSON.stringify(p.name)}: options?.${headerOption(p.name)}`);
  }
  const optionsRequired = headers.some((p) => p.required);
  args.push(`options${optionsRequired ? '' : '?'}: ${optionsType}`);
  // An optional argument before a required one (a body before a required query) takes undefined explicitly.
  for (let i = args.length - 2, laterRequired = !args[args.length - 1].includes('?:'); i >= 0; i--) {
    if (args[i].includes('?:') && laterRequired) args[i] = `${args[i].replace('?:', ':')} | undefined`;
    laterRequired ||= !args[i].includes('?:');
  }

  const successes = Object.entries(operation.responses).filter(([status]) => /^2/.test(status));
  const kind = responseKind(operation, documentProduces);
  const successTypes = new Set(
    successes.map(([, response]) =>
      kind === 'text' ? 'string' : response.schema ? typeOf(response.schema) : 'unknown',
    ),
  );
  let returnType = successTypes.size === 0 ? 'unknown' : [...successTypes].join(' | ');
  if (successes.some(([, response]) => response.schema && !response.schema.$ref && kind === 'json')) {
    aliases.push(`export type ${typePrefix}Response = ${returnType};\n`);
    returnType = `${typePrefix}Response`;
  }

  const input: string[] = [];
  if (pathEntries.length) input.push(`pathParams: { ${pathEntries.join(', ')} }`);
  if (bodyArg) input.push(bodyArg === 'body' ? 'body' : `body: ${bodyArg}`);
  if (queryArg) input.push(queryArg === 'query' ? 'query' : `query: ${queryArg}`);
  if (headerEntries.length) input.push(`headers: { ${headerEntries.join(', ')} }`);

  const errorMembers = Object.entries(operation.responses)
    .filter(([status]) => /^[45]\d\d$/.test(status))
    .map(([status, response]) => `${status}: ${response.schema ? typeOf(response.schema) : 'unknown'};`);

  const method = HTTP_METHODS.includes(httpMethod) ? httpMethod.toUpperCase() : undefined;
  if (!method) throw new Error(`${id}: method ${httpMethod}`);
  const doc = docComment([operation.summary, operation.description, `${method} ${pathTemplate}`, ...argDocs]);
  return {
    group: groupOf(operation),
    method: id,
    aliases,
    source:
      `${doc}${id}(${args.join(', ')}): Promise<${returnType}> {\n` +
      `return this.transport.call<${returnType}>(operations.${id}, { ${input.join(', ')} }, options);\n}\n`,
    spec:
      `${id}: { operationId: '${id}', method: '${method}', path: ${JSON.stringify(pathTemplate)}, ` +
      `auth: ${Boolean(operation.security?.length)}, response: '${kind}' },`,
    errors: `${id}: {\n${errorMembers.join('\n')}\n};`,
  };
}

/** Idempotency-Key -> idempotencyKey, X-Merchant-Id -> merchantId, x-notification-secret -> notificationSecret. */
function headerOption(header: string): string {
  return identifier(header.replace(/^x-/i, ''));
}

function groupOf(operation: Operation): string {
  const tag = operation.tags?.[0];
  if (!tag) throw new Error(`${operation.operationId} has no tag`);
  return GROUP_NAMES[tag] ?? camelCase(tag);
}

/** The source of generated.ts for a document, formatted with the repository's prettier settings. */
export async function generateClientSource(document: SwaggerDocument): Promise<string> {
  if (document.swagger !== '2.0') throw new Error(`expected a Swagger 2.0 document, got ${document.swagger}`);
  const documentProduces = document.produces ?? ['application/json'];
  const operations: GeneratedOperation[] = [];
  for (const [pathTemplate, pathItem] of Object.entries(document.paths)) {
    for (const [httpMethod, operation] of Object.entries(pathItem)) {
      if (!HTTP_METHODS.includes(httpMethod)) continue;
      operations.push(operationSource(httpMethod, pathTemplate, operation, documentProduces));
    }
  }
  const ids = operations.map((o) => o.method);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new Error(`operationId ${duplicate} is used twice`);

  const tagDescriptions = new Map(
    (document.tags ?? []).map((tag) => [GROUP_NAMES[tag.name] ?? camelCase(tag.name), tag]),
  );
  const groups = [...new Set(operations.map((o) => o.group))];
  const bases = [...new Set(groups.map((g) => GROUP_BASES[g]).filter(Boolean))];
  const classes = groups.map((group) => {
    const tag = tagDescriptions.get(group);
    const base = GROUP_BASES[group]?.name ?? 'ApiGroup';
    const methods = operations.filter((o) => o.group === group).map((o) => o.source);
    return (
      docComment([tag?.description, tag && `Tag "${tag.name}" of the document.`]) +
      `export class ${pascalCase(group)}Api extends ${base} {\n${methods.join('\n')}}\n`
    );
  });

  const source = [
    '/**',
    ` * GENERATED from the Swagger document (version ${document.info.version}) by ` +
      'clients/typescript/scripts/generate.ts',
    ' * (npm run client:generate). Do not edit: regenerate.',
    ' */',
    '/* eslint-disable */',
    `import { ApiGroup, type OperationSpec, type RequestOptions, type Transport } from './transport';`,
    ...bases.map((base) => `import { ${base.name} } from '${base.from}';`),
    '',
    '// Definitions of the document',
    ...Object.entries(document.definitions ?? {}).map(([name, schema]) => definitionSource(name, schema)),
    '// Types of the operations (inline bodies, queries, answers and header options)',
    ...operations.flatMap((o) => o.aliases),
    '/** Every operation, by operationId: what the transport sends. */',
    `export const operations = {\n${operations.map((o) => o.spec).join('\n')}\n}` +
      ' satisfies Record<string, OperationSpec>;',
    '',
    'export type OperationId = keyof typeof operations;',
    '',
    '/** The documented error answers of each operation: status to body. */',
    `export interface OperationErrors {\n${operations.map((o) => o.errors).join('\n')}\n}`,
    '',
    ...classes,
    '/** The groups of the client, one per tag. */',
    'export abstract class GeneratedClient {',
    ...groups.map((group) => `readonly ${group}: ${pascalCase(group)}Api;`),
    'protected constructor(transport: Transport) {',
    ...groups.map((group) => `this.${group} = new ${pascalCase(group)}Api(transport);`),
    '}',
    '}',
    '',
  ].join('\n');
  const config = (await prettier.resolveConfig(path.join(REPOSITORY_ROOT, 'package.json'))) ?? {};
  return prettier.format(source, { ...config, parser: 'typescript' });
}

/** The document of this checkout, built as the service serves it (the host does not reach the client). */
export async function currentDocument(): Promise<SwaggerDocument> {
  const { buildSwagger } = await import('../../../src/web/swagger');
  const { features } = await import('../../../src/web/areas');
  return buildSwagger(features, 'http://localhost') as unknown as SwaggerDocument;
}

async function readDocument(from: string | undefined): Promise<SwaggerDocument> {
  if (!from) return currentDocument();
  if (/^https?:\/\//.test(from)) {
    const response = await fetch(from);
    if (!response.ok) throw new Error(`${from} answered ${response.status}`);
    return (await response.json()) as SwaggerDocument;
  }
  return JSON.parse(fs.readFileSync(from, 'utf8')) as SwaggerDocument;
}

async function main(): Promise<void> {
  const fromIndex = process.argv.indexOf('--from');
  const document = await readDocument(fromIndex >= 0 ? process.argv[fromIndex + 1] : undefined);
  const source = await generateClientSource(document);
  const before = fs.existsSync(GENERATED_FILE) ? fs.readFileSync(GENERATED_FILE, 'utf8') : '';
  fs.writeFileSync(GENERATED_FILE, source);
  const count = Object.values(document.paths).flatMap((item) => Object.keys(item)).length;
  process.stdout.write(
    `${path.relative(process.cwd(), GENERATED_FILE)}: ${count} operations, ` +
      `${before === source ? 'unchanged' : 'rewritten'}\n`,
  );
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (error: Error) => {
      process.stderr.write(`client generation failed: ${error.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
