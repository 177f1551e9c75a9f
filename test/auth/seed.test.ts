import '../helpers/env';
import test from 'ava';
import { json } from '../helpers/app';
import { bearer } from '../helpers/identity';
import { startChargebackStack, type ChargebackStack } from '../chargebacks/stack';
import { DEMO_ESTABLISHMENT, describeDemo, describeSecretLocations, seedIfEmpty } from '../../src/devstack/seed';
import { MerchantModel } from '../../src/merchants/model';
import { getConfig } from '../../config';
import { LOCAL_SECRETS_FILE } from '../../config/local-secrets';
import { send } from '../helpers/http';

// The chargeback stack: our app in this process and the acquirer sandbox as a real process.
let stack: ChargebackStack;
test.before(async () => {
  stack = await startChargebackStack();
});
test.after.always(() => stack?.close());

// One test: the seed acts only on an empty database, so its steps must run in this order.
test.serial(
  'the demo seed fills an empty database once, with working credentials and a sandbox establishment',
  async (t) => {
    const demo = await seedIfEmpty();
    t.truthy(demo);
    const printed = describeDemo(demo!, stack.url);
    t.true(printed.includes(demo!.password) && printed.includes(demo!.merchant_token));
    t.true(printed.includes('card:encrypt') && printed.includes(DEMO_ESTABLISHMENT), printed);

    const login = await send(
      stack,
      'POST',
      '/api/token/',
      { 'content-type': 'application/json' },
      { username: demo!.email, password: demo!.password },
    );
    t.is(login.status, 200);
    const me = await json(await send(stack, 'GET', '/api/v1/me/', bearer((await json(login)).access)));
    t.like(me, { id: demo!.merchant_id, username: demo!.login, establishment_numbers: [DEMO_ESTABLISHMENT] });
    const viaToken = await json(await send(stack, 'GET', '/api/v1/me/', bearer(demo!.merchant_token)));
    t.is(viaToken.id, demo!.merchant_id);

    // Chargebacks work for the demo merchant at once: its establishment has the sandbox's generated cases.
    const consult = await send(
      stack,
      'POST',
      '/api/v1/acquirer/chargeback/consult/?status=PENDING',
      bearer(demo!.merchant_token),
      { establishmentNumber: [Number(DEMO_ESTABLISHMENT)] },
    );
    t.is(consult.status, 200);
    const cases = (await json(consult)).content as { establishmentNumber: number; idChargeback: number }[];
    t.is(cases.length, 4);
    t.true(cases.every((c) => String(c.establishmentNumber) === DEMO_ESTABLISHMENT));
    const accept = await send(stack, 'PUT', '/api/v1/acquirer/chargeback/accept/', bearer(demo!.merchant_token), {
      updateChargeback: [{ establishmentNumber: Number(DEMO_ESTABLISHMENT), idChargeback: cases[0].idChargeback }],
      userName: demo!.email,
    });
    t.is(accept.status, 200, await accept.clone().text());

    t.is(await seedIfEmpty(), null, 'a second start creates nothing');
    t.is(await MerchantModel.countDocuments({}), 1);
  },
);

test('npm start says where the system token and the dashboard password are, never their values', (t) => {
  const config = getConfig();
  const secrets = [config.systemToken, config.dashboard.password];
  const development = describeSecretLocations({ ...config, nodeEnv: 'development' }, {});
  t.true(development.includes('.data/local-secrets.json'), development);
  t.regex(development, /SYSTEM_TOKEN in \S*local-secrets\.json/);
  t.regex(development, /user "ops", password DASHBOARD_PASSWORD in \S*local-secrets\.json/);
  for (const secret of secrets) t.false(development.includes(secret));

  const fromEnvironment = describeSecretLocations(
    { ...config, nodeEnv: 'development' },
    { SYSTEM_TOKEN: 'x'.repeat(40) },
  );
  t.regex(fromEnvironment, /system token .*: the SYSTEM_TOKEN environment variable/);

  // Production output may end up in a log file: names of variables only, not the file, not the user.
  const production = describeSecretLocations(
    { ...config, nodeEnv: 'production', dashboard: { user: 'ops-secret-name', password: 'p'.repeat(20) } },
    {},
  );
  t.regex(production, /SYSTEM_TOKEN and DASHBOARD_PASSWORD come from the environment/);
  for (const hidden of [...secrets, 'p'.repeat(20), 'ops-secret-name', LOCAL_SECRETS_FILE, 'local-secrets'])
    t.false(production.includes(hidden), hidden);
});
