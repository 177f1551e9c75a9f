/**
 * The examples the manual shows are what the wire carries (issue 30, item 9): every fenced JSON
 * block the README or docs/ mark with `<!-- example: <Definition> -->` is checked against that
 * definition of the served document, and may carry no key the definition does not declare (a
 * misspelt or renamed field is the mistake a reader copies). The suite's response check holds every
 * real answer to the same document, so an example that passes here has the shape real answers have.
 */
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { buildSwagger } from '../../src/web/swagger';
import { features } from '../../src/web/areas';
import { toJsonSchema } from '../instrumentation/answers';

type Schema = Record<string, any>;
const ROOT = path.resolve(__dirname, '..', '..');
const document = buildSwagger(features, 'http://localhost') as { definitions: Record<string, Schema> };
const definitions = document.definitions;

function markdownFiles(): string[] {
  const inDocs = fs.readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' });
  return ['README.md', ...inDocs.filter((file) => file.endsWith('.md')).map((file) => path.join('docs', file))];
}

const EXAMPLE = /<!-- example: (\w+) -->\s*\n```json\n([\s\S]*?)\n```/g;

function examples(): { where: string; definition: string; json: string }[] {
  return markdownFiles().flatMap((file) =>
    [...fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(EXAMPLE)].map((match) => ({
      where: `${file}: ${match[1]}`,
      definition: match[1],
      json: match[2],
    })),
  );
}

const resolve = (schema: Schema): Schema =>
  typeof schema?.$ref === 'string' ? resolve(definitions[schema.$ref.replace('#/definitions/', '')]) : schema;

/** Keys of `value` its schema does not declare, as dotted paths. */
function undeclaredKeys(value: unknown, schema: Schema, at = ''): string[] {
  const own = resolve(schema);
  if (Array.isArray(value)) return value.flatMap((item, i) => undeclaredKeys(item, own?.items ?? {}, `${at}[${i}]`));
  if (!value || typeof value !== 'object' || !own?.properties || own.additionalProperties) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key in own.properties ? undeclaredKeys(inner, own.properties[key], `${at}.${key}`) : [`${at}.${key}`],
  );
}

function problemsOf(definition: string, json: string): string[] {
  if (!definitions[definition]) return [`no definition ${definition} in the served document`];
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return [`not JSON: ${(error as Error).message}`];
  }
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
  const converted = Object.entries(definitions).map(([name, schema]) => [name, toJsonSchema(schema)]);
  ajv.addSchema({ $id: 'swagger-definitions', definitions: Object.fromEntries(converted) });
  const validate = ajv.compile(toJsonSchema({ $ref: `#/definitions/${definition}` }) as Schema);
  const invalid = validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  return [...invalid, ...undeclaredKeys(value, definitions[definition]).map((key) => `${key} is not declared`)];
}

test('every marked example of the manual has the shape of its definition, and no key it lacks', (t) => {
  const found = examples();
  t.true(found.length >= 4, `only ${found.length} marked examples`);
  t.deepEqual(
    found.flatMap(({ where, definition, json }) => problemsOf(definition, json).map((p) => `${where} ${p}`)),
    [],
  );
});

test('the check finds a renamed field, a wrong type and a missing required field', (t) => {
  const denial = { code: '05', message: 'Not Authorized', payerMessage: 'O banco emissor não autorizou.' };
  const checkout = JSON.parse(examples().find((e) => e.definition === 'CheckoutPayResult')!.json).checkout;
  t.deepEqual(problemsOf('CheckoutPayResult', JSON.stringify({ approved: false, denial, checkout })), []);
  const renamed = { approved: false, denial: { return_code: '05' }, checkout };
  t.deepEqual(problemsOf('CheckoutPayResult', JSON.stringify(renamed)), ['.denial.return_code is not declared']);
  t.true(problemsOf('CheckoutPayResult', JSON.stringify({ approved: 'no', checkout })).length > 0);
  t.true(problemsOf('CheckoutPayResult', JSON.stringify({ approved: false })).length > 0);
});
