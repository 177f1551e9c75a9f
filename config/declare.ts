/**
 * How a configuration variable is declared: once, with its environment name, Joi schema, default, doc text and
 * whether it is a secret. The declarations form a tree shaped like the typed config object, so the object's type
 * is read off the tree (ConfigValues) rather than written a second time.
 */
import { Joi } from 'celebrate';

/** What Joi hands back for an environment variable: numbers converted, everything else text. */
export type Validated = string | number;

/** Every variable's validated value by its environment name, for the few fields that depend on another variable. */
export type ValidatedByName = Readonly<Record<string, Validated>>;

export interface Variable<
  Value = unknown,
  Env extends string = string,
  Secret extends boolean = boolean,
  Generated extends boolean = boolean,
> {
  kind: 'variable';
  env: Env;
  schema: Joi.AnySchema;
  /** Undefined for a secret with no fallback: generated locally, required in production. */
  default: Validated | undefined;
  doc: string;
  secret: Secret;
  /**
   * Whether a local run generates the secret (.data/local-secrets.json). Not for a credential of a service the
   * developer runs (a local Redis has no password): such a secret keeps its default locally.
   */
  generatedLocally: Generated;
  /** Markdown links appended to the doc text in docs/configuration.md (never in error messages). */
  see: string | undefined;
  /** An explicitly empty value is kept rather than replaced by the default. */
  emptyIsAValue: boolean;
  parse: (validated: never, others: ValidatedByName) => Value;
}

/** A field computed from several variables (declared inside it, so each is still declared once). */
export interface Combined<Value = unknown, Parts extends Declarations = Declarations> {
  kind: 'combined';
  parts: Parts;
  make: (values: never) => Value;
}

export type Declarations = Variable | Combined | { readonly [field: string]: Declarations };

/** The typed config object a tree of declarations gives. */
export type ConfigValues<Tree> =
  Tree extends Variable<infer Value>
    ? Value
    : Tree extends Combined<infer Value>
      ? Value
      : { -readonly [Field in keyof Tree]: ConfigValues<Tree[Field]> };

/** The environment names of the secrets a local run generates, declared in a tree. */
export type SecretNames<Tree> =
  Tree extends Variable<unknown, infer Env, true, true>
    ? Env
    : Tree extends Variable
      ? never
      : Tree extends Combined<unknown, infer Parts>
        ? SecretNames<Parts>
        : { [Field in keyof Tree]: SecretNames<Tree[Field]> }[keyof Tree];

export function variable<
  const Env extends string,
  Raw extends Validated,
  Value = Raw,
  const Secret extends boolean = false,
  const Generated extends boolean = Secret,
>(
  declaration: {
    env: Env;
    schema: Joi.AnySchema<Raw>;
    default?: Raw;
    doc: string;
    secret?: Secret;
    /** For a secret: false when a local run keeps its default instead of generating one. */
    generatedLocally?: Generated;
    see?: string;
    emptyIsAValue?: boolean;
    /** Turns the validated text or number into the field's value; the identity when absent. */
    parse?: (validated: Raw, others: ValidatedByName) => Value;
  },
  // NoInfer: inside combine() the expected return type would otherwise infer Value as unknown when parse is absent.
): Variable<NoInfer<Value>, Env, Secret, Generated> {
  return {
    kind: 'variable',
    env: declaration.env,
    schema: declaration.schema,
    default: declaration.default,
    doc: declaration.doc,
    secret: (declaration.secret ?? false) as Secret,
    generatedLocally: (declaration.generatedLocally ?? declaration.secret ?? false) as Generated,
    see: declaration.see,
    emptyIsAValue: declaration.emptyIsAValue ?? false,
    parse: declaration.parse ?? ((validated: Raw) => validated as unknown as Value),
  };
}

export function combine<const Parts extends Declarations, Value>(
  parts: Parts,
  make: (values: ConfigValues<Parts>) => Value,
): Combined<Value, Parts> {
  return { kind: 'combined', parts, make };
}

/** Every variable of a tree, in the order declared (the order of validation, of problems and of the docs table). */
export function variablesOf(tree: Declarations): Variable[] {
  if (isVariable(tree)) return [tree];
  if (isCombined(tree)) return variablesOf(tree.parts);
  return Object.values(tree).flatMap(variablesOf);
}

/** The config object of a tree, from every variable's validated value. */
export function valuesOf<Tree extends Declarations>(tree: Tree, validated: ValidatedByName): ConfigValues<Tree> {
  return build(tree, validated) as ConfigValues<Tree>;
}

function build(tree: Declarations, validated: ValidatedByName): unknown {
  if (isVariable(tree))
    return (tree.parse as (value: Validated, others: ValidatedByName) => unknown)(validated[tree.env], validated);
  if (isCombined(tree)) return (tree.make as (values: unknown) => unknown)(build(tree.parts, validated));
  return Object.fromEntries(Object.entries(tree).map(([field, part]) => [field, build(part, validated)]));
}

function isVariable(tree: Declarations): tree is Variable {
  return (tree as Variable).kind === 'variable';
}

function isCombined(tree: Declarations): tree is Combined {
  return (tree as Combined).kind === 'combined';
}
