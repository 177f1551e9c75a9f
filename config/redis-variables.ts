/**
 * How our processes prove who they are to Redis and encrypt what they send: a password (with an ACL user if given)
 * and TLS, the same for the single Redis at REDIS_URL and for every node of a Redis Cluster. A cluster takes them
 * from REDIS_URL too: its scheme (rediss:// for TLS) and credentials, while its host is not used.
 */
import crypto from 'node:crypto';
import { Joi } from 'celebrate';
import { variable, type ValidatedByName } from './declare';
import { oneOf } from './formats';

const pem = (label: RegExp) => Joi.string().pattern(label).allow('');

export const REDIS_SECURITY_VARIABLES = {
  username: variable({
    env: 'REDIS_USERNAME',
    schema: Joi.string().allow(''),
    default: '',
    doc: 'Redis ACL user our processes log in as (empty = the default user); needs REDIS_PASSWORD',
    see: '[Redis credentials and TLS](operations.md#redis-credentials-and-tls)',
  }),
  password: variable({
    env: 'REDIS_PASSWORD',
    schema: Joi.string().allow(''),
    default: '',
    secret: true,
    generatedLocally: false,
    doc:
      "Password of REDIS_USERNAME (or Redis's requirepass), for the single Redis and every cluster node; or give " +
      'it in REDIS_URL, not both',
  }),
  tls: {
    ca: variable({
      env: 'REDIS_TLS_CA',
      schema: pem(/BEGIN CERTIFICATE/),
      default: '',
      doc:
        "PEM certificates of the CA that signed Redis's certificate, trusted instead of the system's (empty = the " +
        'system CAs); needs REDIS_URL rediss://',
    }),
    cert: variable({
      env: 'REDIS_TLS_CERT',
      schema: pem(/BEGIN CERTIFICATE/),
      default: '',
      doc: 'PEM client certificate shown to Redis (tls-auth-clients), with REDIS_TLS_KEY; needs REDIS_URL rediss://',
    }),
    key: variable({
      env: 'REDIS_TLS_KEY',
      schema: pem(/BEGIN (RSA |EC )?PRIVATE KEY/),
      default: '',
      secret: true,
      generatedLocally: false,
      doc: 'PEM private key of REDIS_TLS_CERT',
    }),
  },
  allowInsecure: variable({
    env: 'REDIS_ALLOW_INSECURE',
    schema: oneOf('true', 'false'),
    default: 'false',
    doc:
      'true lets NODE_ENV=production start with a Redis that has no password or no TLS (rediss://); say why ' +
      'where you set it',
    parse: (flag) => flag === 'true',
  }),
};

export interface RedisSecurity {
  username?: string;
  password?: string;
  /** Present with rediss://: what Node's tls.connect adds to its defaults (the server is always verified). */
  tls?: { ca?: string; cert?: string; key?: string };
}

interface SecuritySettings {
  url: string;
  username: string;
  password: string;
  tls: { ca: string; cert: string; key: string };
}

/** What every Redis connection logs in with and whether it speaks TLS, from REDIS_URL and the variables above. */
export function redisSecurityOf({ url, username, password, tls }: SecuritySettings): RedisSecurity {
  const parsed = new URL(url);
  const fromUrl = { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  const credentials = fromUrl.username || fromUrl.password ? fromUrl : { username, password };
  const tlsFiles = Object.entries(tls).filter(([, text]) => text);
  return {
    ...(credentials.username ? { username: credentials.username } : {}),
    ...(credentials.password ? { password: credentials.password } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: Object.fromEntries(tlsFiles) } : {}),
  };
}

/**
 * Settings that would connect otherwise than they say (a CA with redis://, credentials given twice, a client
 * certificate without its key), and, in production, a Redis reachable without a password or without TLS: anyone
 * on its network could then read card tokens in queued jobs or add jobs of their own.
 */
export function redisSecurityProblems(raw: ValidatedByName): string[] {
  const text = (name: string) => String(raw[name] ?? '');
  const settings = {
    url: text('REDIS_URL'),
    username: text('REDIS_USERNAME'),
    password: text('REDIS_PASSWORD'),
    tls: { ca: text('REDIS_TLS_CA'), cert: text('REDIS_TLS_CERT'), key: text('REDIS_TLS_KEY') },
  };
  if (!settings.url) return [];
  const problems: string[] = [];
  const parsed = new URL(settings.url);
  if ((parsed.username || parsed.password) && (settings.username || settings.password))
    problems.push('REDIS_USERNAME or REDIS_PASSWORD is set and REDIS_URL carries credentials too: give them once');
  if (settings.username && !settings.password) problems.push('REDIS_USERNAME needs REDIS_PASSWORD');
  const tlsNames = ['REDIS_TLS_CA', 'REDIS_TLS_CERT', 'REDIS_TLS_KEY'].filter(text);
  if (tlsNames.length && parsed.protocol !== 'rediss:')
    problems.push(`${tlsNames.join(', ')} set, but REDIS_URL is not rediss://: without it no connection uses TLS`);
  problems.push(...clientCertificateProblems(settings.tls));
  const security = redisSecurityOf(settings);
  if (raw.NODE_ENV === 'production' && raw.REDIS_ALLOW_INSECURE !== 'true') {
    const missing = [
      ...(security.password ? [] : ['no password (set REDIS_PASSWORD, or one in REDIS_URL)']),
      ...(security.tls ? [] : ['no TLS (set REDIS_URL to rediss://…, with REDIS_TLS_CA for a private CA)']),
    ];
    if (missing.length)
      problems.push(
        `Redis would be used with ${missing.join(' and ')} in production; or set REDIS_ALLOW_INSECURE=true to ` +
          'accept it (e.g. Redis reachable from these machines only)',
      );
  }
  return problems;
}

function clientCertificateProblems({ ca, cert, key }: SecuritySettings['tls']): string[] {
  if (Boolean(cert) !== Boolean(key))
    return ['REDIS_TLS_CERT and REDIS_TLS_KEY go together (a certificate and its key)'];
  try {
    if (ca) new crypto.X509Certificate(ca);
  } catch (error) {
    return [`REDIS_TLS_CA cannot be read (${(error as Error).message})`];
  }
  if (!cert) return [];
  try {
    if (!new crypto.X509Certificate(cert).checkPrivateKey(crypto.createPrivateKey(key)))
      return ['REDIS_TLS_KEY is not the private key of REDIS_TLS_CERT'];
  } catch (error) {
    return [`REDIS_TLS_CERT or REDIS_TLS_KEY cannot be read (${(error as Error).message})`];
  }
  return [];
}
