/**
 * Generates the client's two generated files from the service's Swagger 2.0 document:
 * - src/generated-types.ts: one type per definition, the inline types of each operation (bodies, queries,
 *   answers, header options) and the documented error answers; it imports only transport.ts;
 * - src/generated-operations.ts: the table of operations the transport sends and one class per tag
 *   (client.sales, client.paymentLinks, ...) with one method per operation named by its operationId; it
 *   imports the types and transport.ts, never hand-written code that imports it back.
 *
 *   npm run client:generate                      the document of this checkout (buildSwagger)
 *   npm run client:generate -- --from <url|file> a served document (/api/docs/swagger.json) or a saved one
 *
 * Method shape: path parameters first (in path order), then the body, then the query object, then the
 * options (signal, headers, merchantId, and the operation's own header parameters such as idempotencyKey).
 * test/client/package.test.ts regenerates in memory and fails when a committed file differs.
 */
import fs from 'node:fs';
import path from 'node:path';
import prettier from 'prettier';

const CLIENT_SOURCE_DIR = path.resolve(__dirname, '..', 'src');
/** Beside the hand-written files (not in a folder of their own, which would import its parent's transport.ts). */
export const GENERATED_FILES = {
  types: path.join(CLIENT_SOURCE_DIR, 'generated-types.ts'),
  operations: path.join(CLIENT_SOURCE_DIR, 'generated-operations.ts'),
};
export type GeneratedSources = Record<keyof typeof GENERATED_FILES, string>;
const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Group names where the tag's camelCase is not what a partner would look for. */
const GROUP_NAMES: Record<string, string> = { 'online-sales': 'sales' };

/**
 * Groups a hand-written class extends (src/cards.ts: CardsApi adds card encryption to the generated
 * GeneratedCardsApi). The generated code cannot import that class, so GeneratedClient takes its instance.
 */
const EXTENDED_BY_HAND = new Set(['cards']);

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
  /** The parameter list and return type of the method: where the types it needs from generated-types.ts are named. */
  signature: string;
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
    signature: `(${args.join(', ')}): ${returnType}`,
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

function generatedHeader(version: string): string[] {
  return [
    '/**',
    ` * GENERATED from the Swagger document (version ${version}) by clients/typescript/scripts/generate.ts`,
    ' * (npm run client:generate). Do not edit: regenerate.',
    ' */',
    '/* eslint-disable */',
  ];
}

/** The class of a group: Generated<Group>Api when a hand-written class extends it under the plain name. */
function className(group: string): string {
  return `${EXTENDED_BY_HAND.has(group) ? 'Generated' : ''}${pascalCase(group)}Api`;
}

/** The names generated-types.ts declares (definitions and operation aliases), in the order it declares them. */
function declaredNames(declarations: string[]): string[] {
  return declarations.map((source) => /^export (?:interface|type) ([A-Za-z0-9_]+)/m.exec(source)![1]);
}

/** The sources of the generated files for a document, formatted with the repository's prettier settings. */
export async function generateClientSources(document: SwaggerDocument): Promise<GeneratedSources> {
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

  const definitions = Object.entries(document.definitions ?? {}).map(([name, schema]) =>
    definitionSource(name, schema),
  );
  const aliases = operations.flatMap((o) => o.aliases);
  const types = [
    ...generatedHeader(document.info.version),
    ...(aliases.some((alias) => /\bRequestOptions\b/.test(alias))
      ? [`import type { RequestOptions } from './transport';`, '']
      : []),
    '// Definitions of the document',
    ...definitions,
    '// Types of the operations (inline bodies, queries, answers and header options)',
    ...aliases,
    '/** The documented error answers of each operation: status to body. */',
    `export interface OperationErrors {\n${operations.map((o) => o.errors).join('\n')}\n}`,
    '',
  ];

  const tagDescriptions = new Map(
    (document.tags ?? []).map((tag) => [GROUP_NAMES[tag.name] ?? camelCase(tag.name), tag]),
  );
  const groups = [...new Set(operations.map((o) => o.group))];
  const extended = groups.filter((group) => EXTENDED_BY_HAND.has(group));
  const classes = groups.map((group) => {
    const tag = tagDescriptions.get(group);
    const methods = operations.filter((o) => o.group === group).map((o) => o.source);
    return (
      docComment([tag?.description, tag && `Tag "${tag.name}" of the document.`]) +
      `export class ${className(group)} extends ApiGroup {\n${methods.join('\n')}}\n`
    );
  });
  const signatures = operations.map((o) => o.signature).join('\n');
  const imported = declaredNames([...definitions, ...aliases]).filter((name) =>
    new RegExp(`\\b${name}\\b`).test(signatures),
  );
  const extendedMembers = extended.map((group) => `${group}: ${className(group)};`);
  const typeParameters = extended.length > 0 ? '<Extended extends ExtendedGroups = ExtendedGroups>' : '';
  const client = [
    ...(extended.length > 0
      ? [
          '/** The instances of the groups a hand-written class extends: the client constructs those itself. */',
          `export interface ExtendedGroups {\n${extendedMembers.join('\n')}\n}`,
          '',
        ]
      : []),
    '/** The groups of the client, one per tag; the client names the classes of those it extends by hand. */',
    `export abstract class GeneratedClient${typeParameters} {`,
    ...groups.map(
      (group) => `readonly ${group}: ${EXTENDED_BY_HAND.has(group) ? `Extended['${group}']` : className(group)};`,
    ),
    `protected constructor(transport: Transport${extended.length > 0 ? ', extended: Extended' : ''}) {`,
    ...groups.map((group) =>
      EXTENDED_BY_HAND.has(group)
        ? `this.${group} = extended.${group};`
        : `this.${group} = new ${className(group)}(transport);`,
    ),
    '}',
    '}',
  ];
  const operationsSource = [
    ...generatedHeader(document.info.version),
    `import { ApiGroup, type OperationSpec, type RequestOptions, type Transport } from './transport';`,
    ...(imported.length > 0 ? [`import type { ${imported.join(', ')} } from './generated-types';`] : []),
    '',
    '/** Every operation, by operationId: what the transport sends. */',
    `export const operations = {\n${operations.map((o) => o.spec).join('\n')}\n}` +
      ' satisfies Record<string, OperationSpec>;',
    '',
    'export type OperationId = keyof typeof operations;',
    '',
    ...classes,
    ...client,
    '',
  ];
  const config = (await prettier.resolveConfig(path.join(REPOSITORY_ROOT, 'package.json'))) ?? {};
  const format = (lines: string[]) => prettier.format(lines.join('\n'), { ...config, parser: 'typescript' });
  return { types: await format(types), operations: await format(operationsSource) };
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
  const sources = await generateClientSources(document);
  const count = Object.values(document.paths).flatMap((item) => Object.keys(item)).length;
  for (const [part, file] of Object.entries(GENERATED_FILES) as [keyof GeneratedSources, string][]) {
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    fs.writeFileSync(file, sources[part]);
    const outcome = before === sources[part] ? 'unchanged' : 'rewritten';
    process.stdout.write(`${path.relative(process.cwd(), file)}: ${count} operations, ${outcome}\n`);
  }
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
