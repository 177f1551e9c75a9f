/**
 * HTTPS and mutual TLS to the acquirer, against the sandbox serving HTTPS with a throwaway CA (test/helpers/pki.ts)
 * and demanding a client certificate on its chargeback API, as the acquirer does. Web processes with different
 * certificates: none, the one the CA signed, an expired one, one a stranger CA signed.
 */
import '../helpers/env';
import test from 'ava';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { ConfigError, loadConfig } from '../../config';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { cardSaleBody, encryptedTestCard } from '../helpers/cards';
import { callJson } from '../helpers/http';
import { pointAtSandbox } from '../helpers/acquirer';
import { makeTestPki, type TestPki } from '../helpers/pki';
import { eventually, startProcess, stopAll, type RunningProcess } from '../helpers/processes';

const CB = '/api/v1/acquirer/chargeback';
const EC = '3100000001'; // the sandbox holds pending chargebacks for it
const GATEWAY_ERROR = { detail: 'Payment gateway error: the acquirer could not be reached or did not answer in time.' };

let pki: TestPki;
let sandbox: RunningProcess;
let merchant: TestMerchant;
const webs: Record<'withCertificate' | 'withoutCertificate' | 'expired' | 'stranger', RunningProcess> = {} as never;

test.before(async () => {
  pki = await makeTestPki();
  sandbox = await startProcess(
    'sandbox',
    {
      SANDBOX_PORT: '0',
      SANDBOX_TLS_CERT: pki.serverCertFile,
      SANDBOX_TLS_KEY: pki.serverKeyFile,
      SANDBOX_TLS_CA: pki.caFile,
      SANDBOX_TLS_REQUIRE_CLIENT_CERT: 'true',
    },
    /listening on (https:\/\/[0-9.:]+)/,
  );
  const acquirer = {
    ...pointAtSandbox(sandbox.url),
    ACQUIRER_BASE_URL: sandbox.url,
    ACQUIRER_QUERY_URL: sandbox.url,
    ACQUIRER_CA: pki.caFile, // a file path
    ACQUIRER_CHARGEBACK_CA: pki.ca, // PEM text
  };
  const { ACQUIRER_CA: _, ...withoutCardCa } = acquirer;
  // Four web processes start at once: on a busy machine that takes a while.
  const web = (env: Record<string, string>) => startProcess('web', env, undefined, 120_000);
  const [withCertificate, withoutCertificate, expired, stranger] = await Promise.all([
    web({
      ...acquirer,
      ACQUIRER_CHARGEBACK_CLIENT_CERT: pki.clientCertFile,
      ACQUIRER_CHARGEBACK_CLIENT_KEY: pki.clientKey,
    }),
    web(withoutCardCa),
    web({
      ...acquirer,
      ACQUIRER_CHARGEBACK_CLIENT_CERT: pki.expiredClientCert,
      ACQUIRER_CHARGEBACK_CLIENT_KEY: pki.expiredClientKey,
    }),
    web({
      ...acquirer,
      ACQUIRER_CHARGEBACK_CLIENT_CERT: pki.strangerCert,
      ACQUIRER_CHARGEBACK_CLIENT_KEY: pki.strangerKey,
    }),
  ]);
  Object.assign(webs, { withCertificate, withoutCertificate, expired, stranger });
  await connectDatabase(process.env.MONGODB_URI!);
  merchant = await newMerchant({ establishmentNumbers: [EC] });
});
test.after.always(async () => {
  await stopAll();
  await disconnectDatabase();
});

const consult = (web: RunningProcess) =>
  callJson(web, 'POST', `${CB}/consult/?status=PENDING`, bearer(merchant.accessToken), {
    establishmentNumber: [Number(EC)],
  });

test('with the client certificate the chargeback journey works over mutual TLS', async (t) => {
  const pending = await consult(webs.withCertificate);
  t.is(pending.status, 200, JSON.stringify(pending.body));
  t.true(pending.body.content.length > 0);
  const [first] = pending.body.content;
  const accepted = await callJson(webs.withCertificate, 'PUT', `${CB}/accept/`, bearer(merchant.accessToken), {
    updateChargeback: [{ establishmentNumber: Number(EC), idChargeback: first.idChargeback }],
    userName: 'ops@loja.com.br',
  });
  t.is(accepted.status, 200, JSON.stringify(accepted.body));
  t.is(accepted.body[0].idChargeback, first.idChargeback);
});

test('the card API is called over HTTPS trusting ACQUIRER_CA', async (t) => {
  const sale = await callJson(
    webs.withCertificate,
    'POST',
    '/api/v1/online/sales/pre-capture/',
    bearer(merchant.accessToken),
    cardSaleBody(encryptedTestCard()),
  );
  t.is(sale.status, 200, JSON.stringify(sale.body));
  t.true(sale.body.data.approved);
});

test('without ACQUIRER_CA the private CA is not trusted: a gateway error, the log names the variable', async (t) => {
  const sale = await callJson(
    webs.withoutCertificate,
    'POST',
    '/api/v1/online/sales/pre-capture/',
    bearer(merchant.accessToken),
    cardSaleBody(encryptedTestCard()),
  );
  t.is(sale.status, 502, JSON.stringify(sale.body));
  const untrusted = /card API certificate is not trusted \(\w+\): check ACQUIRER_CA/;
  await eventually(() => untrusted.test(logsOf('withoutCertificate')));
  t.regex(logsOf('withoutCertificate'), untrusted);
});

test('without a client certificate the chargeback call is refused: acquirer unreachable, not a 500', async (t) => {
  const res = await consult(webs.withoutCertificate);
  t.is(res.status, 502);
  t.deepEqual(res.body, GATEWAY_ERROR);
  await eventually(() =>
    /no client certificate is configured: it requires mutual TLS/.test(logsOf('withoutCertificate')),
  );
  // The sandbox's line comes through its own pipe, maybe after the web's.
  const refused = /chargeback API connection refused \(no client certificate\)/;
  await eventually(() => refused.test(sandbox.logs.join('')));
  t.regex(sandbox.logs.join(''), refused);
});

test('an expired client certificate is named in the log at the first call, and refused', async (t) => {
  const res = await consult(webs.expired);
  t.is(res.status, 502);
  t.deepEqual(res.body, GATEWAY_ERROR);
  await eventually(() =>
    /ACQUIRER_CHARGEBACK_CLIENT_CERT is expired: .*subject CN=expired-client/.test(logsOf('expired')),
  );
  const refused = /chargeback API connection refused \(CERT_HAS_EXPIRED\)/;
  await eventually(() => refused.test(sandbox.logs.join('')));
  t.regex(sandbox.logs.join(''), refused);
});

test('a certificate the acquirer did not sign is refused and named in the log', async (t) => {
  const res = await consult(webs.stranger);
  t.is(res.status, 502);
  t.deepEqual(res.body, GATEWAY_ERROR);
  const named = /with our client certificate \w+ \(subject CN=stranger-client, issuer CN=stranger test CA/;
  await eventually(() => named.test(logsOf('stranger')));
  t.regex(logsOf('stranger'), named);
});

// After every call above has logged what it logs.
test.after('no private key and no certificate text reaches a log', (t) => {
  for (const name of Object.keys(webs) as (keyof typeof webs)[]) {
    t.notRegex(logsOf(name), /PRIVATE KEY|BEGIN CERTIFICATE/, name);
  }
});

test('a key that is not the certificate’s, or a certificate without its key, stops the start naming them', (t) => {
  const env = { ...process.env, ACQUIRER_CHARGEBACK_CLIENT_CERT: pki.clientCertFile };
  const mismatch = t.throws(() => loadConfig({ ...env, ACQUIRER_CHARGEBACK_CLIENT_KEY: pki.strangerKey }), {
    instanceOf: ConfigError,
  });
  t.regex(
    mismatch!.message,
    /ACQUIRER_CHARGEBACK_CLIENT_KEY is not the private key of ACQUIRER_CHARGEBACK_CLIENT_CERT/,
  );
  t.false(mismatch!.message.includes(pki.strangerKey.split('\n')[1]), 'the key is not quoted');
  t.regex(
    t.throws(() => loadConfig(env))!.message,
    /ACQUIRER_CHARGEBACK_CLIENT_CERT and ACQUIRER_CHARGEBACK_CLIENT_KEY go together/,
  );
  t.regex(
    t.throws(() => loadConfig({ ...process.env, ACQUIRER_CA: '/nonexistent/ca.pem' }))!.message,
    /ACQUIRER_CA is neither PEM text nor a readable file \(ENOENT\)/,
  );
});

function logsOf(name: keyof typeof webs): string {
  return webs[name].logs.join('');
}
