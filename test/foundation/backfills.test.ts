import '../helpers/env';
import test from 'ava';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { BACKFILLS, runBackfills } from '../../src/db/backfills';
import { PaymentModel, PaymentNoticeModel } from '../../src/payments/model';
import '../../src/payment-links/model';
import '../../src/chargebacks/model'; // every area with a backfill is loaded, so each one runs

test.before(() => connectDatabase(process.env.MONGODB_URI!));
test.after.always(() => disconnectDatabase());

test.serial('documents stored before a sweep flag existed are marked once, and only those', async (t) => {
  const since = new Date(Date.now() - 3600_000);
  await PaymentModel.collection.insertMany([
    {
      _id: 91 as never,
      paymentMethod: 'card',
      status: 'PRE_CAPTURED',
      reconciliation: { operation: 'capture', fromStatus: 'PRE_CAPTURED', since, reason: 'old' },
    },
    { _id: 92 as never, paymentMethod: 'card', status: 'PRE_CAPTURED', reconciliation: null },
  ]);
  await PaymentNoticeModel.collection.insertMany([
    { _id: 'old-unapplied' as never, raw: '{}', paymentId: 'p1', changeType: 1, receivedAt: since, appliedAt: null },
    { _id: 'old-applied' as never, raw: '{}', paymentId: 'p2', changeType: 1, receivedAt: since, appliedAt: since },
  ]);
  const first = await runBackfills();
  t.is(Object.keys(first).length, BACKFILLS.length);
  t.is(first[BACKFILLS[0].name], 1);
  t.is(first[BACKFILLS[1].name], 1);
  t.true((await PaymentModel.findById(91).lean())!.reconciling === true);
  t.is(
    (await PaymentModel.findById(92).lean())!.reconciling,
    undefined,
    'a sale not under reconciliation is left as it was',
  );
  t.is((await PaymentNoticeModel.findById('old-unapplied').lean())!.applied, false);
  t.is((await PaymentNoticeModel.findById('old-applied').lean())!.applied, undefined);
  const second = await runBackfills();
  t.true(
    Object.values(second).every((count) => count === 0),
    'a second run marks nothing',
  );
});
