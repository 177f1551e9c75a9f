/**
 * Settings that are well-formed, and fine on a developer's machine, but would undo a defence in production: keys
 * short enough to break, a client address anyone can choose, the sandbox or this machine standing in for the
 * acquirer, rate limits too generous to limit anything, webhooks allowed to reach this machine. Each problem is one
 * line naming the variable; production.ts adds them to its own.
 */
import crypto from 'node:crypto';
import type { ValidatedByName, Variable } from './declare';
import { variablesOf } from './declare';
import { isLoopbackHost, proxyRange } from './formats';
import { ACQUIRER_VARIABLES, pemText } from './acquirer-variables';
import { CONFIG_VARIABLES } from './variables';

/** The shortest RSA (or DSA) key production takes: NIST's floor since 2013; 512 and 768 bits have been factored. */
const PRODUCTION_MIN_RSA_BITS = 2048;

/** Elliptic curves of at least 128-bit strength (P-256 and up); EdDSA keys are strong in themselves. */
const STRONG_CURVES = ['prime256v1', 'secp384r1', 'secp521r1'];

/**
 * The most hops TRUST_PROXY may count: a CDN, a load balancer and an ingress are three. A count above the proxies
 * really in front makes the leftmost X-Forwarded-For entry, which the client writes, its address.
 */
const PRODUCTION_MAX_PROXY_HOPS = 5;

/** How far above its default a rate limit may go in production: per window, and per minute (a shorter window). */
const PRODUCTION_RATE_FACTOR = 10;

/** Private keys production checks the strength of (a client key may be the path of its PEM file). */
const KEYS = ['CARD_RSA_PRIVATE_KEY', 'ACQUIRER_CHARGEBACK_CLIENT_KEY', 'REDIS_TLS_KEY'];

/** The acquirer's URLs: none may point at this machine or at a sandbox. */
const ACQUIRER_URLS = [
  'ACQUIRER_BASE_URL',
  'ACQUIRER_QUERY_URL',
  'ACQUIRER_CHARGEBACK_BASE_URL',
  'ACQUIRER_CHARGEBACK_AUTH_URL',
  'ACQUIRER_3DS_URL',
];

/** Each rate limit with its window. */
const RATE_LIMITS: { limit: Variable; window: Variable }[] = [
  CONFIG_VARIABLES.tokenRateLimit,
  CONFIG_VARIABLES.passwordAccountRateLimit,
  CONFIG_VARIABLES.passwordAddressFailures,
  CONFIG_VARIABLES.checkoutPayRateLimit,
].map(({ limit, windowSeconds }) => ({ limit, window: windowSeconds }));

/** Why a private key is too weak for production, or undefined (also when it cannot be read: that is said later). */
function keyWeakness(name: string, value: string): string | undefined {
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey(pemText(value));
  } catch {
    return undefined;
  }
  const type = key.asymmetricKeyType ?? 'unknown';
  const { modulusLength: bits = 0, namedCurve } = key.asymmetricKeyDetails ?? {};
  if (name === 'CARD_RSA_PRIVATE_KEY' && type !== 'rsa')
    return `is a ${type} key, not an RSA key (cards are encrypted with RSA)`;
  if (['rsa', 'rsa-pss', 'dsa'].includes(type) && bits < PRODUCTION_MIN_RSA_BITS)
    return (
      `is a ${bits}-bit ${type.toUpperCase()} key: production takes at least ${PRODUCTION_MIN_RSA_BITS} bits ` +
      '(shorter keys can be broken)'
    );
  if (type === 'ec' && !STRONG_CURVES.includes(namedCurve ?? ''))
    return `is an EC key on ${namedCurve}: production takes P-256, P-384 or P-521`;
  return undefined;
}

/** Why TRUST_PROXY would let a client choose its own address, or undefined. */
function trustProxyWeakness(value: string): string | undefined {
  if (value === 'true')
    return (
      'TRUST_PROXY=true trusts any X-Forwarded-For, so every client chooses the address its per-IP limits count: ' +
      'give the number of proxies in front, or their addresses or ranges'
    );
  if (/^\d+$/.test(value) && Number(value) > PRODUCTION_MAX_PROXY_HOPS)
    return (
      `TRUST_PROXY counts ${value} proxy hops: production takes at most ${PRODUCTION_MAX_PROXY_HOPS} (hops ` +
      'beyond the proxies really in front are written by the client)'
    );
  if (value.split(',').some((entry) => proxyRange(entry.trim())?.[1] === 0))
    return 'TRUST_PROXY lists a /0 range, which trusts every address as true does: list the proxies only';
  return undefined;
}

/** Why an acquirer URL is not the acquirer, or undefined. */
function acquirerUrlWeakness(name: string, value: string): string | undefined {
  const url = new URL(value);
  if (isLoopbackHost(url.host))
    return `${name} points at this machine (a loopback address): production calls the acquirer, not a local sandbox`;
  if (/sandbox/i.test(`${url.hostname}${url.pathname}`))
    return `${name} is a sandbox's address (its host or path says sandbox): production calls the acquirer's live API`;
  return undefined;
}

/** Why a rate limit is far above the range production takes, or undefined. */
function rateWeakness({ limit, window }: (typeof RATE_LIMITS)[number], raw: ValidatedByName): string | undefined {
  const [count, seconds] = [Number(raw[limit.env]), Number(raw[window.env])];
  const [defaultCount, defaultSeconds] = [Number(limit.default), Number(window.default)];
  const most = PRODUCTION_RATE_FACTOR * defaultCount;
  const mostPerMinute = (PRODUCTION_RATE_FACTOR * defaultCount * 60) / defaultSeconds;
  if (count > most)
    return (
      `${limit.env} is ${count}, far above its range: production takes at most ${most} per window ` +
      `(${PRODUCTION_RATE_FACTOR} times the default ${defaultCount})`
    );
  const perMinute = (count * 60) / seconds;
  if (perMinute > mostPerMinute)
    return (
      `${window.env} is ${seconds} s, so ${limit.env}=${count} lets ${Math.round(perMinute)} a minute through, far ` +
      `above its range: production takes at most ${mostPerMinute} a minute (${PRODUCTION_RATE_FACTOR} times the ` +
      `default ${defaultCount} per ${defaultSeconds} s)`
    );
  return undefined;
}

/** The problems of a production configuration that would undo a defence; `given` says which variables were set. */
export function defenceProblems(raw: ValidatedByName, given: (name: string) => boolean): string[] {
  const text = (name: string) => String(raw[name] ?? '');
  const problems: string[] = [];
  const problem = (found: string | undefined) => {
    if (found) problems.push(found);
  };
  for (const name of KEYS) {
    const weakness = text(name) ? keyWeakness(name, text(name)) : undefined;
    if (weakness) problems.push(`${name} ${weakness}`);
  }
  problem(trustProxyWeakness(text('TRUST_PROXY')));
  for (const name of ACQUIRER_URLS) if (given(name) && text(name)) problem(acquirerUrlWeakness(name, text(name)));
  if (given('ACQUIRER_MERCHANT_ID') && text('ACQUIRER_MERCHANT_ID') === ACQUIRER_VARIABLES.merchantId.default)
    problems.push(
      "ACQUIRER_MERCHANT_ID is the sandbox's MerchantId (its local default): set the one the acquirer gave",
    );
  for (const { env } of variablesOf(CONFIG_VARIABLES))
    if (env.startsWith('SANDBOX_') && given(env))
      problems.push(`${env} is a setting of the sandbox, which never runs in production: remove it`);
  for (const pair of RATE_LIMITS) problem(rateWeakness(pair, raw));
  if (text('WEBHOOKS_ALLOW_LOCALHOST') === 'true')
    problems.push(
      'WEBHOOKS_ALLOW_LOCALHOST=true lets merchants point webhooks at this machine (a local development switch): ' +
        'remove it',
    );
  return problems;
}
