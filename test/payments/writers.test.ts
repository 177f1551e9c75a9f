/**
 * src/payments holds the payment's models and alone writes its collections (issue 37). What the suite's processes
 * wrote is checked after the run (test/query-shapes/check.ts, with unlawfulWrites); here the imports are, and both
 * checks are shown to catch a breach.
 */
import test from 'ava';
import { writerOf } from '../instrumentation/query-shapes';
import { ROOT } from '../helpers/processes';
import {
  MODEL_USERS_UNTIL_MOVED,
  PAYMENT_COLLECTIONS,
  paymentModelsUsed,
  paymentModelUsers,
  isPermanentWriter,
  unlawfulWrites,
} from './writers';

const users = paymentModelUsers(ROOT);
const allowed = (file: string) => MODEL_USERS_UNTIL_MOVED.some((user) => user.file === file) || isPermanentWriter(file);

test("the payment's collections are known: the payment, its guards, its notices, its refunds", (t) => {
  for (const collection of ['online_sales', 'online_sale_transitions', 'acquirer_payment_notices', 'refunds'])
    t.true(PAYMENT_COLLECTIONS.has(collection), collection);
  t.false(PAYMENT_COLLECTIONS.has('payment_links'));
});

test('no file outside src/payments reaches its models, but those whose slice has not moved them yet', (t) => {
  t.deepEqual(
    [...users.keys()].filter((file) => !allowed(file)),
    [],
    'a new user of the payment models: call a service of src/payments instead',
  );
});

test('the list of files still using the models only shrinks: each listed file still uses them', (t) => {
  t.deepEqual(
    MODEL_USERS_UNTIL_MOVED.map((user) => user.file).filter((file) => !users.has(file)),
    [],
    'a file no longer uses the payment models: take it off MODEL_USERS_UNTIL_MOVED',
  );
});

test('the import check sees a model imported by value, renamed or by namespace, and a lookup by name', (t) => {
  const file = 'src/contacts/example.ts';
  const used = (source: string) => paymentModelsUsed(file, source, ROOT);
  t.deepEqual(used("import { PaymentModel, type Payment } from '../payments/model';"), ['PaymentModel']);
  t.deepEqual(used("import { RefundModel as Refunds } from '../payments/refund-model';"), ['RefundModel as Refunds']);
  t.deepEqual(used("import * as models from '../payments/model';"), ['* as models']);
  t.deepEqual(used("const sales = mongoose.model('OnlineSale');"), ['OnlineSale']);
  t.deepEqual(used("import type { Payment, PaymentStatus } from '../payments/model';"), [], 'types are vocabulary');
  t.deepEqual(used("import { PAYMENT_STATUSES } from '../payments/model';"), [], 'so are constants');
  t.deepEqual(used("import { PaymentLinkModel } from '../payment-links/model';"), []);
});

test('the write check names a write by another area, and lets src/payments, fixtures and listed files write', (t) => {
  const write = (writer: string, collection = 'online_sales') => ({ collection, command: 'update', writer });
  t.deepEqual(unlawfulWrites([write('src/checkout/settlement.ts')]), [write('src/checkout/settlement.ts')]);
  t.deepEqual(unlawfulWrites([write('src/sales/pre-capture.ts')]).length, 1, 'src/sales writes through src/payments');
  t.deepEqual(unlawfulWrites([write('src/subscriptions/charging.ts', 'refunds')]).length, 1);
  t.deepEqual(
    unlawfulWrites([
      write('src/payments/model.ts'),
      write('test/refunds/refunds.test.ts'),
      write('src/refunds/sending.ts'),
      write('src/events/outbox.ts'),
      write('src/db/migrations/0001-sweep-flags.ts'),
      write('src/checkout/settlement.ts', 'payment_links'),
      write('unknown'),
    ]),
    [],
  );
});

test('a write is told to the code that asked the store for it, not to the generic insert-once helper', (t) => {
  t.is(
    writerOf(['src/db/claims.ts:160', 'src/sales/transitions.ts:40', 'src/sales/operations.ts:90']),
    'src/sales/transitions.ts',
  );
  t.is(
    writerOf(['src/db/inserts.ts:110', 'src/db/claims.ts:40', 'src/refunds/admission.ts:99']),
    'src/refunds/admission.ts',
  );
  t.is(
    writerOf(['src/db/migrations/0001-sweep-flags.ts:60', 'workers/migrate.ts:40']),
    'src/db/migrations/0001-sweep-flags.ts',
  );
  t.is(writerOf([]), 'unknown');
});
