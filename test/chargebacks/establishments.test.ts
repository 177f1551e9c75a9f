/**
 * Issue 15 item 6: one establishment number, one merchant. The review gave a second merchant the
 * first's establishment with `merchant:create --establishment`, and its token then listed the
 * first merchant's contested case.
 */
import '../helpers/env';
import crypto from 'node:crypto';
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app';
import { newMerchant } from '../helpers/identity';
import { runCli } from '../helpers/processes';
import { createMerchant, updateMerchant } from '../../src/auth/service';
import { UserModel } from '../../src/auth/model';
import { MerchantModel } from '../../src/merchants/model';
import { EstablishmentOwnerModel } from '../../src/merchants/establishments';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(() => app?.close());

const newEstablishment = () => `5${crypto.randomInt(100_000_000, 999_999_999)}`;
const tag = () => crypto.randomBytes(4).toString('hex');
const merchantInput = (establishmentNumbers: string[]) => {
  const id = tag();
  return {
    companyName: `Loja ${id}`,
    email: `o-${id}@example.com`,
    login: `o${id}`,
    password: `pw-${id}-Secret!`,
    establishmentNumbers,
  };
};

test('a second merchant cannot take an establishment that belongs to another, and leaves nothing behind', async (t) => {
  const ec = newEstablishment();
  const first = await newMerchant({ establishmentNumbers: [ec] });
  const input = merchantInput([newEstablishment(), ec]);
  const error = await t.throwsAsync(createMerchant(input));
  t.is((error as { status?: number }).status, 400);
  t.regex(error!.message, new RegExp(`Establishment number ${ec} already belongs to merchant ${first.merchantId}`));
  t.is(await UserModel.countDocuments({ login: input.login }), 0, 'no user');
  t.is(
    await MerchantModel.countDocuments({ establishmentNumbers: ec }),
    1,
    "the establishment stays the first merchant's only",
  );
  t.is(
    await EstablishmentOwnerModel.countDocuments({ _id: input.establishmentNumbers[0] }),
    0,
    'the other establishment of the refused call is free again',
  );
});

test('an establishment moves only once its merchant gives it up', async (t) => {
  const ec = newEstablishment();
  const first = await newMerchant({ establishmentNumbers: [ec] });
  const second = await newMerchant({ establishmentNumbers: [newEstablishment()] });
  await t.throwsAsync(updateMerchant(second.merchantId, { addEstablishmentNumbers: [ec] }), {
    message: new RegExp(`already belongs to merchant ${first.merchantId}`),
  });
  t.false((await MerchantModel.findById(second.merchantId).lean())!.establishmentNumbers.includes(ec));
  await updateMerchant(first.merchantId, { removeEstablishmentNumbers: [ec] });
  const moved = await updateMerchant(second.merchantId, { addEstablishmentNumbers: [ec] });
  t.true(moved.establishmentNumbers.includes(ec));
  t.is((await EstablishmentOwnerModel.findById(ec).lean())?.merchantId, second.merchantId);
  await updateMerchant(second.merchantId, { addEstablishmentNumbers: [ec] }); // its own again: no error
});

test('two merchants created at once with the same establishment: exactly one gets it', async (t) => {
  const ec = newEstablishment();
  const results = await Promise.allSettled([createMerchant(merchantInput([ec])), createMerchant(merchantInput([ec]))]);
  t.is(results.filter((r) => r.status === 'fulfilled').length, 1);
  t.is(await MerchantModel.countDocuments({ establishmentNumbers: ec }), 1);
});

test('an establishment listed by a merchant from before the ownership records is still taken', async (t) => {
  const ec = newEstablishment();
  const legacy = await newMerchant({ establishmentNumbers: [newEstablishment()] });
  await MerchantModel.updateOne({ _id: legacy.merchantId }, { $push: { establishmentNumbers: ec } });
  await t.throwsAsync(createMerchant(merchantInput([ec])), {
    message: new RegExp(`already belongs to merchant ${legacy.merchantId}`),
  });
});

test('the cli refuses it with a clear error', async (t) => {
  const ec = newEstablishment();
  const first = await newMerchant({ establishmentNumbers: [ec] });
  const id = tag();
  const result = await cli([
    'merchant:create',
    '--name',
    'Segunda LTDA',
    '--email',
    `s-${id}@example.com`,
    '--login',
    `s${id}`,
    '--password',
    'correct horse battery',
    '--establishment',
    ec,
  ]);
  t.is(result.code, 1);
  t.is(result.stdout, '');
  const printed = JSON.parse(result.stderr.trim().split('\n').pop()!);
  t.is(
    printed.error,
    `Establishment number ${ec} already belongs to merchant ${first.merchantId}; an establishment belongs to ` +
      `one merchant.`,
  );
});

const cli = (args: string[]) => runCli(args);
