import '../helpers/env';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import mongoose from 'mongoose';
import { getConfig } from '../../config';
import { luhnValid } from '../../src/cards';
import { cardSaleBody, encryptedTestCard } from '../helpers/cards';
import { eventually, startProcess } from '../helpers/processes';
import { newMerchant, systemToken } from '../helpers/identity';
import { pdfWithPages } from '../chargebacks/files';
import { useServices } from '../helpers/services';
import { call, send } from '../helpers/http';

// A journey through every feature that handles a secret, across real processes at debug level,
// then a scan of every process's logs (and of the database) for the secrets it used. The other
// log scan (log-scan.test.ts) covers bad logins, clear cards sent by mistake and shared secrets;
// this one adds subscriptions, a chargeback refusal with a file, captures and the worker's jobs.

/** A Luhn-valid Visa number ending in 4 (approved by the sandbox) that no other test uses. */
function freshApprovedCard(): string {
  for (;;) {
    const body = `4${crypto.randomInt(10 ** 13, 10 ** 14 - 1)}`;
    for (let check = 0; check < 10; check++) {
      const number = `${body}${check}4`;
      if (luhnValid(number)) return number;
    }
  }
}

const CARD = freshApprovedCard();
const CVV = String(crypto.randomInt(100, 999));
const CHARGEBACK_EC = '3100000005';

useServices();

/** Every value in every collection of this test file's database, as one text. */
async function databaseText(): Promise<string> {
  const db = mongoose.connection.db!;
  const parts: string[] = [];
  for (const { name } of await db.listCollections().toArray()) {
    parts.push(JSON.stringify(await db.collection(name).find({}).toArray()));
  }
  return parts.join('\n');
}

test(
  'a journey through login, sales, links, checkout, subscriptions and a chargeback refusal leaves no secret in ' +
    'any log or the database',
  async (t) => {
    // The link's webhook goes to this test, so the worker has a job to run and the test knows when it ran.
    const hooks: string[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        hooks.push(body);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookPort = (receiver.address() as AddressInfo).port;
    t.teardown(() => receiver.close());
    const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0', LOG_LEVEL: 'debug' });
    const env = {
      ACQUIRER_BASE_URL: sandbox.url,
      ACQUIRER_QUERY_URL: sandbox.url,
      ACQUIRER_CHARGEBACK_BASE_URL: `${sandbox.url}/sandbox-cb/chargeback/v1`,
      ACQUIRER_CHARGEBACK_AUTH_URL: `${sandbox.url}/oauth/v2/sandbox/protocol/openid-connect/token`,
      WEBHOOK_TEST_ALLOW_HOSTS: `127.0.0.1:${hookPort}`,
      LOG_LEVEL: 'debug',
    };
    const [web, worker] = await Promise.all([startProcess('web', env), startProcess('worker', env)]);
    const merchant = await newMerchant({ establishmentNumbers: [CHARGEBACK_EC] });
    const card = () => encryptedTestCard({ number: CARD, cvv: CVV });
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    // Login and refresh: the user's password and both tokens go over the wire.
    const login = await call(web, 'POST', '/api/token/', {}, { username: merchant.email, password: merchant.password });
    t.is(login.status, 200, login.text);
    const { access, refresh } = login.body as { access: string; refresh: string };
    const refreshed = await call(web, 'POST', '/api/token/refresh/', {}, { refresh });
    t.is(refreshed.status, 200, refreshed.text);
    const newAccess = refreshed.body.access as string;
    t.is((await call(web, 'GET', '/api/v1/me/', bearer(newAccess))).status, 200);

    // Card sales with each credential kind, one captured and one cancelled.
    const cardSale = (value: number, installments: number) => cardSaleBody(card(), { value, installments });
    const byJwt = await call(web, 'POST', '/api/v1/online/sales/pre-capture/', bearer(access), cardSale(1990, 1));
    t.is(byJwt.status, 200, byJwt.text);
    const captured = await call(
      web,
      'PUT',
      `/api/v1/online/sales/${byJwt.body.data.id}/capture/`,
      bearer(merchant.merchantToken),
    );
    t.is(captured.status, 200, captured.text);
    const bySystem = await call(
      web,
      'POST',
      '/api/v1/online/sales/pre-capture/',
      { ...bearer(systemToken()), 'x-merchant-id': String(merchant.merchantId) },
      cardSale(2990, 2),
    );
    t.is(bySystem.status, 200, bySystem.text);
    t.is(
      (
        await call(
          web,
          'PUT',
          `/api/v1/online/sales/${bySystem.body.data.id}/cancel-capture/`,
          bearer(merchant.merchantToken),
        )
      ).status,
      200,
    );
    t.is(
      (await call(web, 'GET', `/api/v1/online/sales/${bySystem.body.data.id}/`, bearer(merchant.merchantToken))).status,
      200,
    );

    // A payment link, paid through the public checkout (the worker then delivers its webhook).
    const link = await call(web, 'POST', '/api/v1/payment-links/', bearer(merchant.merchantToken), {
      value: 2590,
      description: 'Journey',
      webhookUrl: `http://127.0.0.1:${hookPort}/hook`,
    });
    t.is(link.status, 201, link.text);
    const guid = link.body.payment_link_guid as string;
    t.is(
      (
        await call(
          web,
          'PATCH',
          `/api/v1/checkout-links/${guid}/payer`,
          {},
          { payer_name: 'Maria Silva', document: '529.982.247-25' },
        )
      ).status,
      200,
    );
    const paid = await call(web, 'PUT', `/api/v1/checkout-links/${guid}/pay`, {}, { encrypted_card: card() });
    t.is(paid.status, 200, paid.text);

    // A subscription on the same card.
    const subscription = await call(web, 'POST', '/api/v1/subscriptions/', bearer(merchant.merchantToken), {
      value: 4990,
      billingCycle: 'monthly',
      firstDueDate: '2030-01-10',
      encryptedCard: card(),
    });
    t.is(subscription.status, 201, subscription.text);

    // A chargeback refused with a PDF (the web process fetches the acquirer's OAuth token for it).
    const cases = (await (await send(sandbox, 'GET', `/sandbox-cb/_test/cases/${CHARGEBACK_EC}`)).json()) as any[];
    const pending = cases.find((c) => !c.handled);
    t.truthy(pending, 'the sandbox has a pending case');
    const refusal = await call(web, 'PUT', '/api/v1/acquirer/chargeback/refuse/', bearer(access), {
      establishmentNumber: Number(CHARGEBACK_EC),
      idChargeback: pending.idChargeback,
      IdCase: String(pending.idCase),
      reasonToRefuse: 'Produto entregue, comprovante anexo',
      file: pdfWithPages(1).toString('base64'),
      fileName: `${pending.idCase}.pdf`,
      userName: 'ops@loja.com.br',
    });
    t.is(refusal.status, 200, refusal.text);

    // The worker delivered the paid link's webhook.
    await eventually(() => hooks.length > 0, 60_000);
    await Promise.all([web.stop(), worker.stop(), sandbox.stop()]);

    const logs = { web: web.logs.join(''), worker: worker.logs.join(''), sandbox: sandbox.logs.join('') };
    // The scan means something only if the processes logged the journey, at debug level.
    t.true((logs.web.match(/request completed/g) ?? []).length >= 13, 'the web process logged every request');
    t.regex(logs.worker, /"level":"debug"/, 'the worker logged at debug level');
    const secrets: Record<string, string> = {
      'card number': CARD,
      'user password': merchant.password,
      'access token': access,
      'access token signature': access.split('.')[2],
      'refreshed access token': newAccess,
      'refresh token': refresh,
      'refresh token signature': refresh.split('.')[2],
      'merchant token': merchant.merchantToken,
      'system token': systemToken(),
      'jwt secret': getConfig().jwt.secret,
      'acquirer merchant key': getConfig().acquirer.merchantKey,
      'chargeback client secret': getConfig().acquirer.chargeback.clientSecret,
    };
    const cardSpread = new RegExp(CARD.split('').join('[ .-]?'));
    const cvvNearKey = new RegExp(`(cvv|securitycode|security_code|cvc)\\W{0,6}${CVV}\\b`, 'i');
    const found: string[] = [];
    const scan = (where: string, text: string) => {
      for (const [what, value] of Object.entries(secrets))
        if (value && text.includes(value)) found.push(`${where}: ${what}`);
      if (cardSpread.test(text)) found.push(`${where}: card number (with separators)`);
      if (cvvNearKey.test(text)) found.push(`${where}: cvv`);
    };
    for (const [processName, text] of Object.entries(logs)) scan(`${processName} log`, text);
    scan('database', await databaseText());
    t.deepEqual(found, []);
  },
);

test('the scan finds a secret when one is there', (t) => {
  const cvvNearKey = new RegExp(`(cvv|securitycode|security_code|cvc)\\W{0,6}${CVV}\\b`, 'i');
  t.true(cvvNearKey.test(`{"SecurityCode":"${CVV}"}`));
  t.true(new RegExp(CARD.split('').join('[ .-]?')).test(`card ${CARD.replace(/(\d{4})/g, '$1 ')}`));
});
