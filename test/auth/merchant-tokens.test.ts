/**
 * Revoking a merchant token deletes its record (the history is kept apart), so the copy of the
 * merchant that a token's record carries for /me can be rewritten by a merchant update without
 * any chance of writing a revoked token back as live (FerretDB writes an update back whole).
 */
import '../helpers/env';
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, newMerchant } from '../helpers/identity';
import { sha256Hex } from '../../src/platform/digests';
import { MerchantTokenModel, RevokedMerchantTokenModel } from '../../src/auth/model';
import { issueMerchantToken, listMerchantTokens, revokeMerchantTokens, updateMerchant } from '../../src/auth/service';
import { send } from '../helpers/http';

let app: TestApp;

test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.close();
});

async function meStatus(token: string): Promise<number> {
  const res = await send(app, 'GET', '/api/v1/me/', bearer(token));
  await res.arrayBuffer();
  return res.status;
}

test('a revoked token has no record left, is listed as revoked, and no merchant update brings it back', async (t) => {
  const merchant = await newMerchant();
  const kept = await issueMerchantToken(merchant.merchantId);
  t.is(await revokeMerchantTokens(merchant.merchantId, { prefix: merchant.merchantToken.slice(0, 10) }), 1);
  t.is(await MerchantTokenModel.findById(sha256Hex(merchant.merchantToken)).lean(), null);
  t.is(await meStatus(merchant.merchantToken), 401);

  await updateMerchant(merchant.merchantId, { companyName: 'Renomeada LTDA' });
  t.is(
    await MerchantTokenModel.findById(sha256Hex(merchant.merchantToken)).lean(),
    null,
    'the copy update wrote no record',
  );
  t.is(await meStatus(merchant.merchantToken), 401);
  t.is(await meStatus(kept.token), 200);

  const listed = await listMerchantTokens(merchant.merchantId);
  t.deepEqual(
    listed.map((x) => [x.prefix, x.revokedAt instanceof Date]),
    [
      [merchant.merchantToken.slice(0, 10), true],
      [kept.prefix, false],
    ],
  );
  t.is(
    await revokeMerchantTokens(merchant.merchantId, { prefix: merchant.merchantToken.slice(0, 10) }),
    0,
    'already revoked: nothing more',
  );
});

test('a revocation stopped before its delete leaves the token live and listed; revoking again ends it', async (t) => {
  const merchant = await newMerchant();
  const record = (await MerchantTokenModel.findById(sha256Hex(merchant.merchantToken)).lean())!;
  const { _id, prefix, createdAt } = record;
  await RevokedMerchantTokenModel.create({
    _id,
    merchantId: merchant.merchantId,
    prefix,
    createdAt,
    revokedAt: new Date(),
  });
  t.is(await meStatus(merchant.merchantToken), 200);
  t.deepEqual(
    (await listMerchantTokens(merchant.merchantId)).map((x) => x.revokedAt),
    [null],
  );

  t.is(await revokeMerchantTokens(merchant.merchantId, { all: true }), 1);
  t.is(await meStatus(merchant.merchantToken), 401);
  t.is((await listMerchantTokens(merchant.merchantId)).length, 1);
});

test(
  'a token revoked the old way (revokedAt on its record) stays refused, listed as revoked, and is not counted ' +
    'again',
  async (t) => {
    const merchant = await newMerchant();
    const revokedAt = new Date(Date.now() - 60_000);
    await MerchantTokenModel.updateOne({ _id: sha256Hex(merchant.merchantToken) }, { $set: { revokedAt } });
    t.is(await meStatus(merchant.merchantToken), 401);
    t.deepEqual(
      (await listMerchantTokens(merchant.merchantId)).map((x) => x.revokedAt?.getTime()),
      [revokedAt.getTime()],
    );
    t.is(await revokeMerchantTokens(merchant.merchantId, { all: true }), 0);
    t.is(await meStatus(merchant.merchantToken), 401);
  },
);
