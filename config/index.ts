/**
 * One typed configuration object, read from the environment and validated once at start.
 * A missing or bad variable stops the process with its name and what is expected.
 * Local runs need no .env: secrets are generated once into .data/local-secrets.json (git-ignored);
 * with NODE_ENV=production they must come from the environment.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { Joi } from 'celebrate';
import { loadLocalSecrets, SECRET_NAMES } from './local-secrets';

const positiveInt = Joi.number().integer().min(1);
const httpUrl = Joi.string().uri({ scheme: ['http', 'https'] });
const boolish = Joi.boolean().truthy('1', 'yes', 'on').falsy('0', 'no', 'off', '');

export const DEFAULT_FERRETDB_POSTGRESQL_URL = 'postgres://postgres@127.0.0.1:5432/payments';

/** name -> [schema, default, meaning]; the README's config table is this table. */
export const CONFIG_TABLE = {
  NODE_ENV: [
    Joi.string().valid('development', 'test', 'production'),
    'development',
    'development, test or production; production refuses generated secrets',
  ],
  PORT: [Joi.number().port(), 3000, 'HTTP port of the web process (0 = any free port)'],
  HOST: [Joi.string(), '127.0.0.1', 'Address the web process listens on'],
  PUBLIC_BASE_URL: [
    httpUrl,
    'http://127.0.0.1:3000',
    'Public address of the service; payment_link_url and notification URLs are built on it',
  ],
  MONGODB_URI: [
    Joi.string().uri({ scheme: ['mongodb', 'mongodb+srv'] }),
    'mongodb://127.0.0.1:27017/payments',
    'MongoDB (FerretDB locally) connection string, database name included',
  ],
  FERRETDB_BACKEND: [
    Joi.string().valid('postgresql', 'sqlite'),
    'postgresql',
    'Backend of the local FerretDB that npm start / npm test / npm run services start: postgresql (indexed ' +
      'lookups) or sqlite (embedded; every lookup scans its collection)',
  ],
  FERRETDB_POSTGRESQL_URL: [
    Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
    DEFAULT_FERRETDB_POSTGRESQL_URL,
    'PostgreSQL behind the local FerretDB; every process adds there the companion indexes FerretDB cannot make ' +
      'itself (nothing happens on a real MongoDB)',
  ],
  REDIS_URL: [
    Joi.string().uri({ scheme: ['redis', 'rediss'] }),
    'redis://127.0.0.1:6379',
    'Redis used by BullMQ and the shared rate limits',
  ],
  REDIS_CLUSTER_NODES: [
    Joi.string()
      .allow('')
      .pattern(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/),
    '',
    'Redis Cluster seed nodes, host:port,host:port (any few of the cluster); when set, every connection ' +
      '(queues, workers, rate limits, dashboard, readiness, metrics) goes to the cluster and REDIS_URL is not ' +
      'used. QUEUE_PREFIX must then carry a hash tag',
  ],
  QUEUE_PREFIX: [
    Joi.string().pattern(/^[A-Za-z0-9_:{}.-]+$/),
    'pay',
    'Key prefix of every BullMQ queue (use a hash tag such as {pay} on Redis Cluster)',
  ],
  LOG_LEVEL: [
    Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
    'info',
    'pino log level',
  ],
  BODY_LIMIT: [
    Joi.string().pattern(/^\d+(kb|mb)$/),
    '12mb',
    'Largest JSON body accepted (an 8 MB file in base64 is about 10.7 MB); larger bodies get 413',
  ],
  TRUST_PROXY: [
    Joi.string(),
    'false',
    "Express trust proxy setting; 'false' means the client IP is the socket address and X-Forwarded-For is ignored",
  ],
  JWT_SECRET: [Joi.string().min(32), undefined, 'HS256 secret for access and refresh tokens (generated locally)'],
  JWT_ACCESS_TTL_SECONDS: [positiveInt, 900, 'Access token lifetime (15 min)'],
  JWT_REFRESH_TTL_SECONDS: [positiveInt, 604800, 'Refresh token lifetime (7 days)'],
  SYSTEM_TOKEN: [Joi.string().min(32), undefined, 'The fixed system bearer token (generated locally)'],
  CARD_RSA_PRIVATE_KEY: [
    Joi.string().pattern(/BEGIN (RSA )?PRIVATE KEY/),
    undefined,
    'PEM private key that decrypts cards sent by checkout and API callers (generated locally)',
  ],
  CARD_RSA_PUBLIC_KEY: [
    Joi.string().pattern(/BEGIN PUBLIC KEY/),
    undefined,
    'PEM public key of CARD_RSA_PRIVATE_KEY, served at GET /api/v1/cards/public-key/ and to the checkout page ' +
      'to encrypt cards (PKCS#1 v1.5)',
  ],
  CARD_RSA_PREVIOUS_PRIVATE_KEY: [
    Joi.string()
      .pattern(/BEGIN (RSA )?PRIVATE KEY/)
      .allow(''),
    '',
    'Key rotation: the replaced CARD_RSA_PRIVATE_KEY, still accepted until CARD_RSA_PREVIOUS_KEY_UNTIL (empty = none)',
  ],
  CARD_RSA_PREVIOUS_KEY_UNTIL: [
    Joi.string().isoDate().allow(''),
    '',
    'Key rotation: ISO 8601 time after which cards encrypted with the previous key are refused (required with ' +
      'CARD_RSA_PREVIOUS_PRIVATE_KEY; give callers at least 7 days)',
  ],
  DASHBOARD_USER: [
    Joi.string(),
    'ops',
    'Operator basic-auth user of /admin/queues and /metrics (staff users may also log in there with their ' +
      'e-mail and password)',
  ],
  DASHBOARD_PASSWORD: [
    Joi.string().min(12),
    undefined,
    'Basic-auth password of /admin/queues and /metrics (generated locally)',
  ],
  TOKEN_RATE_LIMIT: [positiveInt, 10, 'Requests per IP per window on /api/token/ and /api/token/refresh/'],
  TOKEN_RATE_WINDOW_SECONDS: [positiveInt, 60, 'Window of the token rate limit'],
  CHECKOUT_PAY_RATE_LIMIT: [
    positiveInt,
    30,
    'Card payments per IP per window on the public checkout pay step (generous: phones on mobile networks ' +
      'share addresses behind CGNAT)',
  ],
  CHECKOUT_PAY_RATE_WINDOW_SECONDS: [positiveInt, 600, 'Window of the checkout pay rate limit'],
  ACQUIRER_BASE_URL: [httpUrl, 'http://127.0.0.1:4100', 'Acquirer transactional API (the sandbox locally)'],
  ACQUIRER_QUERY_URL: [httpUrl, 'http://127.0.0.1:4100', 'Acquirer query API (GET) (the sandbox locally)'],
  ACQUIRER_MERCHANT_ID: [Joi.string().guid(), '6f1f7b1e-2c1a-4a8e-9d4e-3b2c1a0f9e8d', 'Our MerchantId at the acquirer'],
  ACQUIRER_MERCHANT_KEY: [
    Joi.string().min(20),
    undefined,
    'Our MerchantKey at the acquirer (generated locally, shared with the sandbox)',
  ],
  ACQUIRER_CONNECT_TIMEOUT_MS: [positiveInt, 2000, 'Connect timeout of acquirer calls'],
  ACQUIRER_TIMEOUT_MS: [positiveInt, 8000, 'Total timeout of one acquirer call'],
  ACQUIRER_NOTIFICATION_SECRET: [
    Joi.string().min(20),
    undefined,
    'HMAC secret the acquirer signs card/PIX notifications with',
  ],
  ACQUIRER_CHARGEBACK_BASE_URL: [
    httpUrl,
    'http://127.0.0.1:4100/sandbox-cb/chargeback/v1',
    'Acquirer chargeback API base',
  ],
  ACQUIRER_CHARGEBACK_AUTH_URL: [
    httpUrl,
    'http://127.0.0.1:4100/oauth/v2/sandbox/protocol/openid-connect/token',
    'OAuth2 token URL of the chargeback API',
  ],
  ACQUIRER_CHARGEBACK_CLIENT_ID: [
    Joi.string().allow(''),
    'payments-sandbox',
    'OAuth2 client id of the chargeback API; empty disables the integration (503)',
  ],
  ACQUIRER_CHARGEBACK_CLIENT_SECRET: [
    Joi.string().allow(''),
    undefined,
    'OAuth2 client secret of the chargeback API (generated locally)',
  ],
  CHARGEBACK_NOTIFICATION_SECRET: [
    Joi.string().min(20),
    undefined,
    'Shared secret the acquirer sends with chargeback notifications',
  ],
  SANDBOX_PORT: [Joi.number().port(), 4100, 'Port of the dev-only acquirer sandbox'],
  SANDBOX_NOTIFY_URL: [
    Joi.string()
      .uri({ scheme: ['http', 'https'] })
      .allow(''),
    '',
    'Where the sandbox posts notifications (default: PUBLIC_BASE_URL)',
  ],
  WEBHOOK_TIMEOUT_MS: [positiveInt, 5000, 'Timeout of one outbound link webhook delivery'],
  WEBHOOK_TEST_ALLOW_HOSTS: [
    Joi.string().allow(''),
    '',
    'TEST ONLY: comma-separated host:port list exempt from the public-HTTPS webhook rule (off by default)',
  ],
  WEBHOOK_RETRY_BASE_MS: [
    positiveInt,
    60000,
    'First retry delay of a failed link webhook; each retry doubles it (capped at 720x, with jitter); 16 ' +
      'attempts span about 3 days',
  ],
  CHARGE_RETRY_DAYS: [
    Joi.string().pattern(/^\d+(,\d+)*$/),
    '1,3,5,7',
    'Days after the first denial on which a soft-declined subscription charge is retried',
  ],
  SCHEDULER_CRON: [Joi.string(), '* * * * *', 'node-cron expression of the scheduler tick'],
  WORKER_CONCURRENCY: [positiveInt, 5, 'Jobs one worker process runs at once per queue'],
  WORKER_LOCK_DURATION_MS: [
    positiveInt,
    30000,
    "How long a worker's lock on a running job lasts unrenewed; a job whose worker died runs again after one " +
      'to two of these',
  ],
  METRICS_PORT: [
    Joi.number().port().allow(''),
    '',
    "Port of a worker process's own /metrics listener (empty = none, 0 = any free port); the web process " +
      'serves /metrics on PORT',
  ],
} as const;

type Table = typeof CONFIG_TABLE;
type ValueOf<K extends keyof Table> = Table[K][1] extends number ? number : string;

export interface Config {
  nodeEnv: 'development' | 'test' | 'production';
  port: number;
  host: string;
  publicBaseUrl: string;
  mongodbUri: string;
  ferretdb: { backend: 'postgresql' | 'sqlite'; postgresqlUrl: string };
  redisUrl: string;
  /** Redis Cluster seed nodes; empty means the single Redis at redisUrl. */
  redisClusterNodes: { host: string; port: number }[];
  queuePrefix: string;
  logLevel: string;
  bodyLimit: string;
  trustProxy: string;
  jwt: { secret: string; accessTtlSeconds: number; refreshTtlSeconds: number };
  systemToken: string;
  cardKeys: {
    privateKeyPem: string;
    publicKeyPem: string;
    previous: { privateKeyPem: string; acceptedUntil: Date } | undefined;
  };
  dashboard: { user: string; password: string };
  tokenRateLimit: { limit: number; windowSeconds: number };
  checkoutPayRateLimit: { limit: number; windowSeconds: number };
  acquirer: {
    baseUrl: string;
    queryUrl: string;
    merchantId: string;
    merchantKey: string;
    connectTimeoutMs: number;
    timeoutMs: number;
    notificationSecret: string;
    chargeback: {
      baseUrl: string;
      authUrl: string;
      clientId: string;
      clientSecret: string;
      notificationSecret: string;
    };
  };
  sandbox: { port: number; notifyUrl: string };
  webhooks: { timeoutMs: number; testAllowHosts: string[]; retryBaseMs: number };
  charges: { retryDays: number[] };
  scheduler: { cron: string };
  worker: { concurrency: number; lockDurationMs: number; metricsPort: number | undefined };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV || 'development';
  const secrets = nodeEnv === 'production' ? {} : loadLocalSecrets();
  const raw: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, [schema, fallback, meaning]] of Object.entries(CONFIG_TABLE)) {
    let value: unknown = env[name];
    // An explicitly empty ACQUIRER_CHARGEBACK_CLIENT_ID switches the chargeback integration off (503), as its meaning
    // says.
    const switchedOff = name === 'ACQUIRER_CHARGEBACK_CLIENT_ID' && value === '';
    if (!switchedOff && (value === undefined || value === ''))
      value = (secrets as Record<string, string>)[name] ?? fallback;
    if (value === undefined && name !== 'ACQUIRER_CHARGEBACK_CLIENT_SECRET') {
      const neverGenerated = SECRET_NAMES.includes(name) && nodeEnv === 'production';
      problems.push(
        `${name} is required: ${meaning}` + (neverGenerated ? ' (production never uses generated secrets)' : ''),
      );
      continue;
    }
    if (value === undefined) value = '';
    const { error, value: parsed } = (schema as unknown as import('joi').Schema).validate(value, { convert: true });
    if (error) problems.push(`${name} is invalid (${error.message.replace(/^"value" /, '')}): expected ${meaning}`);
    else raw[name] = parsed;
  }
  const clusterProblem =
    raw.REDIS_CLUSTER_NODES && raw.QUEUE_PREFIX ? clusterPrefixProblem(String(raw.QUEUE_PREFIX)) : undefined;
  if (clusterProblem) problems.push(clusterProblem);
  if (!problems.length) problems.push(...cardKeyProblems(raw));
  if (problems.length) throw new ConfigError(`bad configuration:\n  ${problems.join('\n  ')}`);
  const v = raw as { [K in keyof Table]: ValueOf<K> };
  const publicBaseUrl = String(v.PUBLIC_BASE_URL).replace(/\/+$/, '');
  return {
    nodeEnv: v.NODE_ENV as Config['nodeEnv'],
    port: Number(v.PORT),
    host: v.HOST,
    publicBaseUrl,
    mongodbUri: v.MONGODB_URI,
    ferretdb: {
      backend: v.FERRETDB_BACKEND as Config['ferretdb']['backend'],
      postgresqlUrl: v.FERRETDB_POSTGRESQL_URL,
    },
    redisUrl: v.REDIS_URL,
    redisClusterNodes: parseClusterNodes(v.REDIS_CLUSTER_NODES),
    queuePrefix: v.QUEUE_PREFIX,
    logLevel: v.LOG_LEVEL,
    bodyLimit: v.BODY_LIMIT,
    trustProxy: v.TRUST_PROXY,
    jwt: {
      secret: v.JWT_SECRET,
      accessTtlSeconds: v.JWT_ACCESS_TTL_SECONDS,
      refreshTtlSeconds: v.JWT_REFRESH_TTL_SECONDS,
    },
    systemToken: v.SYSTEM_TOKEN,
    cardKeys: {
      privateKeyPem: v.CARD_RSA_PRIVATE_KEY,
      publicKeyPem: v.CARD_RSA_PUBLIC_KEY,
      previous: v.CARD_RSA_PREVIOUS_PRIVATE_KEY
        ? { privateKeyPem: v.CARD_RSA_PREVIOUS_PRIVATE_KEY, acceptedUntil: new Date(v.CARD_RSA_PREVIOUS_KEY_UNTIL) }
        : undefined,
    },
    dashboard: { user: v.DASHBOARD_USER, password: v.DASHBOARD_PASSWORD },
    tokenRateLimit: { limit: v.TOKEN_RATE_LIMIT, windowSeconds: v.TOKEN_RATE_WINDOW_SECONDS },
    checkoutPayRateLimit: { limit: v.CHECKOUT_PAY_RATE_LIMIT, windowSeconds: v.CHECKOUT_PAY_RATE_WINDOW_SECONDS },
    acquirer: {
      baseUrl: v.ACQUIRER_BASE_URL.replace(/\/+$/, ''),
      queryUrl: v.ACQUIRER_QUERY_URL.replace(/\/+$/, ''),
      merchantId: v.ACQUIRER_MERCHANT_ID,
      merchantKey: v.ACQUIRER_MERCHANT_KEY,
      connectTimeoutMs: v.ACQUIRER_CONNECT_TIMEOUT_MS,
      timeoutMs: v.ACQUIRER_TIMEOUT_MS,
      notificationSecret: v.ACQUIRER_NOTIFICATION_SECRET,
      chargeback: {
        baseUrl: v.ACQUIRER_CHARGEBACK_BASE_URL.replace(/\/+$/, ''),
        authUrl: v.ACQUIRER_CHARGEBACK_AUTH_URL,
        clientId: v.ACQUIRER_CHARGEBACK_CLIENT_ID,
        clientSecret: v.ACQUIRER_CHARGEBACK_CLIENT_SECRET,
        notificationSecret: v.CHARGEBACK_NOTIFICATION_SECRET,
      },
    },
    sandbox: { port: Number(v.SANDBOX_PORT), notifyUrl: (v.SANDBOX_NOTIFY_URL || publicBaseUrl).replace(/\/+$/, '') },
    webhooks: {
      timeoutMs: v.WEBHOOK_TIMEOUT_MS,
      testAllowHosts: v.WEBHOOK_TEST_ALLOW_HOSTS.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
      retryBaseMs: v.WEBHOOK_RETRY_BASE_MS,
    },
    charges: { retryDays: v.CHARGE_RETRY_DAYS.split(',').map(Number) },
    scheduler: { cron: v.SCHEDULER_CRON },
    worker: {
      concurrency: v.WORKER_CONCURRENCY,
      lockDurationMs: v.WORKER_LOCK_DURATION_MS,
      metricsPort: v.METRICS_PORT === '' ? undefined : Number(v.METRICS_PORT),
    },
  };
}

/** The hash tag Redis Cluster hashes a key by: what lies between its first `{` and the next `}`, when not empty. */
export function hashTagOf(key: string): string | undefined {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : undefined;
}

/**
 * BullMQ's scripts touch several keys of a queue at once, which a cluster allows only within one
 * slot: every key starts with the prefix, so a hash tag in the prefix puts them all in its slot.
 * Without one the queues fail at the first job with CROSSSLOT, so the start refuses instead.
 */
function clusterPrefixProblem(prefix: string): string | undefined {
  if (hashTagOf(prefix) !== undefined) return undefined;
  const example = `QUEUE_PREFIX={${prefix.replace(/[{}]/g, '') || 'pay'}}`;
  return (
    `QUEUE_PREFIX is invalid with REDIS_CLUSTER_NODES: '${prefix}' has no hash tag; on Redis Cluster every key ` +
    `of a BullMQ queue must hash to one slot, so wrap the prefix (or part of it) in braces, e.g. ${example}`
  );
}

function parseClusterNodes(list: string): { host: string; port: number }[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const colon = entry.lastIndexOf(':');
      return { host: entry.slice(0, colon), port: Number(entry.slice(colon + 1)) };
    });
}

/**
 * The card keys must fit together: a public key that is not the private key's would have every
 * card fail to decrypt (found only when cards are refused), and a previous key with no end date
 * would be accepted for ever.
 */
function cardKeyProblems(raw: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const spki = (key: crypto.KeyObject) => key.export({ type: 'spki', format: 'der' });
  try {
    const derived = crypto.createPublicKey(crypto.createPrivateKey(String(raw.CARD_RSA_PRIVATE_KEY)));
    if (!spki(derived).equals(spki(crypto.createPublicKey(String(raw.CARD_RSA_PUBLIC_KEY))))) {
      problems.push('CARD_RSA_PUBLIC_KEY is not the public key of CARD_RSA_PRIVATE_KEY');
    }
  } catch (error) {
    problems.push(`CARD_RSA_PRIVATE_KEY or CARD_RSA_PUBLIC_KEY cannot be read (${(error as Error).message})`);
  }
  if (raw.CARD_RSA_PREVIOUS_PRIVATE_KEY) {
    try {
      crypto.createPrivateKey(String(raw.CARD_RSA_PREVIOUS_PRIVATE_KEY));
    } catch (error) {
      problems.push(`CARD_RSA_PREVIOUS_PRIVATE_KEY cannot be read (${(error as Error).message})`);
    }
    if (!raw.CARD_RSA_PREVIOUS_KEY_UNTIL)
      problems.push(
        'CARD_RSA_PREVIOUS_KEY_UNTIL is required with CARD_RSA_PREVIOUS_PRIVATE_KEY: when the previous key ' +
          'stops being accepted',
      );
  }
  return problems;
}

let loaded: Config | undefined;

/** The process-wide config, loaded on first use. A bad config exits non-zero naming the variable. */
export function getConfig(): Config {
  if (!loaded) {
    try {
      loaded = loadConfig();
    } catch (error) {
      if (error instanceof ConfigError) {
        process.stderr.write(`${error.message}\n`);
        process.exit(78);
      }
      throw error;
    }
  }
  return loaded;
}

/**
 * Reads the environment again. For the bench's cluster case only, which points its own process at
 * a Redis Cluster for a while and back (a running process never changes its configuration).
 */
export function reloadConfig(): Config {
  loaded = undefined;
  return getConfig();
}

export const PROJECT_ROOT = path.resolve(__dirname, '..');
