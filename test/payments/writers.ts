/**
 * The rule of issue 37: src/payments is the only writer of a payment's collections (the payment, its guard documents,
 * its notices, its refunds and chargeback holds), and no file outside it holds their models. Two checks read this
 * file: test/foundation/layers.test.ts (who imports the models) and test/query-shapes/check.ts (who wrote, as the
 * suite's processes recorded it).
 *
 * Today's other users are listed, each with the slice of docs/design/one-payment.md that moves it into src/payments;
 * the list may only shrink: the import check fails on a file listed here that no longer uses the models.
 */
import fs from 'node:fs';
import path from 'node:path';
import mongoose, { type Model } from 'mongoose';
import { resolveImport, sourcesUnder } from '../helpers/import-graph';
import type { RecordedWrite } from '../instrumentation/query-shapes';
import * as payments from '../../src/payments/model';
import * as refunds from '../../src/payments/refund-model';

/** The files that define the payment's models. */
export const PAYMENT_MODEL_FILES = ['src/payments/model.ts', 'src/payments/refund-model.ts'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- models of every document type
type AnyModel = Model<any>;

const isModel = (value: unknown): value is AnyModel =>
  typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof mongoose.Model;

/** The names of the models those files export, and their collections. */
export const PAYMENT_MODELS: ReadonlyMap<string, string> = new Map(
  [...Object.entries(payments), ...Object.entries(refunds)]
    .filter(([, value]) => isModel(value))
    .map(([name, model]) => [name, (model as unknown as AnyModel).collection.collectionName]),
);
export const PAYMENT_COLLECTIONS: ReadonlySet<string> = new Set(PAYMENT_MODELS.values());
/** The names mongoose knows them by, which `mongoose.model(name)` looks up. */
const PAYMENT_MODEL_NAMES = ([...Object.values(payments), ...Object.values(refunds)] as unknown[])
  .filter(isModel)
  .map((model) => model.modelName);

/** Writers outside src/payments for good, with why. */
export const PERMANENT_WRITERS: ReadonlyArray<{ file: string; why: string }> = [
  {
    file: 'src/events/outbox.ts',
    why: "clears the owed-event fields of every model that owes events (the plugin's clearing), the payment's too",
  },
  {
    file: 'src/db/migrations/',
    why: "a migration moves documents an earlier release wrote into today's shape (the release step)",
  },
];

/** Files outside src/payments that still use the payment's models, until the slice named moves them. */
export const MODEL_USERS_UNTIL_MOVED: ReadonlyArray<{ file: string; slice: string }> = [
  // S4: a link's card pay and PIX codes become payments; S5: subscription charges do.
  { file: 'src/payment-links/sale.ts', slice: 'S4' },
  { file: 'src/checkout/pix.ts', slice: 'S4' },
  { file: 'src/sales/settled-sales.ts', slice: 'S5' },
  // S6: refunds and chargeback holds are written by src/payments/operations.
  ...[
    'admission',
    'cancel-capture',
    'chargebacks',
    'idempotency-keys',
    'notices',
    'origins',
    'reads',
    'sending',
    'subscription-charges',
    'sweeps',
  ].map((name) => ({ file: `src/refunds/${name}.ts`, slice: 'S6' })),
];

/** Whether `file` writes a payment's collections for good (a name ending in / stands for the files under it). */
export const isPermanentWriter = (file: string): boolean =>
  PERMANENT_WRITERS.some((writer) => (writer.file.endsWith('/') ? file.startsWith(writer.file) : writer.file === file));

/** Whether `file` may write a payment's collections today. */
export const mayWritePayments = (file: string): boolean =>
  file.startsWith('src/payments/') ||
  isPermanentWriter(file) ||
  MODEL_USERS_UNTIL_MOVED.some((user) => user.file === file);

const NAMED_IMPORT = /import\s+(type\s+)?(\*\s+as\s+\w+|\{[^}]*\})\s+from\s+(['"])(\.{1,2}\/[^'"]*)\3/g;
const MODEL_LOOKUP = /mongoose\.model\(\s*(['"])(\w+)\1\s*\)/g;

/** How `source` reaches a payment model: the model values it imports, and the models it looks up by name. */
export function paymentModelsUsed(file: string, source: string, root: string): string[] {
  const used: string[] = [];
  for (const [, typeOnly, names, , specifier] of source.matchAll(NAMED_IMPORT)) {
    if (typeOnly || !PAYMENT_MODEL_FILES.includes(resolveImport(root, file, specifier) ?? '')) continue;
    if (names.startsWith('*')) used.push(names);
    else
      for (const name of names
        .slice(1, -1)
        .split(',')
        .map((part) => part.trim()))
        if (!name.startsWith('type ') && PAYMENT_MODELS.has(name.split(/\s+as\s+/)[0])) used.push(name);
  }
  for (const [, , name] of source.matchAll(MODEL_LOOKUP)) if (PAYMENT_MODEL_NAMES.includes(name)) used.push(name);
  return used;
}

/** Every file of the service outside src/payments that reaches a payment model, with the models it reaches. */
export function paymentModelUsers(root: string): Map<string, string[]> {
  const users = new Map<string, string[]>();
  for (const file of ['src', 'jobs', 'workers', 'config'].flatMap((dir) => sourcesUnder(root, dir))) {
    if (file.startsWith('src/payments/')) continue;
    const used = paymentModelsUsed(file, fs.readFileSync(path.join(root, file), 'utf8'), root);
    if (used.length) users.set(file, used);
  }
  return users;
}

/**
 * A write whose stack holds no frame of ours: the driver sent it after an await that mongoose chains with `.then`,
 * where V8's async stack trace stops (seen on about one insert in 25 under the suite). It cannot be told to a file;
 * the import check covers the code that could have sent it.
 */
export const UNATTRIBUTED = 'unknown';

/** The recorded writes of a payment's collections by code that may not write them (test code writes fixtures). */
export const unlawfulWrites = (writes: readonly RecordedWrite[]): RecordedWrite[] =>
  writes.filter(
    (write) =>
      PAYMENT_COLLECTIONS.has(write.collection) &&
      write.writer !== UNATTRIBUTED &&
      !write.writer.startsWith('test/') &&
      !mayWritePayments(write.writer),
  );

/** The recorded writes of a payment's collections that no file could be named for. */
export const unattributedWrites = (writes: readonly RecordedWrite[]): RecordedWrite[] =>
  writes.filter((write) => PAYMENT_COLLECTIONS.has(write.collection) && write.writer === UNATTRIBUTED);
