/** The value formats several variables share: their Joi schemas and how their text becomes a field's value. */
import { Joi } from 'celebrate';
import type { Validated } from './declare';

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

/**
 * A local process's URL on the port another variable gives, for the defaults that follow a port (PORT moves
 * PUBLIC_BASE_URL, SANDBOX_PORT the acquirer URLs). Port 0 (any free port) is known only once listening, so it
 * keeps the port's own default.
 */
export const loopbackUrl = (port: Validated, defaultPort: number, path = '') =>
  `http://127.0.0.1:${Number(port) || defaultPort}${path}`;

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
