/**
 * One typed configuration object, read from the environment and validated once at start; each variable is
 * declared once in variables.ts, which gives the object its type.
 * A missing or bad variable stops the process with its name and what is expected.
 * Local runs need no .env: secrets are generated once into .data/local-secrets.json (git-ignored);
 * with NODE_ENV=production they must come from the environment.
 */
import crypto from 'node:crypto';
import { type ConfigValues, type Validated, valuesOf, variablesOf } from './declare';
import { loadLocalSecrets } from './local-secrets';
import { CONFIG_VARIABLES, queuePrefixOf } from './variables';
import { redisSecurityProblems } from './redis-variables';
import { mongodbSecurityProblems } from './mongodb-variables';
import { acquirerTlsProblems } from './acquirer-variables';
import { productionProblems } from './production';

export { DEFAULT_FERRETDB_POSTGRESQL_URL } from './variables';
export { DEFAULT_MONGODB_SERVER } from './mongodb-variables';

export type Config = ConfigValues<typeof CONFIG_VARIABLES>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV || 'development';
  const secrets: Record<string, string> = nodeEnv === 'production' ? {} : loadLocalSecrets();
  const validated: Record<string, Validated> = {};
  const problems: string[] = [];
  for (const variable of variablesOf(CONFIG_VARIABLES)) {
    const { env: name, doc } = variable;
    let value: unknown = env[name];
    if (value === undefined || (value === '' && !variable.emptyIsAValue))
      value = (variable.generatedLocally ? secrets[name] : undefined) ?? variable.default;
    if (value === undefined) {
      const neverGenerated = variable.generatedLocally && nodeEnv === 'production';
      problems.push(
        `${name} is required: ${doc}` + (neverGenerated ? ' (production never uses generated secrets)' : ''),
      );
      continue;
    }
    const { error, value: parsed } = variable.schema.validate(value, { convert: true });
    if (error) problems.push(`${name} is invalid (${error.message.replace(/^"value" /, '')}): expected ${doc}`);
    else validated[name] = parsed;
  }
  const clusterProblem =
    validated.REDIS_CLUSTER_NODES && validated.QUEUE_PREFIX !== undefined
      ? clusterPrefixProblem(queuePrefixOf(validated.QUEUE_PREFIX, validated))
      : undefined;
  if (clusterProblem) problems.push(clusterProblem);
  problems.push(...productionProblems(env, validated));
  if (!problems.length)
    problems.push(
      ...cardKeyProblems(validated),
      ...redisSecurityProblems(validated),
      ...mongodbSecurityProblems(validated),
      ...acquirerTlsProblems(validated),
    );
  if (problems.length) throw new ConfigError(badConfiguration(problems));
  return valuesOf(CONFIG_VARIABLES, validated);
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

/** The exit code of a start refused for its configuration (EX_CONFIG of sysexits.h): a supervisor should not retry. */
export const EXIT_BAD_CONFIGURATION = 78;

/** The message of a refused start: one line per reason under one heading. */
export function badConfiguration(problems: string[]): string {
  return `bad configuration:\n  ${problems.join('\n  ')}`;
}

/** Prints why the process will not start (one line per reason) and exits 78. */
export function exitRefusingToStart(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(EXIT_BAD_CONFIGURATION);
}

let loaded: Config | undefined;

/** The process-wide config, loaded on first use. A bad config exits non-zero naming the variable. */
export function getConfig(): Config {
  if (!loaded) {
    try {
      loaded = loadConfig();
    } catch (error) {
      if (error instanceof ConfigError) exitRefusingToStart(error.message);
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

export { PROJECT_ROOT } from './project-root';
