import '../helpers/env';
import './high-token-limit';
import crypto from 'node:crypto';
import test from 'ava';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { bearer } from '../helpers/identity';
import { runCli, type CommandResult } from '../helpers/processes';
import { MerchantTokenModel, UserModel } from '../../src/auth/model';
import { MerchantModel } from '../../src/merchants/model';
import { send } from '../helpers/http';

type CliResult = CommandResult;

/** The one JSON line a successful command prints. */
function answer(t: { is: (a: unknown, b: unknown, m?: string) => void }, result: CliResult): any {
  t.is(result.code, 0, result.stderr);
  const lines = result.stdout.split('\n').filter(Boolean);
  t.is(lines.length, 1, `one line expected, got: ${result.stdout}`);
  return JSON.parse(lines[0]);
}

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(() => app?.close());

const tag = () => crypto.randomBytes(4).toString('hex');

async function login(email: string, password: string) {
  const res = await send(
    app,
    'POST',
    '/api/token/',
    { 'content-type': 'application/json' },
    { username: email, password },
  );
  return { status: res.status, body: await json(res) };
}

test('merchant:create, token, set and revoke-token, end to end', async (t) => {
  const id = tag();
  const email = `Owner-${id}@Loja.com.br`;
  const created = answer(
    t,
    await cli([
      'merchant:create',
      '--name',
      'Loja Azul LTDA',
      '--email',
      email,
      '--login',
      `azul${id}`,
      '--password',
      'correct horse battery',
      '--establishment',
      '1020304050',
    ]),
  );
  t.true(Number.isInteger(created.merchant_id) && Number.isInteger(created.user_id));
  t.is(created.email, email.toLowerCase());

  const stored = await UserModel.findById(created.user_id).lean();
  t.is(stored!.merchantId, created.merchant_id);
  t.false(JSON.stringify(stored).includes('correct horse battery'), 'the password is stored only as a hash');

  const { status, body: pair } = await login(email, 'correct horse battery');
  t.is(status, 200);
  const me = await json(await send(app, 'GET', '/api/v1/me/', bearer(pair.access)));
  t.like(me, {
    id: created.merchant_id,
    username: `azul${id}`,
    company_name: 'Loja Azul LTDA',
    allow_void_on_confirmed: false,
    establishment_numbers: ['1020304050'],
  });

  const issued = answer(t, await cli(['merchant:token', '--merchant', String(created.merchant_id)]));
  t.regex(issued.token, /^mt_/);
  t.true(issued.token.startsWith(issued.prefix));
  t.is(
    await MerchantTokenModel.countDocuments({ merchantId: created.merchant_id, _id: issued.token }),
    0,
    'the token itself is not stored',
  );
  t.is((await send(app, 'GET', '/api/v1/me/', bearer(issued.token))).status, 200);

  const set = answer(
    t,
    await cli([
      'merchant:set',
      '--merchant',
      String(created.merchant_id),
      '--allow-void-on-confirmed',
      'true',
      '--establishment',
      '999000111',
    ]),
  );
  t.deepEqual(set, {
    merchant_id: created.merchant_id,
    company_name: 'Loja Azul LTDA',
    allow_void_on_confirmed: true,
    establishment_numbers: ['1020304050', '999000111'],
  });
  t.true((await MerchantModel.findById(created.merchant_id).lean())!.settings.allowVoidOnConfirmed);
  const meAfter = await json(await send(app, 'GET', '/api/v1/me/', bearer(issued.token)));
  t.is(meAfter.allow_void_on_confirmed, true);

  const listed = answer(t, await cli(['merchant:tokens', '--merchant', String(created.merchant_id)]));
  t.deepEqual(
    listed.tokens.map((x: { prefix: string; revoked_at: unknown }) => [x.prefix, x.revoked_at]),
    [[issued.prefix, null]],
  );

  const revoked = answer(
    t,
    await cli(['merchant:revoke-token', '--merchant', String(created.merchant_id), '--prefix', issued.prefix]),
  );
  t.deepEqual(revoked, { merchant_id: created.merchant_id, revoked: 1 });
  t.is((await send(app, 'GET', '/api/v1/me/', bearer(issued.token))).status, 401);
  t.is(
    (await send(app, 'GET', '/api/v1/me/', bearer(pair.access))).status,
    200,
    'revoking tokens leaves user logins alone',
  );

  const off = answer(
    t,
    await cli([
      'merchant:set',
      '--merchant',
      String(created.merchant_id),
      '--allow-void-on-confirmed',
      'false',
      '--remove-establishment',
      '1020304050',
    ]),
  );
  t.like(off, { allow_void_on_confirmed: false, establishment_numbers: ['999000111'] });
});

test('merchant:revoke-token --all revokes every token of the merchant', async (t) => {
  const id = tag();
  const created = answer(
    t,
    await cli(
      [
        'merchant:create',
        '--name',
        'Loja Verde',
        '--email',
        `verde-${id}@example.com`,
        '--login',
        `verde${id}`,
        '--password-stdin',
      ],
      'from stdin 12345\n',
    ),
  );
  t.is(
    (await login(`verde-${id}@example.com`, 'from stdin 12345')).status,
    200,
    'the password came from stdin without its newline',
  );
  const tokens = [];
  for (let i = 0; i < 2; i++)
    tokens.push(answer(t, await cli(['merchant:token', '--merchant', String(created.merchant_id)])).token);
  t.deepEqual(answer(t, await cli(['merchant:revoke-token', '--merchant', String(created.merchant_id), '--all'])), {
    merchant_id: created.merchant_id,
    revoked: 2,
  });
  for (const token of tokens) t.is((await send(app, 'GET', '/api/v1/me/', bearer(token))).status, 401);
});

test('staff:create makes a staff user who logs in', async (t) => {
  const id = tag();
  const created = answer(
    t,
    await cli([
      'staff:create',
      '--email',
      `ops-${id}@plataforma.com.br`,
      '--login',
      `ops${id}`,
      '--password',
      'staff password 1',
    ]),
  );
  t.like(created, { role: 'staff', login: `ops${id}` });
  const { status, body } = await login(`ops-${id}@plataforma.com.br`, 'staff password 1');
  t.is(status, 200);
  t.like(await json(await send(app, 'GET', '/api/v1/me/', bearer(body.access))), {
    role: 'staff',
    id: null,
    username: `ops${id}`,
  });
});

test('failures print one json error line and exit non-zero', async (t) => {
  const id = tag();
  answer(
    t,
    await cli([
      'staff:create',
      '--email',
      `dup-${id}@example.com`,
      '--login',
      `dup${id}`,
      '--password',
      'long enough 1',
    ]),
  );
  const cases: [string[], number, RegExp][] = [
    [
      ['staff:create', '--email', `DUP-${id}@example.com`, '--login', `other${id}`, '--password', 'long enough 1'],
      1,
      /e-mail already exists/,
    ],
    [
      ['staff:create', '--email', `new-${id}@example.com`, '--login', `dup${id}`, '--password', 'long enough 1'],
      1,
      /login already exists/,
    ],
    [
      ['merchant:create', '--name', 'X', '--email', 'not-an-email', '--login', 'a b', '--password', 'short'],
      1,
      /"fields"/,
    ],
    [['merchant:token', '--merchant', '99999999'], 1, /No merchant/],
    [['merchant:token'], 2, /--merchant is required/],
    [['merchant:set', '--merchant', '1', '--allow-void-on-confirmed', 'maybe'], 2, /true or false/],
    [['merchant:revoke-token', '--merchant', '1'], 2, /--prefix/],
    [['nope:command'], 2, /unknown command/],
    [[], 2, /no command/],
    [['merchant:token', '--merchant', '1', '--bogus'], 2, /bogus/],
  ];
  const results = await Promise.all(cases.map(([args]) => cli(args)));
  for (const [index, [args, code, message]] of cases.entries()) {
    const result = results[index];
    t.is(result.code, code, args.join(' '));
    t.is(result.stdout, '', args.join(' '));
    const lines = result.stderr.split('\n').filter(Boolean);
    t.is(lines.length, 1, result.stderr);
    t.regex(JSON.parse(lines[0]).error + JSON.stringify(JSON.parse(lines[0])), message, args.join(' '));
  }
});

test('--help, -h and help print the usage on stdout and exit 0', async (t) => {
  for (const args of [['--help'], ['-h'], ['help'], ['merchant:token', '--help'], ['--bogus', '--help']]) {
    const result = await cli(args);
    t.is(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
    t.is(result.stderr, '', args.join(' '));
    t.regex(result.stdout, /^usage: npm run cli -- <command> \[options\]\n/, args.join(' '));
    for (const command of ['merchant:create', 'merchant:set', 'staff:create', 'card:encrypt'])
      t.true(result.stdout.includes(command), `${args.join(' ')} lists ${command}`);
  }
});

test('card:encrypt prints a card our service decrypts, with the key id', async (t) => {
  const { decryptCard, publicKeyId } = await import('../../src/cards');
  const year = new Date().getUTCFullYear() + 3;
  const card = ['--number', '4000000000000010', '--exp-month', '7', '--exp-year', String(year), '--cvv', '123'];
  const encrypted = answer(t, await cli(['card:encrypt', ...card, '--holder', 'ANA SOUZA']));
  t.is(encrypted.kid, publicKeyId());
  t.deepEqual(decryptCard(encrypted.encrypted_card), {
    number: '4000000000000010',
    holder: 'ANA SOUZA',
    expMonth: 7,
    expYear: year,
    cvv: '123',
  });

  // Another environment's key, from a file: encrypted for that key, which ours cannot read.
  const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const file = `${(await import('node:os')).tmpdir()}/card-key-${tag()}.pem`;
  (await import('node:fs')).writeFileSync(file, other.publicKey.export({ type: 'spki', format: 'pem' }));
  const foreign = answer(t, await cli(['card:encrypt', ...card, '--public-key-file', file]));
  t.not(foreign.kid, publicKeyId());
  const plain = crypto.privateDecrypt(
    { key: other.privateKey, padding: crypto.constants.RSA_NO_PADDING },
    Buffer.from(foreign.encrypted_card, 'base64'),
  );
  t.true(
    plain
      .subarray(plain.indexOf(0, 2) + 1)
      .toString()
      .startsWith('{"number":"4000000000000010","holder":"MARIA SILVA","expMonth":7'),
  );

  const missing = await cli(['card:encrypt', '--number', '4000000000000010']);
  t.is(missing.code, 2);
  t.regex(JSON.parse(missing.stderr).error, /--exp-month is required/);
});

function cli(args: string[], stdin?: string): Promise<CliResult> {
  return runCli(args, { env: { ...process.env, LOG_LEVEL: 'debug' }, stdin });
}
