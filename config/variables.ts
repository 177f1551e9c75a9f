/**
 * Every environment variable, declared once and shaped like the config object getConfig() returns.
 * docs/configuration.md's table is generated from here (`node --import tsx config/docs.ts`).
 */
import { Joi } from 'celebrate';
import { combine, variable, type Validated, type ValidatedByName } from './declare';
import { ACQUIRER_VARIABLES, DEFAULT_SANDBOX_PORT, SANDBOX_TLS_VARIABLES } from './acquirer-variables';
import { REDIS_SECURITY_VARIABLES } from './redis-variables';
import { MONGODB_VARIABLES } from './mongodb-variables';
import { MIGRATION_VARIABLES } from './migration-variables';
import {
  commaSeparated,
  forInstance,
  hostPortList,
  hostPorts,
  httpUrl,
  instanceName,
  loopbackUrl,
  oneOf,
  portOrDefault,
  portSchema,
  positiveInt,
  trimTrailingSlashes,
  trustProxySchema,
} from './formats';

export const DEFAULT_PORT = 3000;

export const DEFAULT_FERRETDB_POSTGRESQL_URL = 'postgres://postgres@127.0.0.1:5432/payments';

/** PUBLIC_BASE_URL as given, or the web process's loopback address on PORT. */
const publicBaseUrl = (given: string, others: ValidatedByName) =>
  trimTrailingSlashes(given || loopbackUrl(others.PORT, DEFAULT_PORT, others));

/** Where a rate limit's doc points for the range production takes (config/production-defences.ts). */
const PRODUCTION_RATE_RANGE = '[the range production takes](deploy.md#what-production-refuses)';

/** What the doc of a port whose default follows INSTANCE adds. */
const INSTANCE_MOVES = '; INSTANCE moves it';

/** QUEUE_PREFIX as given, or pay (pay-INSTANCE for a named instance). */
export const queuePrefixOf = (given: Validated, others: ValidatedByName) => String(given || forInstance('pay', others));

export const CONFIG_VARIABLES = {
  nodeEnv: variable({
    env: 'NODE_ENV',
    schema: oneOf('development', 'test', 'production'),
    default: 'development',
    doc: 'development, test or production; production refuses generated secrets',
  }),
  instance: variable({
    env: 'INSTANCE',
    schema: instanceName,
    default: '',
    doc:
      'Name of a second stack beside a running one (lower-case letters, digits and dashes, e.g. two): the ' +
      'defaults of MONGODB_URI (database payments-INSTANCE), QUEUE_PREFIX (pay-INSTANCE), PORT and SANDBOX_PORT ' +
      '(each moved by the same multiple of 10, printed at start) and every URL built on them follow it',
    see: '[a second stack](../README.md#a-second-stack-beside-the-first)',
  }),
  port: variable({
    env: 'PORT',
    schema: portSchema,
    default: '',
    doc: `HTTP port of the web process (0 = any free port; default ${DEFAULT_PORT}${INSTANCE_MOVES})`,
    parse: (port, others) => portOrDefault(port, DEFAULT_PORT, others),
  }),
  host: variable({
    env: 'HOST',
    schema: Joi.string(),
    default: '127.0.0.1',
    doc: 'Address the web process listens on',
  }),
  publicBaseUrl: variable({
    env: 'PUBLIC_BASE_URL',
    schema: httpUrl.allow(''),
    default: '',
    doc:
      'Public address of the service; payment_link_url, notification URLs and the Content-Security-Policy (an ' +
      `https one upgrades insecure requests) are built on it (default: http://127.0.0.1:PORT, port ${DEFAULT_PORT} ` +
      'with PORT=0)',
    parse: (url, others) => publicBaseUrl(url, others),
  }),
  mongodbUri: MONGODB_VARIABLES.uri,
  mongodbAllowInsecure: MONGODB_VARIABLES.allowInsecure,
  migrations: MIGRATION_VARIABLES,
  ferretdb: {
    backend: variable({
      env: 'FERRETDB_BACKEND',
      schema: oneOf('postgresql', 'sqlite'),
      default: 'postgresql',
      doc:
        'Backend of the local FerretDB that npm start / npm test / npm run services start: postgresql (indexed ' +
        'lookups) or sqlite (embedded; every lookup scans its collection)',
    }),
    postgresqlUrl: variable({
      env: 'FERRETDB_POSTGRESQL_URL',
      schema: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
      default: DEFAULT_FERRETDB_POSTGRESQL_URL,
      doc:
        'PostgreSQL behind the local FerretDB; every process adds there the companion indexes FerretDB cannot ' +
        'make itself (nothing happens on a real MongoDB)',
    }),
  },
  redisUrl: variable({
    env: 'REDIS_URL',
    schema: Joi.string().uri({ scheme: ['redis', 'rediss'] }),
    default: 'redis://127.0.0.1:6379',
    doc:
      'Redis used by BullMQ and the shared rate limits; rediss:// for TLS, credentials as redis://user:password@ ' +
      '(or REDIS_USERNAME, REDIS_PASSWORD)',
  }),
  /** Redis Cluster seed nodes; empty means the single Redis at redisUrl. */
  redisClusterNodes: variable({
    env: 'REDIS_CLUSTER_NODES',
    schema: hostPortList,
    default: '',
    doc:
      'Redis Cluster seed nodes, host:port,host:port (any few of the cluster); when set, every connection ' +
      "(queues, workers, rate limits, dashboard, readiness, metrics) goes to the cluster and REDIS_URL's host is " +
      'not used (its rediss:// and credentials are, on every node). QUEUE_PREFIX must then carry a hash tag',
    see: '[scale-out](operations.md#scale-out)',
    parse: hostPorts,
  }),
  redisSecurity: REDIS_SECURITY_VARIABLES,
  queuePrefix: variable({
    env: 'QUEUE_PREFIX',
    schema: Joi.string()
      .pattern(/^[A-Za-z0-9_:{}.-]+$/)
      .allow(''),
    default: '',
    doc:
      'Key prefix of every BullMQ queue (default: pay, or pay-INSTANCE; use a hash tag such as {pay} on Redis ' +
      'Cluster)',
    parse: (prefix, others) => queuePrefixOf(prefix, others),
  }),
  idBlockSize: variable({
    env: 'ID_BLOCK_SIZE',
    schema: positiveInt,
    default: 20,
    doc:
      'Integer ids a process claims at once per sequence (one insert per block); ids stay unique across ' +
      'processes, but their order across processes follows the blocks',
  }),
  logLevel: variable({
    env: 'LOG_LEVEL',
    schema: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
    default: 'info',
    doc: 'pino log level',
  }),
  bodyLimit: variable({
    env: 'BODY_LIMIT',
    schema: Joi.string().pattern(/^\d+(kb|mb)$/),
    default: '12mb',
    doc: 'Largest JSON body accepted (an 8 MB file in base64 is about 10.7 MB); larger bodies get 413',
  }),
  trustProxy: variable({
    env: 'TRUST_PROXY',
    schema: trustProxySchema,
    default: 'false',
    doc:
      "Express trust proxy setting, for the client IP of every per-IP limit: 'false' (the socket address; " +
      'X-Forwarded-For ignored), the number of proxies in front (at most 5 in production), or a comma-separated list ' +
      'of their addresses, CIDR ranges and loopback, linklocal, uniquelocal; true (trust any X-Forwarded-For) is ' +
      'refused in production',
    see: '[what production refuses](deploy.md#what-production-refuses)',
  }),
  jwt: {
    secret: variable({
      env: 'JWT_SECRET',
      schema: Joi.string().min(32),
      secret: true,
      doc: 'HS256 secret for access and refresh tokens (generated locally)',
    }),
    accessTtlSeconds: variable({
      env: 'JWT_ACCESS_TTL_SECONDS',
      schema: positiveInt,
      default: 900,
      doc: 'Access token lifetime (15 min)',
    }),
    refreshTtlSeconds: variable({
      env: 'JWT_REFRESH_TTL_SECONDS',
      schema: positiveInt,
      default: 604800,
      doc: 'Refresh token lifetime (7 days)',
    }),
  },
  systemToken: variable({
    env: 'SYSTEM_TOKEN',
    schema: Joi.string().min(32),
    secret: true,
    doc: 'The fixed system bearer token (generated locally)',
  }),
  cardKeys: {
    privateKeyPem: variable({
      env: 'CARD_RSA_PRIVATE_KEY',
      schema: Joi.string().pattern(/BEGIN (RSA )?PRIVATE KEY/),
      secret: true,
      doc: 'PEM private key that decrypts cards sent by checkout and API callers (generated locally)',
    }),
    publicKeyPem: variable({
      env: 'CARD_RSA_PUBLIC_KEY',
      schema: Joi.string().pattern(/BEGIN PUBLIC KEY/),
      secret: true,
      doc:
        'PEM public key of CARD_RSA_PRIVATE_KEY, served at GET /api/v1/cards/public-key/ and to the checkout page ' +
        'to encrypt cards (PKCS#1 v1.5)',
      see: '[cards.md](cards.md)',
    }),
    /** Key rotation: present only while the previous key is still accepted. */
    previous: combine(
      {
        privateKeyPem: variable({
          env: 'CARD_RSA_PREVIOUS_PRIVATE_KEY',
          schema: Joi.string()
            .pattern(/BEGIN (RSA )?PRIVATE KEY/)
            .allow(''),
          default: '',
          doc:
            'Key rotation: the replaced CARD_RSA_PRIVATE_KEY, still accepted until CARD_RSA_PREVIOUS_KEY_UNTIL ' +
            '(empty = none)',
          see: '[cards.md](cards.md#key-rotation)',
        }),
        acceptedUntil: variable({
          env: 'CARD_RSA_PREVIOUS_KEY_UNTIL',
          schema: Joi.string().isoDate().allow(''),
          default: '',
          doc:
            'Key rotation: ISO 8601 time after which cards encrypted with the previous key are refused (required ' +
            'with CARD_RSA_PREVIOUS_PRIVATE_KEY; give callers at least 7 days)',
          parse: (isoTime) => new Date(isoTime),
        }),
      },
      (previous) => (previous.privateKeyPem ? previous : undefined),
    ),
  },
  /** The card fingerprint key (src/cards/fingerprint.ts): its own, so no other secret reaches card numbers. */
  cardFingerprint: {
    key: variable({
      env: 'CARD_FINGERPRINT_KEY',
      schema: Joi.string().min(32),
      secret: true,
      doc:
        'HMAC key of the card fingerprints an Idempotency-Key compares a card request by; nothing else uses it ' +
        '(generated locally)',
      see: '[cards.md](cards.md#idempotency-and-the-fingerprint-key)',
    }),
    previousKey: variable({
      env: 'CARD_FINGERPRINT_PREVIOUS_KEY',
      schema: Joi.string().min(32).allow(''),
      default: '',
      doc:
        'Rotation: the replaced CARD_FINGERPRINT_KEY, still recognised so keys used in the last 24 hours replay; ' +
        'remove it 24 hours after the rotation (empty = none)',
      parse: (key) => key || undefined,
    }),
  },
  /**
   * The key the acquirer's tokens of saved cards are encrypted with at rest (src/cards/sealed-tokens.ts): a token
   * charges its card, so a copy of the database must not be enough to use it.
   */
  savedCardTokens: {
    key: variable({
      env: 'SAVED_CARD_TOKEN_KEY',
      schema: Joi.string().min(32),
      secret: true,
      doc:
        "Encrypts (AES-256-GCM) the acquirer's token of every saved card before it is stored; nothing else uses it " +
        '(generated locally). Losing it loses every saved card',
      see: '[cards.md](cards.md#saved-cards-and-their-tokens)',
    }),
    previousKey: variable({
      env: 'SAVED_CARD_TOKEN_PREVIOUS_KEY',
      schema: Joi.string().min(32).allow(''),
      default: '',
      doc:
        'Rotation: the replaced SAVED_CARD_TOKEN_KEY, still used to read the tokens it encrypted (empty = none); ' +
        'keep it while any card saved before the rotation is kept',
      parse: (key) => key || undefined,
    }),
  },
  dashboard: {
    user: variable({
      env: 'DASHBOARD_USER',
      schema: Joi.string(),
      default: 'ops',
      doc:
        'Operator basic-auth user of /admin/queues and /metrics (staff users may also log in there with their ' +
        'e-mail and password)',
    }),
    password: variable({
      env: 'DASHBOARD_PASSWORD',
      schema: Joi.string().min(12),
      secret: true,
      doc: 'Basic-auth password of /admin/queues and /metrics (generated locally)',
    }),
  },
  tokenRateLimit: {
    limit: variable({
      env: 'TOKEN_RATE_LIMIT',
      schema: positiveInt,
      default: 10,
      doc:
        'Requests per IP per window on /api/token/ and on /api/token/refresh/ (counted apart); the token ' +
        "route's count is the per-IP budget of every password check, basic auth included",
      see: PRODUCTION_RATE_RANGE,
    }),
    windowSeconds: variable({
      env: 'TOKEN_RATE_WINDOW_SECONDS',
      schema: positiveInt,
      default: 60,
      doc: 'Window of the token rate limit',
    }),
  },
  passwordAccountRateLimit: {
    limit: variable({
      env: 'PASSWORD_ACCOUNT_RATE_LIMIT',
      schema: positiveInt,
      default: 10,
      doc:
        'Failed password checks per account (e-mail or DASHBOARD_USER) per window, from any address and any ' +
        'route (/api/token/, basic auth of /admin/queues and /metrics); beyond it only an address that has not ' +
        'failed at that account is checked',
      see: PRODUCTION_RATE_RANGE,
    }),
    windowSeconds: variable({
      env: 'PASSWORD_ACCOUNT_RATE_WINDOW_SECONDS',
      schema: positiveInt,
      default: 60,
      doc: 'Window of the per-account password budget',
    }),
  },
  passwordConsecutiveFailures: {
    limit: variable({
      env: 'PASSWORD_CONSECUTIVE_FAILURE_LIMIT',
      schema: positiveInt,
      default: 10,
      doc:
        'Failed password checks in a row for one account from one address (a success there starts again) ' +
        'before that pair is refused',
    }),
    blockSeconds: variable({
      env: 'PASSWORD_CONSECUTIVE_BLOCK_SECONDS',
      schema: positiveInt,
      default: 3600,
      doc: 'How long an account and address pair over PASSWORD_CONSECUTIVE_FAILURE_LIMIT is refused',
    }),
  },
  passwordAddressFailures: {
    limit: variable({
      env: 'PASSWORD_ADDRESS_FAILURE_LIMIT',
      schema: positiveInt,
      default: 100,
      doc: 'Failed password checks per IP per window, all accounts together (slow guessing from one address)',
      see: PRODUCTION_RATE_RANGE,
    }),
    windowSeconds: variable({
      env: 'PASSWORD_ADDRESS_FAILURE_WINDOW_SECONDS',
      schema: positiveInt,
      default: 86400,
      doc: 'Window of the per-IP failed password checks (a day)',
    }),
  },
  checkoutPayRateLimit: {
    limit: variable({
      env: 'CHECKOUT_PAY_RATE_LIMIT',
      schema: positiveInt,
      default: 30,
      doc:
        'Card payments per IP per window on the public checkout pay step (generous: phones on mobile networks ' +
        'share addresses behind CGNAT)',
      see: PRODUCTION_RATE_RANGE,
    }),
    windowSeconds: variable({
      env: 'CHECKOUT_PAY_RATE_WINDOW_SECONDS',
      schema: positiveInt,
      default: 600,
      doc: 'Window of the checkout pay rate limit',
    }),
  },
  checkoutPixBackoff: {
    firstMs: variable({
      env: 'CHECKOUT_PIX_BACKOFF_MS',
      schema: positiveInt,
      default: 5000,
      doc:
        "After the acquirer failed a checkout's PIX code, how long that link makes no new one (answered 503 " +
        'with Retry-After); doubled by each failure in a row, forgotten once a code is made',
    }),
    maxMs: variable({
      env: 'CHECKOUT_PIX_BACKOFF_MAX_MS',
      schema: positiveInt,
      default: 60_000,
      doc:
        'The longest wait of a link after failed PIX codes; a link quiet this long past its wait starts again ' +
        'from CHECKOUT_PIX_BACKOFF_MS',
    }),
  },
  acquirer: ACQUIRER_VARIABLES,
  sandbox: {
    port: variable({
      env: 'SANDBOX_PORT',
      schema: portSchema,
      default: '',
      doc:
        `Port of the dev-only acquirer sandbox (default ${DEFAULT_SANDBOX_PORT}${INSTANCE_MOVES}); the ` +
        'ACQUIRER_*_URL defaults follow it',
      parse: (port, others) => portOrDefault(port, DEFAULT_SANDBOX_PORT, others),
    }),
    notifyUrl: variable({
      env: 'SANDBOX_NOTIFY_URL',
      schema: httpUrl.allow(''),
      default: '',
      doc: 'Where the sandbox posts notifications (default: PUBLIC_BASE_URL)',
      parse: (url, others) => trimTrailingSlashes(url || publicBaseUrl(String(others.PUBLIC_BASE_URL), others)),
    }),
    tls: SANDBOX_TLS_VARIABLES,
    pixRefundDelayMs: variable({
      env: 'SANDBOX_PIX_REFUND_DELAY_MS',
      schema: Joi.number().integer().min(0).max(3_600_000),
      default: 1000,
      doc: 'How long the sandbox takes to complete a PIX refund (then it notifies, as for a payment)',
    }),
  },
  webhooks: {
    timeoutMs: variable({
      env: 'WEBHOOK_TIMEOUT_MS',
      schema: positiveInt,
      default: 5000,
      doc: 'Timeout of one outbound link webhook delivery',
    }),
    testAllowHosts: variable({
      env: 'WEBHOOK_TEST_ALLOW_HOSTS',
      schema: Joi.string().allow(''),
      default: '',
      doc:
        'TEST ONLY: comma-separated host:port list exempt from the public-HTTPS webhook rule (off by default; ' +
        'localhost:P and 127.0.0.1:P match alike); for a receiver of your own use WEBHOOKS_ALLOW_LOCALHOST',
      parse: (list) => commaSeparated(list).map((host) => host.toLowerCase()),
    }),
    allowLocalhost: variable({
      env: 'WEBHOOKS_ALLOW_LOCALHOST',
      schema: oneOf('true', 'false'),
      default: 'false',
      doc:
        'LOCAL DEVELOPMENT ONLY: true lets a webhook URL (account endpoints, link webhookUrl) be http or https to ' +
        'localhost, 127.0.0.1 or [::1] on any port, and delivers there; npm start turns it on unless set; refused ' +
        'in production',
      see: '[events.md](api/events.md#a-receiver-on-your-machine)',
      parse: (flag) => flag === 'true',
    }),
    allowedPorts: variable({
      env: 'WEBHOOK_ALLOWED_PORTS',
      schema: Joi.string()
        .pattern(/^\s*\d{1,5}\s*(,\s*\d{1,5}\s*)*$/)
        .custom((list: string) => {
          if (commaSeparated(list).some((port) => Number(port) < 1 || Number(port) > 65535))
            throw new Error('a port is 1 to 65535');
          return list;
        }),
      default: '443',
      doc:
        'Comma-separated ports a webhook URL (account endpoints, link webhookUrl) may name; any other port is ' +
        'refused with 400, whatever NODE_ENV, so a merchant cannot probe ports of other hosts from our address ' +
        '(WEBHOOK_TEST_ALLOW_HOSTS entries keep their own ports)',
      parse: (list) => commaSeparated(list).map(Number),
    }),
    retryBaseMs: variable({
      env: 'WEBHOOK_RETRY_BASE_MS',
      schema: positiveInt,
      default: 60000,
      doc:
        'First retry delay of a failed link webhook; each retry doubles it (capped at 720x, with jitter); 16 ' +
        'attempts span about 3 days',
    }),
    endpointAttempts: variable({
      env: 'WEBHOOK_ENDPOINT_ATTEMPTS',
      schema: positiveInt,
      default: 16,
      doc:
        'Attempts of one account event delivery to a webhook endpoint (on the WEBHOOK_RETRY_BASE_MS schedule: 16 ' +
        'span about 3 days); an endpoint whose delivery fails them all, with no success since, is disabled',
    }),
  },
  events: {
    retentionDays: variable({
      env: 'EVENTS_RETENTION_DAYS',
      schema: positiveInt,
      default: 30,
      doc: 'Days account events stay readable in the events API; the scheduler removes older days',
    }),
    testHoldBeforeRecordMs: variable({
      env: 'EVENTS_TEST_HOLD_MS',
      schema: Joi.number().integer().min(0).max(60000),
      default: 0,
      doc:
        'Tests only: a state change waits this long between its write (which owes its events) and the ' +
        'recording of those events, so a fault test can kill the process in that gap (0 = never)',
    }),
  },
  charges: {
    retryDays: variable({
      env: 'CHARGE_RETRY_DAYS',
      schema: Joi.string().pattern(/^\d+(,\d+)*$/),
      default: '1,3,5,7',
      doc: 'Days after the first denial on which a soft-declined subscription charge is retried',
      parse: (days) => days.split(',').map(Number),
    }),
  },
  scheduler: {
    cron: variable({
      env: 'SCHEDULER_CRON',
      schema: Joi.string(),
      default: '* * * * *',
      doc: 'node-cron expression of the scheduler tick',
    }),
  },
  worker: {
    concurrency: variable({
      env: 'WORKER_CONCURRENCY',
      schema: positiveInt,
      default: 5,
      doc: 'Jobs one worker process runs at once per queue',
    }),
    lockDurationMs: variable({
      env: 'WORKER_LOCK_DURATION_MS',
      schema: positiveInt,
      default: 30000,
      doc:
        "How long a worker's lock on a running job lasts unrenewed; a job whose worker died runs again after one " +
        'to two of these',
    }),
    metricsPort: variable({
      env: 'METRICS_PORT',
      schema: Joi.number().port().allow('') as Joi.AnySchema<number | ''>,
      default: '',
      doc:
        "Port of a worker process's own /metrics listener (empty = none, 0 = any free port); the web process " +
        'serves /metrics on PORT',
      parse: (port) => (port === '' ? undefined : port),
    }),
    queues: variable({
      env: 'WORKER_QUEUES',
      schema: Joi.string().allow(''),
      default: '',
      doc:
        'Queues one worker process runs, comma-separated (empty = every queue of jobs/); to scale one kind on ' +
        'its own',
      parse: commaSeparated,
    }),
    chargeHoldAfterAcquirerMs: variable({
      env: 'WORKER_TEST_CHARGE_HOLD_MS',
      schema: Joi.number().integer().min(0).max(60000),
      default: 0,
      doc:
        "Tests only: a subscription charge's first run waits this long between the acquirer's answer and our " +
        'write, so a fault test can kill the worker in that gap (0 = never)',
    }),
  },
  // Read by the OpenTelemetry SDK itself (src/platform/tracing.ts); declared here so they are checked and documented.
  tracing: {
    tracesExporter: variable({
      env: 'OTEL_TRACES_EXPORTER',
      schema: Joi.string()
        .pattern(/^\s*(otlp|console|none)(\s*,\s*(otlp|console|none))*\s*$/)
        .allow(''),
      default: '',
      doc:
        'Traces: otlp (or console) turns OpenTelemetry on in every process; empty = off unless an OTLP endpoint ' +
        'is set; none = off',
      see: '[traces](deploy.md#traces)',
    }),
    otlpEndpoint: variable({
      env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
      schema: httpUrl.allow(''),
      default: '',
      doc:
        'OTLP receiver the spans go to (http/protobuf, e.g. http://127.0.0.1:4318, a Jaeger or a collector); ' +
        'setting it turns traces on',
    }),
    serviceName: variable({
      env: 'OTEL_SERVICE_NAME',
      schema: Joi.string().allow(''),
      default: '',
      doc: 'Service name of the spans (empty = payments-web, payments-worker, payments-scheduler, payments-sandbox)',
    }),
    sdkDisabled: variable({
      env: 'OTEL_SDK_DISABLED',
      schema: Joi.string().valid('', 'true', 'false'),
      default: '',
      doc: 'true keeps traces off whatever the other OTEL_* variables say',
    }),
  },
};
