/**
 * The admin CLI on a developer's machine: which database it talks to when running `npm start` stacks are recorded
 * (src/devstack/stacks.ts; the real stacks are in services.test.ts), and merchant:delete, which undoes a mistaken
 * merchant:create in a local database and is refused in production, on a database elsewhere and for a merchant with
 * business records. Through the real CLI process and this file's database.
 */
import '../helpers/env';
import test from 'ava';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { runCli, type CommandResult } from '../helpers/processes';
import { MerchantTokenModel, UserModel } from '../../src/auth/model';
import { MerchantModel } from '../../src/merchants/model';
import { EstablishmentOwnerModel } from '../../src/merchants/establishments';
import { recordStack, runningStacks, stackForCli, type StackRecord } from '../../src/devstack/stacks';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(() => app?.close());

/** The one JSON line a successful command prints. */
function answer(t: import('ava').ExecutionContext, result: CommandResult): any {
  t.is(result.code, 0, result.stderr);
  return JSON.parse(result.stdout.trim());
}

/** The JSON error line a refused command prints last on stderr. */
function refusal(t: import('ava').ExecutionContext, result: CommandResult): string {
  t.is(result.code, 1, result.stdout);
  return JSON.parse(result.stderr.trim().split('\n').pop()!).error;
}

async function createMerchant(t: import('ava').ExecutionContext, establishment: string) {
  const tag = crypto.randomBytes(4).toString('hex');
  const created = answer(
    t,
    await runCli([
      'merchant:create',
      '--name',
      `Engano ${tag} LTDA`,
      '--email',
      `engano-${tag}@example.com`,
      '--login',
      `engano${tag}`,
      '--password',
      'correct horse battery',
      '--establishment',
      establishment,
    ]),
  );
  return { ...created, tag };
}

const anEstablishment = () => String(crypto.randomInt(1e9, 9e9));

test('merchant:delete removes a merchant created by mistake, its users, tokens and establishments', async (t) => {
  const establishment = anEstablishment();
  const created = await createMerchant(t, establishment);
  const issued = answer(t, await runCli(['merchant:token', '--merchant', String(created.merchant_id)]));
  t.is((await callJson(app, 'GET', '/api/v1/me/', bearer(issued.token))).status, 200);

  const deleted = answer(t, await runCli(['merchant:delete', '--merchant', String(created.merchant_id)]));
  t.deepEqual(deleted, {
    merchant_id: created.merchant_id,
    company_name: created.company_name,
    users_deleted: 1,
    tokens_deleted: 1,
    establishment_numbers_released: [establishment],
    deleted: true,
  });
  t.is(await MerchantModel.countDocuments({ _id: created.merchant_id }), 0);
  t.is(await UserModel.countDocuments({ merchantId: created.merchant_id }), 0);
  t.is(await MerchantTokenModel.countDocuments({ merchantId: created.merchant_id }), 0);
  t.is(await EstablishmentOwnerModel.countDocuments({ _id: establishment }), 0);
  t.is((await callJson(app, 'GET', '/api/v1/me/', bearer(issued.token))).status, 401);
  // Its e-mail, login and establishment are free again.
  const again = answer(
    t,
    await runCli([
      'merchant:create',
      '--name',
      'Engano LTDA',
      '--email',
      created.email,
      '--login',
      created.login,
      '--password',
      'correct horse battery',
      '--establishment',
      establishment,
    ]),
  );
  t.not(again.merchant_id, created.merchant_id);
  t.regex(
    refusal(t, await runCli(['merchant:delete', '--merchant', String(created.merchant_id)])),
    new RegExp(`No merchant ${created.merchant_id}`),
  );
});

test('merchant:delete refuses a merchant with business records, production and a database elsewhere', async (t) => {
  const created = await createMerchant(t, anEstablishment());
  const { token } = answer(t, await runCli(['merchant:token', '--merchant', String(created.merchant_id)]));
  const link = await callJson(app, 'POST', '/api/v1/payment-links/', bearer(token), { value: 1500 });
  t.is(link.status, 201, link.text);
  const id = String(created.merchant_id);
  t.regex(
    refusal(t, await runCli(['merchant:delete', '--merchant', id])),
    new RegExp(`merchant ${id} has payment links: merchant:delete removes only a merchant with none`),
  );
  t.regex(
    refusal(
      t,
      await runCli(['merchant:delete', '--merchant', id], { env: { ...process.env, NODE_ENV: 'production' } }),
    ),
    /merchant:delete is for local databases: refused with NODE_ENV=production/,
  );
  const elsewhere = { ...process.env, MONGODB_URI: 'mongodb://db.internal:27017/payments' };
  t.regex(
    refusal(t, await runCli(['merchant:delete', '--merchant', id], { env: elsewhere })),
    /MONGODB_URI names a database on another machine/,
  );
  t.is(await MerchantModel.countDocuments({ _id: created.merchant_id }), 1);
  t.is(await UserModel.countDocuments({ merchantId: created.merchant_id }), 1);
});

const stack = (pid: number, instance: string, database: string): StackRecord => ({
  pid,
  instance,
  mongodbUri: `mongodb://127.0.0.1:27017/${database}`,
  queuePrefix: instance ? `pay-${instance}` : 'pay',
  publicBaseUrl: 'http://127.0.0.1:3000',
  startedAt: new Date(pid).toISOString(),
});

test('the CLI follows the one running stack; INSTANCE or MONGODB_URI set wins; several stacks need a choice', (t) => {
  const nc3 = stack(101, 'nc3', 'payments-nc3');
  const first = stack(102, '', 'payments');
  t.deepEqual(stackForCli({}, []), { kind: 'none running' });
  t.like(stackForCli({}, [nc3]), { kind: 'running', stack: nc3 });
  // Two stacks on one database are one choice.
  t.like(stackForCli({}, [nc3, { ...nc3, pid: 103 }]), { kind: 'running', stack: nc3 });
  for (const env of [{ INSTANCE: 'nc3' }, { INSTANCE: '' }, { MONGODB_URI: 'mongodb://127.0.0.1/x' }])
    t.deepEqual(stackForCli(env, [nc3, first]), { kind: 'as set' }, JSON.stringify(env));
  const several = stackForCli({}, [nc3, first]);
  t.is(several.kind, 'ambiguous');
  if (several.kind === 'ambiguous') {
    t.regex(several.message, /INSTANCE=nc3: database payments-nc3, http:\/\/127\.0\.0\.1:3000, pid 101/);
    t.regex(several.message, /the default stack \(INSTANCE unset\): database payments, .*pid 102/);
    t.regex(several.message, /INSTANCE= for the default stack/);
  }
});

test('a stack records itself while it runs; a record whose process is gone is dropped', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stacks-'));
  try {
    const details = { instance: 'nc3', mongodbUri: 'mongodb://127.0.0.1/payments-nc3', queuePrefix: 'pay-nc3' };
    const forget = recordStack({ ...details, publicBaseUrl: 'http://127.0.0.1:3940' }, dir, 4242);
    recordStack({ ...details, publicBaseUrl: 'http://127.0.0.1:3950' }, dir, 4343);
    t.deepEqual(
      runningStacks(dir, (pid) => pid === 4242).map((s) => [s.pid, s.instance]),
      [[4242, 'nc3']],
    );
    t.deepEqual(fs.readdirSync(dir), ['4242.json'], 'the dead stack is forgotten');
    forget();
    t.deepEqual(
      runningStacks(dir, () => true),
      [],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
