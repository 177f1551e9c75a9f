/**
 * The encryption examples of docs/cards.md, run exactly as written (read from the page), against our
 * app and the acquirer sandbox: each fetches the public key, encrypts a test card and pre-captures it.
 */
import '../helpers/env';
import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSalesEnv, type SalesEnv } from '../sales/helpers';
import { newMerchant, type TestMerchant } from '../helpers/identity';
import { runCommand, ROOT } from '../helpers/processes';
import { publicKeyId } from '../../src/cards';
import { PaymentModel } from '../../src/payments/model';

let env: SalesEnv;
let merchant: TestMerchant;
let workDir: string;
test.before(async () => {
  env = await startSalesEnv();
  merchant = await newMerchant();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'card-examples-'));
});
test.after.always(async () => {
  await env?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** The code block following `<!-- example: name -->` in docs/cards.md. */
function example(name: string): string {
  const page = fs.readFileSync(path.join(ROOT, 'docs', 'cards.md'), 'utf8');
  const match = new RegExp(`<!-- example: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(page);
  if (!match) throw new Error(`docs/cards.md has no ${name} example`);
  return match[1];
}

/** The example's sale was decrypted and approved by the sandbox, and we kept no more than brand, BIN and last four. */
async function assertApprovedSale(t: import('ava').ExecutionContext, answer: any) {
  t.is(answer.status, 'success', JSON.stringify(answer));
  t.true(answer.data.approved, JSON.stringify(answer));
  t.is(answer.data.sale_status, 'PRE_CAPTURED');
  t.deepEqual(answer.data.card, { brand: 'Visa', bin: '400000', last4: '0010' });
  const stored = await PaymentModel.findById(answer.data.id).lean();
  t.is(stored?.merchantId, merchant.merchantId);
  t.false(JSON.stringify(stored).includes('4000000000000010'));
}

test('the Node example (crypto.publicEncrypt, RSA_PKCS1_PADDING) makes an approved pre-capture', async (t) => {
  const file = path.join(workDir, 'encrypt-card.mjs');
  fs.writeFileSync(file, example('node'));
  const result = await run(process.execPath, [file]);
  t.is(result.code, 0, result.stderr);
  const printed = JSON.parse(result.stdout);
  t.is(printed.kid, publicKeyId());
  t.is(printed.status, 200);
  await assertApprovedSale(t, printed.sale);
});

test('the openssl pkeyutl example makes an approved pre-capture', async (t) => {
  const result = await run('bash', ['-euo', 'pipefail', '-c', example('openssl')]);
  t.is(result.code, 0, result.stderr);
  await assertApprovedSale(t, JSON.parse(result.stdout));
  t.true(fs.existsSync(path.join(workDir, 'card-key.pem')), 'the example saved the key it fetched');
});

const run = (command: string, args: string[]) =>
  runCommand(command, args, {
    cwd: workDir,
    env: { PATH: process.env.PATH, BASE_URL: env.app.url, TOKEN: merchant.merchantToken },
  });
