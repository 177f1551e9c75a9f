/** The value formats several variables share: their Joi schemas and how their text becomes a field's value. */
import crypto from 'node:crypto';
import { Joi } from 'celebrate';
import type { Validated, ValidatedByName } from './declare';

export const positiveInt = Joi.number().integer().min(1);
export const httpUrl = Joi.string().uri({ scheme: ['http', 'https'] });

/** A choice among names, typed as that choice. */
export const oneOf = <const Choice extends string>(...choices: Choice[]) =>
  Joi.string().valid(...choices) as Joi.StringSchema<Choice>;

/** host:port,host:port (spaces allowed around entries), or empty. */
export const hostPortList = Joi.string()
  .allow('')
  .pattern(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/);

export const trimTrailingSlashes = (url: string) => url.replace(/\/+$/, '');

/** An instance name: lower-case letters and digits in dash-separated words, as it goes into names and prefixes. */
export const instanceName = Joi.string()
  .allow('')
  .max(20)
  .pattern(/^[a-z0-9]+(-[a-z0-9]+)*$/);

/**
 * How far INSTANCE moves the default ports: 0 without one, else a multiple of 10 from 10 to 990 that the name
 * always gives (a digest, so any two names rarely meet; if they do, the start names the port in use). Every default
 * port moves by the same amount, so a stack's ports keep their distances and two stacks' never meet.
 */
export function instancePortOffset(others: ValidatedByName): number {
  const name = String(others.INSTANCE ?? '');
  if (!name) return 0;
  return ((crypto.createHash('sha256').update(name).digest().readUInt32BE(0) % 99) + 1) * 10;
}

/** A name suffixed with `-INSTANCE` when an instance is named: a database name or a queue prefix of its own. */
export const forInstance = (name: string, others: ValidatedByName) =>
  others.INSTANCE ? `${name}-${String(others.INSTANCE)}` : name;

/** A port as given, or (empty) its default moved by INSTANCE; 0 stays 0 (any free port). */
export const portOrDefault = (port: Validated, defaultPort: number, others: ValidatedByName) =>
  port === '' ? defaultPort + instancePortOffset(others) : Number(port);

/** A port variable whose default follows INSTANCE. */
export const portSchema = Joi.number().port().allow('') as Joi.AnySchema<number | ''>;

/**
 * A local process's URL on the port another variable gives, for the defaults that follow a port (PORT moves
 * PUBLIC_BASE_URL, SANDBOX_PORT the acquirer URLs). Port 0 (any free port) is known only once listening, so it
 * keeps the port's own default (moved by INSTANCE).
 */
export const loopbackUrl = (port: Validated, defaultPort: number, others: ValidatedByName, path = '') =>
  `http://127.0.0.1:${portOrDefault(port, defaultPort, others) || defaultPort + instancePortOffset(others)}${path}`;

/** The entries of a comma-separated list, trimmed, empty ones left out. */
export const commaSeparated = (list: string) =>
  list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

export const hostPorts = (list: string) =>
  commaSeparated(list).map((entry) => {
    const colon = entry.lastIndexOf(':');
    return { host: entry.slice(0, colon), port: Number(entry.slice(colon + 1)) };
  });
