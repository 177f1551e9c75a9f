/**
 * One declaration per request or answer body: a Joi schema built through `field` is what celebrate
 * validates (with the spec's messages, through `.messages()`), `swaggerOf` reads the same schema's
 * `describe()` to give its Swagger 2.0 definition, and `ValueOf` gives its TypeScript type. Why our
 * own reader rather than joi-to-json or TypeBox: docs/schemas.md.
 */
import { Joi } from 'celebrate';
import type {
  AlternativesSchema,
  AnySchema,
  ArraySchema,
  BooleanSchema,
  Description,
  NumberSchema,
  ObjectSchema,
  Schema,
  StringSchema,
  ValidationError,
} from 'joi';

declare const VALUE: unique symbol;
declare const PRESENT: unique symbol;

/** A Joi schema that also carries, for the compiler only, the type of the value it accepts. */
export type Typed<S extends Schema, T> = S & { readonly [VALUE]: T };
/** Marks a key that is always there once validated: required, or filled by its default. */
type Present = { readonly [PRESENT]: true };

/** The type of what a `field` schema accepts (after validation: defaults filled). */
export type ValueOf<S> = S extends { readonly [VALUE]: infer T } ? T : never;

type Keys = Record<string, { readonly [VALUE]: unknown }>;
type Flat<T> = { [K in keyof T]: T[K] } & {};
type ObjectValue<K extends Keys> = Flat<
  { [P in keyof K as K[P] extends Present ? P : never]: ValueOf<K[P]> } & {
    [P in keyof K as K[P] extends Present ? never : P]?: ValueOf<K[P]>;
  }
>;

/**
 * The meta by which `object` knows at run time that a key's presence went through `required` or
 * `withDefault` (the only way the compiler hears of it): a bare `.required()` is refused there.
 */
const PRESENCE_META = 'presentInType';
/** The meta naming a definition: where another schema holds this one, Swagger gets a $ref to it. */
const DEFINITION_META = 'swaggerDefinition';
/** The meta holding Swagger-only keys, merged last over what is derived (null removes a key). */
const SWAGGER_META = 'swagger';

function objectOf<K extends Keys>(keys: K): Typed<ObjectSchema<ObjectValue<K>>, ObjectValue<K>> {
  for (const [key, schema] of Object.entries(keys)) {
    const described = (schema as unknown as Schema).describe();
    const declaredPresent = (described.metas ?? []).some((meta: Record<string, unknown>) => meta[PRESENCE_META]);
    const flags = (described.flags ?? {}) as Record<string, unknown>;
    const present = flags.presence === 'required' || flags.default !== undefined;
    if (present !== declaredPresent)
      throw new Error(`key ${key}: declare required keys with required(), defaults with withDefault()`);
  }
  return Joi.object(keys as unknown as Record<string, Schema>) as Typed<ObjectSchema<ObjectValue<K>>, ObjectValue<K>>;
}

/** The entry points of a typed declaration; every Joi method chained after them keeps the type. */
export const field = {
  string: () => Joi.string() as Typed<StringSchema, string>,
  number: () => Joi.number() as Typed<NumberSchema, number>,
  boolean: () => Joi.boolean() as Typed<BooleanSchema, boolean>,
  /** Any value: a key only documented (an alias folded away before validation), its Swagger given by swaggerOnly. */
  any: () => Joi.any() as Typed<AnySchema, unknown>,
  /** A string that is one of `values` (Swagger `enum`). */
  oneOf: <const V extends readonly string[]>(values: V) =>
    Joi.string().valid(...values) as Typed<StringSchema, V[number]>,
  /** An ISO 8601 timestamp as an answer states it (Swagger format date-time). */
  dateTime: () => Joi.string().isoDate() as Typed<StringSchema, string>,
  object: objectOf,
  /** An object of any keys whose values are all `values` (Swagger `additionalProperties`). */
  record: <S extends { readonly [VALUE]: unknown }>(values: S) =>
    Joi.object().pattern(/./, values as unknown as Schema) as Typed<ObjectSchema, Record<string, ValueOf<S>>>,
  array: <S extends { readonly [VALUE]: unknown }>(items: S) =>
    Joi.array().items(items as unknown as Schema) as Typed<ArraySchema, ValueOf<S>[]>,
  /**
   * A value any of `choices` accepts (Joi alternatives). Swagger 2.0 has no oneOf, so nothing is derived:
   * the declaration states the documented type through swaggerOnly.
   */
  either: <S extends { readonly [VALUE]: unknown }[]>(...choices: S) =>
    Joi.alternatives().try(...(choices as unknown as Schema[])) as Typed<AlternativesSchema, ValueOf<S[number]>>,
};

/** A key the body must carry. */
export function required<S extends Schema>(schema: S): S & Present {
  return schema.required().meta({ [PRESENCE_META]: true }) as S & Present;
}

/** A key that may be left out: validation fills `value` in, so the validated value always has it. */
export function withDefault<S extends Schema & { readonly [VALUE]: unknown }>(
  schema: S,
  value: ValueOf<S>,
): S & Present {
  return schema.default(value as never).meta({ [PRESENCE_META]: true }) as S & Present;
}

/** A value that may also be null (Swagger 2.0 `x-nullable`). */
export function nullable<S extends Schema, T>(schema: Typed<S, T>): Typed<S, T | null> {
  return schema.allow(null) as unknown as Typed<S, T | null>;
}

/** Names a body's definition: served under #/definitions/`name`, and a $ref wherever another body holds it. */
export function definition<S extends Schema>(name: string, schema: S): S {
  return schema.meta({ [DEFINITION_META]: name }) as S;
}

/** Swagger-only text or keys for one schema (an `x-` extension; null leaves out a derived key). */
export function swaggerOnly<S extends Schema>(schema: S, keys: Record<string, unknown>): S {
  return schema.meta({ [SWAGGER_META]: keys }) as S;
}

type SwaggerSchema = Record<string, unknown>;

const STRING_RULES: Record<string, (args: Record<string, unknown>) => SwaggerSchema> = {
  min: (args) => ({ minLength: args.limit }),
  max: (args) => ({ maxLength: args.limit }),
  isoDate: () => ({ format: 'date-time' }),
  // describe() gives the regex as /source/flags; Swagger takes the source.
  pattern: (args) => ({ pattern: String(args.regex).replace(/^\/(.*)\/[a-z]*$/s, '$1') }),
  email: () => ({ format: 'email' }),
  guid: () => ({ format: 'uuid' }),
  uri: () => ({ format: 'uri' }),
};
const NUMBER_RULES: Record<string, (args: Record<string, unknown>) => SwaggerSchema> = {
  integer: () => ({ type: 'integer' }),
  min: (args) => ({ minimum: args.limit }),
  max: (args) => ({ maximum: args.limit }),
};
const ARRAY_RULES: Record<string, (args: Record<string, unknown>) => SwaggerSchema> = {
  min: (args) => ({ minItems: args.limit }),
  max: (args) => ({ maxItems: args.limit }),
};

function rulesOf(described: Description, known: typeof STRING_RULES): SwaggerSchema {
  const out: SwaggerSchema = {};
  for (const rule of (described.rules ?? []) as { name: string; args?: Record<string, unknown> }[]) {
    // trim, strict and the like validate without saying anything a Swagger schema can hold.
    Object.assign(out, known[rule.name]?.(rule.args ?? {}));
  }
  return out;
}

function fromDescription(described: Description, nested: boolean): SwaggerSchema {
  const metaList = (described.metas ?? []) as Record<string, unknown>[];
  const metas: Record<string, unknown> = Object.assign({}, ...metaList);
  if (nested && typeof metas[DEFINITION_META] === 'string') return { $ref: `#/definitions/${metas[DEFINITION_META]}` };
  const flags = (described.flags ?? {}) as Record<string, unknown>;
  const out: SwaggerSchema = {};
  switch (described.type) {
    case 'string':
      Object.assign(out, { type: 'string' }, rulesOf(described, STRING_RULES));
      break;
    case 'number':
      Object.assign(out, { type: 'number' }, rulesOf(described, NUMBER_RULES));
      break;
    case 'boolean':
      out.type = 'boolean';
      break;
    case 'array':
      Object.assign(out, { type: 'array' }, rulesOf(described, ARRAY_RULES));
      if (described.items?.[0]) out.items = fromDescription(described.items[0], true);
      break;
    case 'object': {
      out.type = 'object';
      const keys = Object.entries((described.keys ?? {}) as Record<string, Description>);
      const requiredKeys = keys
        .filter(([, key]) => (key.flags as Record<string, unknown> | undefined)?.presence === 'required')
        .map(([name]) => name);
      if (requiredKeys.length) out.required = requiredKeys;
      if (keys.length)
        out.properties = Object.fromEntries(keys.map(([name, key]) => [name, fromDescription(key, true)]));
      const valuesOfAnyKey = (described.patterns as { rule: Description }[] | undefined)?.[0]?.rule;
      if (valuesOfAnyKey) out.additionalProperties = fromDescription(valuesOfAnyKey, true);
      break;
    }
    case 'any':
    case 'alternatives':
      break;
    default:
      throw new Error(`no Swagger 2.0 reading of a Joi ${described.type}`);
  }
  // `.when()` alternatives are left out: Swagger 2.0 cannot state them, the description says them in words.
  const allowed = (described.allow ?? []) as unknown[];
  if (flags.only) out.enum = allowed.filter((value) => value !== null && typeof value !== 'object');
  if (allowed.includes(null)) out['x-nullable'] = true;
  if (flags.default !== undefined && typeof flags.default !== 'object') out.default = flags.default;
  if (flags.description) out.description = flags.description;
  if (described.examples?.length) out.example = described.examples[0];
  // Every swaggerOnly along the chain counts, the later over the earlier (a shared field's, then its user's).
  const swaggerKeys = Object.assign({}, ...metaList.map((meta) => meta[SWAGGER_META] ?? {})) as SwaggerSchema;
  for (const [key, value] of Object.entries(swaggerKeys)) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}

/** The Swagger 2.0 schema of a declaration; a named one is given whole here (its holders get a $ref). */
export function swaggerOf(schema: Schema): SwaggerSchema {
  return fromDescription(schema.describe(), false);
}

function definitionName(schema: Schema): string {
  const named = (schema.describe().metas ?? []).find((meta: Record<string, unknown>) => meta[DEFINITION_META]);
  if (!named) throw new Error('a definition needs a name: declare it with definition(name, schema)');
  return named[DEFINITION_META];
}

/** The `definitions` entries of named declarations, keyed by their names. */
export function swaggerDefinitions(...schemas: Schema[]): Record<string, SwaggerSchema> {
  return Object.fromEntries(schemas.map((schema) => [definitionName(schema), swaggerOf(schema)]));
}

/** The `$ref` to a named declaration, for an operation's answer or body parameter. */
export function swaggerRef(schema: Schema): { $ref: string } {
  return { $ref: `#/definitions/${definitionName(schema)}` };
}

/** A body checked outside celebrate (after a signature over its raw bytes): each bad field to its messages. */
export function fieldErrorsOf(error: ValidationError): Record<string, string[]> {
  // No prototype: a field named __proto__ or constructor (hostile input) is just another key.
  const fields: Record<string, string[]> = Object.create(null);
  for (const detail of error.details) (fields[detail.path.join('.') || 'non_field_errors'] ??= []).push(detail.message);
  return fields;
}

/** A body validated by its declaration without throwing, for a service that has checks of its own to add. */
export interface CheckedBody<T> {
  /** The keys the schema accepted, converted (defaults filled); a key it refused is left out. */
  value: Partial<T>;
  /** What the schema refused, keyed as celebrate's answers are: the dotted path, or non_field_errors. */
  fields: Record<string, string[]>;
}

/**
 * Validates `body` with `schema` and keeps going: the caller runs the checks no schema can state
 * (the clock, a card's decryption, the store) on the keys the schema accepted, adds their messages
 * to `fields`, and answers every bad field in one 400 (issue 30, item 7).
 */
export function checkBody<S extends Schema>(schema: S, body: unknown): CheckedBody<ValueOf<S>> {
  const { value, error } = schema.validate(body, { abortEarly: false });
  const fields = error ? fieldErrorsOf(error) : Object.create(null);
  const refusedKeys = new Set((error?.details ?? []).map((detail) => String(detail.path[0])));
  const accepted =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([key]) => !refusedKeys.has(key)))
      : {};
  return { value: accepted as Partial<ValueOf<S>>, fields };
}
