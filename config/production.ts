/**
 * What NODE_ENV=production refuses beyond the per-variable checks: every default that only makes sense on a
 * developer's machine. Local runs generate their secrets and point at the sandbox; production must be told
 * everything, and a secret that is short, a placeholder or shared between two variables is refused. Each problem is
 * one line naming the variable, never its value.
 */
import type { ValidatedByName } from './declare';
import { variablesOf } from './declare';
import { CONFIG_VARIABLES } from './variables';
import { defenceProblems } from './production-defences';

/**
 * The shortest secret production takes, where it is longer than what a local run accepts: secrets we choose get 32
 * characters (256 bits of base64), the operators' dashboard password 16, the acquirer's MerchantKey its documented 40.
 */
export const PRODUCTION_MIN_LENGTH: Readonly<Record<string, number>> = {
  JWT_SECRET: 32,
  SYSTEM_TOKEN: 32,
  CARD_FINGERPRINT_KEY: 32,
  CARD_FINGERPRINT_PREVIOUS_KEY: 32,
  SAVED_CARD_TOKEN_KEY: 32,
  SAVED_CARD_TOKEN_PREVIOUS_KEY: 32,
  ACQUIRER_NOTIFICATION_SECRET: 32,
  CHARGEBACK_NOTIFICATION_SECRET: 32,
  ACQUIRER_MERCHANT_KEY: 40,
  ACQUIRER_CHARGEBACK_CLIENT_SECRET: 16,
  ACQUIRER_3DS_CLIENT_SECRET: 16,
  DASHBOARD_PASSWORD: 16,
};

/** Text a person typed instead of a random secret. */
const PLACEHOLDER = /change.?me|example|placeholder|secret|password|default|sandbox|xxxx/i;

/** Fewer distinct characters than this in a secret of at least 16 is a pattern, not randomness. */
const MIN_DISTINCT_CHARACTERS = 10;

/** Variables whose local default points at the sandbox or at this machine: production must set each. */
const MUST_BE_GIVEN = [
  'PUBLIC_BASE_URL',
  'MONGODB_URI',
  'ACQUIRER_BASE_URL',
  'ACQUIRER_QUERY_URL',
  'ACQUIRER_MERCHANT_ID',
  // Given as empty, it turns the chargeback integration off; its default is the sandbox's client.
  'ACQUIRER_CHARGEBACK_CLIENT_ID',
];

/** Test-only switches that must stay off. */
const TEST_ONLY: [name: string, off: string][] = [
  ['WEBHOOK_TEST_ALLOW_HOSTS', ''],
  ['WORKER_TEST_CHARGE_HOLD_MS', '0'],
  ['EVENTS_TEST_HOLD_MS', '0'],
  ['MIGRATION_TEST_KILL_AFTER', '0'],
  ['MIGRATION_TEST_HOLD_MS', '0'],
];

function isPem(text: string): boolean {
  return text.includes('-----BEGIN ');
}

/** A secret's weakness as one phrase, or undefined. */
function weakness(name: string, value: string): string | undefined {
  const min = PRODUCTION_MIN_LENGTH[name];
  if (min && value.length < min) return `is too short for production (${value.length} characters, at least ${min})`;
  if (PLACEHOLDER.test(value)) return 'looks like a placeholder, not a random secret';
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS)
    return 'is a pattern, not a random secret (too few distinct characters)';
  return undefined;
}

export function productionProblems(env: NodeJS.ProcessEnv, validated: ValidatedByName): string[] {
  if (validated.NODE_ENV !== 'production') return [];
  const given = (name: string) =>
    env[name] !== undefined && (env[name] !== '' || name === 'ACQUIRER_CHARGEBACK_CLIENT_ID');
  const text = (name: string) => String(validated[name] ?? '');
  const problems: string[] = [];
  for (const name of MUST_BE_GIVEN)
    if (!given(name)) problems.push(`${name} must be set in production (its default is for a local run)`);
  for (const name of [
    'PUBLIC_BASE_URL',
    'ACQUIRER_BASE_URL',
    'ACQUIRER_QUERY_URL',
    'ACQUIRER_CHARGEBACK_BASE_URL',
    'ACQUIRER_CHARGEBACK_AUTH_URL',
    'ACQUIRER_3DS_URL',
  ])
    if (given(name) && !text(name).startsWith('https://'))
      problems.push(`${name} must be an https:// URL in production`);
  const secretsSeen = new Map<string, string>();
  for (const variable of variablesOf(CONFIG_VARIABLES)) {
    const value = text(variable.env);
    if (!variable.secret || !value || isPem(value) || variable.env.startsWith('SANDBOX_')) continue;
    const problem = weakness(variable.env, value);
    if (problem) problems.push(`${variable.env} ${problem}`);
    const twin = secretsSeen.get(value);
    if (twin) problems.push(`${variable.env} has the same value as ${twin}: give each secret its own`);
    secretsSeen.set(value, variable.env);
  }
  // Unset, its default is refused above; empty, the integration is off and needs nothing.
  if (given('ACQUIRER_CHARGEBACK_CLIENT_ID') && text('ACQUIRER_CHARGEBACK_CLIENT_ID')) {
    if (text('ACQUIRER_CHARGEBACK_CLIENT_ID') === 'payments-sandbox')
      problems.push(
        'ACQUIRER_CHARGEBACK_CLIENT_ID is the sandbox client: set the id the acquirer gave, or empty to turn off',
      );
    const needed = [
      'ACQUIRER_CHARGEBACK_CLIENT_SECRET',
      'ACQUIRER_CHARGEBACK_BASE_URL',
      'ACQUIRER_CHARGEBACK_AUTH_URL',
      'ACQUIRER_CHARGEBACK_CLIENT_CERT',
      'ACQUIRER_CHARGEBACK_CLIENT_KEY',
    ].filter((name) => !given(name));
    if (needed.length)
      problems.push(
        `the chargeback integration is on (ACQUIRER_CHARGEBACK_CLIENT_ID set) but ${needed.join(', ')} ` +
          `${needed.length > 1 ? 'are' : 'is'} not set (the acquirer requires OAuth2 and mutual TLS)`,
      );
  }
  problems.push(...threeDSecureProblems(given, text));
  for (const [name, off] of TEST_ONLY)
    if (text(name) !== off) problems.push(`${name} is for tests only and must stay unset in production`);
  problems.push(...defenceProblems(validated, given));
  return problems;
}

/**
 * 3-D Secure is on in production once its ClientSecret is given (its default is empty: off): it then needs the
 * service's address and the ClientId the acquirer gave, never the sandbox's defaults.
 */
function threeDSecureProblems(given: (name: string) => boolean, text: (name: string) => string): string[] {
  if (!given('ACQUIRER_3DS_CLIENT_SECRET')) return [];
  const problems: string[] = [];
  if (!given('ACQUIRER_3DS_URL'))
    problems.push(
      '3-D Secure is on (ACQUIRER_3DS_CLIENT_SECRET set) but ACQUIRER_3DS_URL is not set: its default is the sandbox',
    );
  if (!given('ACQUIRER_3DS_CLIENT_ID') || text('ACQUIRER_3DS_CLIENT_ID') === 'payments-sandbox')
    problems.push(
      '3-D Secure is on (ACQUIRER_3DS_CLIENT_SECRET set) but ACQUIRER_3DS_CLIENT_ID is the sandbox client: ' +
        'set the id the acquirer gave',
    );
  return problems;
}
