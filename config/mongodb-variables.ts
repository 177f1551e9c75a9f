/**
 * Where our processes find MongoDB, and what production asks of that connection: a database on another machine
 * is reached with credentials and over TLS, as Redis is (redis-variables.ts), unless the operator says otherwise.
 */
import { Joi } from 'celebrate';
import { variable, type ValidatedByName } from './declare';
import { forInstance, isLoopbackHost, oneOf } from './formats';

/** The local FerretDB (or MongoDB) server, without a database name. */
export const DEFAULT_MONGODB_SERVER = 'mongodb://127.0.0.1:27017';

export const MONGODB_VARIABLES = {
  uri: variable({
    env: 'MONGODB_URI',
    schema: Joi.string()
      .uri({ scheme: ['mongodb', 'mongodb+srv'] })
      .allow(''),
    default: '',
    doc:
      'MongoDB (FerretDB locally) connection string, database name included (default: ' +
      `${DEFAULT_MONGODB_SERVER}/payments, or payments-INSTANCE)`,
    parse: (uri, others) => uri || `${DEFAULT_MONGODB_SERVER}/${forInstance('payments', others)}`,
  }),
  allowInsecure: variable({
    env: 'MONGODB_ALLOW_INSECURE',
    schema: oneOf('true', 'false'),
    default: 'false',
    doc:
      'true lets NODE_ENV=production start with a MONGODB_URI on another machine that has no credentials or no ' +
      'TLS; say why where you set it',
    see: '[what production refuses](deploy.md#what-production-refuses)',
    parse: (flag) => flag === 'true',
  }),
};

/** Mechanisms that prove who we are without a user name in the string (a client certificate, a cloud identity). */
const MECHANISMS_WITHOUT_USER = ['MONGODB-X509', 'MONGODB-AWS', 'MONGODB-OIDC'];

/** Options that keep TLS but stop checking whom it talks to. */
const UNVERIFIED_TLS = ['tlsinsecure', 'tlsallowinvalidcertificates', 'tlsallowinvalidhostnames'];

/** What a connection string says about its hosts, credentials and TLS (options by their lower-case names). */
function connectionOf(uri: string) {
  const [, scheme, userinfo = '', hosts, query = ''] = /^([^:]+):\/\/(?:([^@/]*)@)?([^/?]*)[^?]*(?:\?(.*))?$/.exec(
    uri,
  )!;
  const options = new Map([...new URLSearchParams(query)].map(([name, value]) => [name.toLowerCase(), value]));
  const tls = options.get('tls') ?? options.get('ssl');
  return {
    // A Unix socket is given percent-encoded (%2Ftmp%2Fmongodb-27017.sock): this machine too.
    local: hosts.split(',').every((host) => /^%2F/i.test(host) || isLoopbackHost(host)),
    credentials:
      decodeURIComponent(userinfo.split(':')[0]) !== '' ||
      MECHANISMS_WITHOUT_USER.includes(options.get('authmechanism') ?? ''),
    // mongodb+srv:// turns TLS on unless the string turns it off.
    tls: tls === undefined ? scheme === 'mongodb+srv' : tls === 'true',
    unverified: UNVERIFIED_TLS.some((name) => options.get(name) === 'true'),
  };
}

/**
 * In production, a MongoDB on another machine reached without credentials or without TLS (or with TLS that checks
 * nothing): anyone on the network between could read or change every payment. One line naming MONGODB_URI, never
 * its value (it may hold the password).
 */
export function mongodbSecurityProblems(raw: ValidatedByName): string[] {
  const uri = String(raw.MONGODB_URI ?? '');
  if (raw.NODE_ENV !== 'production' || raw.MONGODB_ALLOW_INSECURE === 'true' || !uri) return [];
  const connection = connectionOf(uri);
  if (connection.local) return [];
  const missing = [
    ...(connection.credentials ? [] : ['no credentials (a user in MONGODB_URI, or authMechanism=MONGODB-X509)']),
    ...(connection.tls ? [] : ['no TLS (tls=true in MONGODB_URI, or mongodb+srv://)']),
    ...(connection.tls && connection.unverified
      ? ['TLS that does not verify the server (tlsInsecure or tlsAllowInvalid* set)']
      : []),
  ];
  if (!missing.length) return [];
  return [
    `MONGODB_URI reaches another machine with ${missing.join(' and ')} in production; or set ` +
      'MONGODB_ALLOW_INSECURE=true to accept it (e.g. a database reachable from these machines only)',
  ];
}
