/** The acquirer's variables: its card and chargeback APIs, their credentials, and notices. */
import { Joi } from 'celebrate';
import { variable } from './declare';
import { httpUrl, loopbackUrl, positiveInt, trimTrailingSlashes } from './formats';

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
