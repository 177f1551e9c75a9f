import test from 'ava';
import {
  definition,
  field,
  nullable,
  required,
  swaggerDefinitions,
  swaggerOf,
  swaggerOnly,
  swaggerRef,
  withDefault,
  type ValueOf,
} from '../../src/http/schema';

const INTEGER = 'A valid integer is required.';

const item = definition(
  'Item',
  field.object({
    sku: required(field.string().max(20).description('Stock keeping unit')),
    note: nullable(field.string()),
  }),
);

const order = definition(
  'Order',
  field
    .object({
      kind: required(field.oneOf(['card', 'pix']).messages({ 'any.only': 'Must be card or pix.' })),
      value: required(
        field.number().strict().integer().min(1).messages({ 'number.base': INTEGER, 'number.integer': INTEGER }),
      ),
      count: withDefault(field.number().strict().integer().min(1).max(12), 1),
      reference: swaggerOnly(field.string().trim().max(4096), { maxLength: null, 'x-kept': true }),
      items: field.array(item),
      paid_at: nullable(field.dateTime()),
    })
    .messages({ 'object.unknown': 'Unknown field.' }),
);

type Order = ValueOf<typeof order>;

test('the declaration validates with its own messages, and the value has its defaults', (t) => {
  const { error } = order.validate({ kind: 'boleto', value: 1.5, extra: 1 }, { abortEarly: false });
  t.deepEqual(
    error?.details.map((detail) => [detail.path.join('.'), detail.message]),
    [
      ['kind', 'Must be card or pix.'],
      ['value', INTEGER],
      ['extra', 'Unknown field.'],
    ],
  );
  // validate() itself is typed: no annotation needed for the compiler to know the keys.
  const validated = order.validate({ kind: 'pix', value: 100 }).value;
  t.is(validated?.count satisfies number | undefined, 1);
  t.deepEqual(validated, { kind: 'pix', value: 100, count: 1 });
});

test('the same declaration gives its Swagger 2.0 definition, a held definition as a $ref', (t) => {
  t.deepEqual(swaggerDefinitions(order, item), {
    Order: {
      type: 'object',
      required: ['kind', 'value'],
      properties: {
        kind: { type: 'string', enum: ['card', 'pix'] },
        value: { type: 'integer', minimum: 1 },
        count: { type: 'integer', minimum: 1, maximum: 12, default: 1 },
        reference: { type: 'string', 'x-kept': true },
        items: { type: 'array', items: { $ref: '#/definitions/Item' } },
        paid_at: { type: 'string', format: 'date-time', 'x-nullable': true },
      },
    },
    Item: {
      type: 'object',
      required: ['sku'],
      properties: {
        sku: { type: 'string', maxLength: 20, description: 'Stock keeping unit' },
        note: { type: 'string', 'x-nullable': true },
      },
    },
  });
  t.deepEqual(swaggerOf(field.object({ ok: field.boolean() })), {
    type: 'object',
    properties: { ok: { type: 'boolean' } },
  });
  t.deepEqual(
    swaggerOf(field.object({ cep: field.string().pattern(/^\d{5}$/), lines: field.record(field.string()) })),
    {
      type: 'object',
      properties: {
        cep: { type: 'string', pattern: '^\\d{5}$' },
        lines: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
  );
  t.deepEqual(swaggerOf(field.array(field.number().integer().min(1)).min(1).max(1000)), {
    type: 'array',
    minItems: 1,
    maxItems: 1000,
    items: { type: 'integer', minimum: 1 },
  });
  // A shared field's Swagger-only keys stay when its user adds its own.
  const shared = swaggerOnly(field.string().allow(null), { 'x-nullable': null });
  t.deepEqual(swaggerOf(swaggerOnly(shared.email(), { example: 'a@b.co' })), {
    type: 'string',
    format: 'email',
    example: 'a@b.co',
  });
});

test('the same declaration gives the TypeScript type: required keys, defaults filled, literals, null', (t) => {
  const order: Order = { kind: 'card', value: 1, count: 2, items: [{ sku: 'a', note: null }], paid_at: null };
  // @ts-expect-error a required key left out
  const noValue: Order = { kind: 'card', count: 1 };
  // @ts-expect-error a value outside the declared ones
  const boleto: Order = { kind: 'boleto', value: 1, count: 1 };
  // @ts-expect-error not nullable
  const nullSku: ValueOf<typeof item> = { sku: null };
  t.truthy(order && noValue && boleto && nullSku);
});

test('a key made required by bare Joi is refused: the type would not know it', (t) => {
  t.throws(() => field.object({ value: field.number().required() }), { message: /key value: declare required/ });
  t.throws(() => field.object({ count: field.number().default(1) }), { message: /key count/ });
});

test('either validates by its choices, derives no Swagger (2.0 has no oneOf), and types the union', (t) => {
  const code = swaggerOnly(
    field.either(field.number(), field.string().max(3)).messages({ 'alternatives.types': 'A number or a text.' }),
    { type: 'integer' },
  ).description('Brand code');
  t.deepEqual(swaggerOf(code), { type: 'integer', description: 'Brand code' });
  t.is(code.validate(7).error, undefined);
  t.is(code.validate('abc').error, undefined);
  t.is(code.validate(true).error?.message, 'A number or a text.');
  const value: ValueOf<typeof code> = 'abc';
  // @ts-expect-error neither a number nor a string
  const flag: ValueOf<typeof code> = true;
  t.truthy(value && flag);
});

test('an operation refers to a named declaration by its name; an unnamed one has none to refer to', (t) => {
  t.deepEqual(swaggerRef(item), { $ref: '#/definitions/Item' });
  t.throws(() => swaggerRef(field.object({ ok: field.boolean() })), { message: /a definition needs a name/ });
});
