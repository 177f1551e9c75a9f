/** The acquirer's variables: its card and chargeback APIs, their credentials, and notices. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Joi } from 'celebrate';
import { variable, type ValidatedByName } from './declare';
import { httpUrl, loopbackUrl, oneOf, positiveInt, trimTrailingSlashes } from './formats';

export const DEFAULT_SANDBOX_PORT = 4100;

/** An acquirer URL whose default is the local sandbox's, at SANDBOX_PORT; an explicit value wins. */
const sandboxUrl = (env: `ACQUIRER_${string}URL`, path: string, doc: string) =>
  variable({
    env,
    schema: httpUrl.allow(''),
    default: '',
    doc: `${doc} (default: the sandbox, http://127.0.0.1:SANDBOX_PORT${path})`,
    parse: (url, others) =>
      trimTrailingSlashes(url || loopbackUrl(others.SANDBOX_PORT, DEFAULT_SANDBOX_PORT, others, path)),
  });

/** PEM text as given, or read from the file a variable names (checked by acquirerTlsProblems before this runs). */
export const pemText = (value: string) => (!value || isPem(value) ? value : fs.readFileSync(value, 'utf8'));

const isPem = (value: string) => value.includes('-----BEGIN ');

/** A certificate, key or CA: its PEM text in the variable, or the path of a file holding it. */
const pemOrFile = <const Env extends string, const Secret extends boolean = false>(
  env: Env,
  doc: string,
  secret?: Secret,
) =>
  variable({
    env,
    schema: Joi.string().allow(''),
    default: '',
    doc: `${doc}: PEM text, or the path of a PEM file (empty = none)`,
    secret,
    generatedLocally: false,
    parse: pemText,
  });

/** The acquirer's TLS: a CA for each API (its servers' certificates), the chargeback API's client certificate. */
export const ACQUIRER_TLS_VARIABLES = {
  ca: pemOrFile(
    'ACQUIRER_CA',
    "CA certificates trusted for the card API's HTTPS instead of the system's (a private or test CA)",
  ),
  chargeback: {
    ca: pemOrFile(
      'ACQUIRER_CHARGEBACK_CA',
      "CA certificates trusted for the chargeback API's HTTPS (token and API) instead of the system's",
    ),
    cert: pemOrFile(
      'ACQUIRER_CHARGEBACK_CLIENT_CERT',
      'Client certificate the acquirer signed for mutual TLS with its chargeback API (renewed every 2 years)',
    ),
    key: pemOrFile('ACQUIRER_CHARGEBACK_CLIENT_KEY', 'Private key of ACQUIRER_CHARGEBACK_CLIENT_CERT', true),
  },
};

/** The sandbox's HTTPS, to exercise the client's TLS and mutual TLS (tests; the sandbox never runs in production). */
export const SANDBOX_TLS_VARIABLES = {
  cert: pemOrFile('SANDBOX_TLS_CERT', 'Dev/test only: server certificate of the sandbox; set, it serves HTTPS'),
  key: pemOrFile('SANDBOX_TLS_KEY', 'Dev/test only: private key of SANDBOX_TLS_CERT'),
  ca: pemOrFile('SANDBOX_TLS_CA', 'Dev/test only: CA whose client certificates the sandbox accepts'),
  requireClientCertificate: variable({
    env: 'SANDBOX_TLS_REQUIRE_CLIENT_CERT',
    schema: oneOf('true', 'false'),
    default: 'false',
    doc:
      'Dev/test only: true makes the HTTPS sandbox refuse chargeback calls (token and API) without a client ' +
      'certificate signed by SANDBOX_TLS_CA, as the acquirer does',
    parse: (flag) => flag === 'true',
  }),
};

interface PemVariable {
  name: string;
  kind: 'certificate' | 'key';
}

const PAIRS: [cert: string, key: string][] = [
  ['ACQUIRER_CHARGEBACK_CLIENT_CERT', 'ACQUIRER_CHARGEBACK_CLIENT_KEY'],
  ['SANDBOX_TLS_CERT', 'SANDBOX_TLS_KEY'],
];

const PEM_VARIABLES: PemVariable[] = [
  { name: 'ACQUIRER_CA', kind: 'certificate' },
  { name: 'ACQUIRER_CHARGEBACK_CA', kind: 'certificate' },
  { name: 'ACQUIRER_CHARGEBACK_CLIENT_CERT', kind: 'certificate' },
  { name: 'ACQUIRER_CHARGEBACK_CLIENT_KEY', kind: 'key' },
  { name: 'SANDBOX_TLS_CERT', kind: 'certificate' },
  { name: 'SANDBOX_TLS_KEY', kind: 'key' },
  { name: 'SANDBOX_TLS_CA', kind: 'certificate' },
];

/**
 * Certificates and keys that cannot be read, a certificate without its key (or the other way round), a key that is
 * not the certificate's: each named, so the start stops before the first call would fail. The texts never appear.
 */
export function acquirerTlsProblems(raw: ValidatedByName): string[] {
  const problems: string[] = [];
  const texts: Record<string, string> = {};
  for (const { name, kind } of PEM_VARIABLES) {
    const value = String(raw[name] ?? '');
    if (!value) continue;
    let text: string;
    try {
      text = pemText(value);
    } catch (error) {
      problems.push(`${name} is neither PEM text nor a readable file (${(error as NodeJS.ErrnoException).code})`);
      continue;
    }
    try {
      if (kind === 'certificate') new crypto.X509Certificate(text);
      else crypto.createPrivateKey(text);
      texts[name] = text;
    } catch {
      problems.push(`${name} cannot be read as a PEM ${kind === 'certificate' ? 'certificate' : 'private key'}`);
    }
  }
  for (const [cert, key] of PAIRS) {
    if (Boolean(raw[cert]) !== Boolean(raw[key]))
      problems.push(`${cert} and ${key} go together (a certificate and its key)`);
    else if (
      texts[cert] &&
      texts[key] &&
      !new crypto.X509Certificate(texts[cert]).checkPrivateKey(crypto.createPrivateKey(texts[key]))
    )
      problems.push(`${key} is not the private key of ${cert}`);
  }
  return problems;
}

export const ACQUIRER_VARIABLES = {
  baseUrl: sandboxUrl('ACQUIRER_BASE_URL', '', 'Acquirer transactional API'),
  queryUrl: sandboxUrl('ACQUIRER_QUERY_URL', '', 'Acquirer query API (GET)'),
  merchantId: variable({
    env: 'ACQUIRER_MERCHANT_ID',
    schema: Joi.string().guid(),
    default: '6f1f7b1e-2c1a-4a8e-9d4e-3b2c1a0f9e8d',
    doc: 'Our MerchantId at the acquirer',
  }),
  merchantKey: variable({
    env: 'ACQUIRER_MERCHANT_KEY',
    schema: Joi.string().min(20),
    secret: true,
    doc: 'Our MerchantKey at the acquirer (generated locally, shared with the sandbox)',
  }),
  connectTimeoutMs: variable({
    env: 'ACQUIRER_CONNECT_TIMEOUT_MS',
    schema: positiveInt,
    default: 2000,
    doc: 'Connect timeout of acquirer calls',
  }),
  timeoutMs: variable({
    env: 'ACQUIRER_TIMEOUT_MS',
    schema: positiveInt,
    default: 8000,
    doc: 'Total timeout of one acquirer call',
  }),
  notificationSecret: variable({
    env: 'ACQUIRER_NOTIFICATION_SECRET',
    schema: Joi.string().min(20),
    secret: true,
    doc: 'HMAC secret the acquirer signs card/PIX notifications with',
  }),
  tls: ACQUIRER_TLS_VARIABLES,
  /** The authentication service (3-D Secure 2 MPI): a host of its own, HTTP Basic with its own client. */
  threeDSecure: {
    url: sandboxUrl(
      'ACQUIRER_3DS_URL',
      '/mpi',
      "Authentication service (3-D Secure MPI) base: its token route and the script a payer's browser loads",
    ),
    clientId: variable({
      env: 'ACQUIRER_3DS_CLIENT_ID',
      schema: Joi.string().allow(''),
      default: 'payments-sandbox',
      doc: 'ClientId of the authentication service (HTTP Basic on its token route); empty turns 3-D Secure off (503)',
      emptyIsAValue: true,
    }),
    clientSecret: variable({
      env: 'ACQUIRER_3DS_CLIENT_SECRET',
      schema: Joi.string().allow(''),
      secret: true,
      // Not required: with no secret 3-D Secure is off, as the chargeback integration is without its client.
      default: '',
      doc: 'ClientSecret of the authentication service (generated locally); empty turns 3-D Secure off (503)',
    }),
  },
  chargeback: {
    baseUrl: sandboxUrl('ACQUIRER_CHARGEBACK_BASE_URL', '/sandbox-cb/chargeback/v1', 'Acquirer chargeback API base'),
    authUrl: sandboxUrl(
      'ACQUIRER_CHARGEBACK_AUTH_URL',
      '/oauth/v2/sandbox/protocol/openid-connect/token',
      'OAuth2 token URL of the chargeback API',
    ),
    clientId: variable({
      env: 'ACQUIRER_CHARGEBACK_CLIENT_ID',
      schema: Joi.string().allow(''),
      default: 'payments-sandbox',
      doc: 'OAuth2 client id of the chargeback API; empty disables the integration (503)',
      emptyIsAValue: true,
    }),
    clientSecret: variable({
      env: 'ACQUIRER_CHARGEBACK_CLIENT_SECRET',
      schema: Joi.string().allow(''),
      secret: true,
      // Not required: with no client id the integration is off and needs no secret.
      default: '',
      doc: 'OAuth2 client secret of the chargeback API (generated locally)',
    }),
    notificationSecret: variable({
      env: 'CHARGEBACK_NOTIFICATION_SECRET',
      schema: Joi.string().min(20),
      secret: true,
      doc: 'Shared secret the acquirer sends with chargeback notifications',
    }),
  },
};
