/**
 * Admin CLI: `npm run cli -- <command> [options]`. Every command prints exactly one JSON line on
 * stdout; a failure prints one JSON line {"error": ...} on stderr and exits 1 (2 for bad usage).
 * `--help`, `-h` or `help` prints the usage as text on stdout and exits 0.
 * Passwords may come from stdin (--password-stdin) so they stay out of the shell history and `ps`.
 *
 * The database is the one of the stack you talk to: INSTANCE or MONGODB_URI when set (INSTANCE= names the default
 * stack); else the one database the running `npm start` stacks of this checkout use (said on stderr); none running,
 * the defaults; stacks on several databases, a refusal naming each (src/devstack/stacks.ts).
 */
import { parseArgs } from 'node:util';

// The CLI's stdout is its answer and pino writes to stdout: the CLI reports its own errors instead.
process.env.LOG_LEVEL = 'silent';

const USAGE = `usage: npm run cli -- <command> [options]
  merchant:create --name <company> --email <e-mail> --login <short name> (--password <pw> | --password-stdin)
      [--establishment <number>]...
  merchant:token --merchant <id>
  merchant:tokens --merchant <id>
  merchant:revoke-token --merchant <id> (--prefix <token prefix> | --all)
  merchant:set --merchant <id> [--allow-void-on-confirmed true|false] [--name <company>]
      [--establishment <number>]... [--remove-establishment <number>]...
  merchant:delete --merchant <id>
      removes a merchant created by mistake (no sales, links, subscriptions, endpoints, events or
      contacts yet), its users, tokens and establishment numbers; local databases only
  staff:create --email <e-mail> --login <short name> (--password <pw> | --password-stdin)
  user:revoke-sessions --user <id or e-mail>
      ends every session of the user at once: its access and refresh tokens are refused
  user:set-password --user <id or e-mail> (--password <pw> | --password-stdin)
      sets the password and ends the user's sessions
  user:deactivate --user <id or e-mail>
      no login, and its sessions ended; user:activate --user <id or e-mail> allows logins again
  card:encrypt --number <digits> --exp-month <1-12> --exp-year <yyyy> --cvv <digits>
      [--holder <name>] [--public-key-file <pem>]
      prints {"encrypted_card","kid"}: the card encrypted with this environment's public key
      (or the given PEM), for tests
  help, --help, -h: this text
The database: INSTANCE or MONGODB_URI when set (INSTANCE= is the default stack), else the one that the
running npm start stacks use (several: say which), else the default.`;

class UsageError extends Error {}

const OPTIONS = {
  name: { type: 'string' },
  email: { type: 'string' },
  login: { type: 'string' },
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  merchant: { type: 'string' },
  user: { type: 'string' },
  prefix: { type: 'string' },
  all: { type: 'boolean' },
  'allow-void-on-confirmed': { type: 'string' },
  establishment: { type: 'string', multiple: true },
  'remove-establishment': { type: 'string', multiple: true },
  number: { type: 'string' },
  holder: { type: 'string' },
  'exp-month': { type: 'string' },
  'exp-year': { type: 'string' },
  cvv: { type: 'string' },
  'public-key-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function required(
  options: Options,
  name: 'name' | 'email' | 'login' | 'merchant' | 'user' | 'number' | 'exp-month' | 'exp-year' | 'cvv',
): string {
  const value = options[name];
  if (typeof value !== 'string' || !value) throw new UsageError(`--${name} is required`);
  return value;
}

function merchantIdOption(options: Options): number {
  const id = Number(required(options, 'merchant'));
  if (!Number.isSafeInteger(id) || id < 1)
    throw new UsageError('--merchant must be a merchant id (a positive integer)');
  return id;
}

/** A user id, or anything else as the user's complete e-mail. */
function userOption(options: Options): number | string {
  const user = required(options, 'user');
  return /^\d+$/.test(user) ? Number(user) : user;
}

async function passwordOption(options: Options): Promise<string> {
  if (options['password-stdin']) {
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    return text.replace(/\r?\n$/, '');
  }
  if (typeof options.password !== 'string') throw new UsageError('--password or --password-stdin is required');
  return options.password;
}

function booleanOption(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new UsageError(`--${name} takes true or false`);
}

function integerOption(options: Options, name: 'exp-month' | 'exp-year'): number {
  const value = required(options, name);
  if (!/^\d{1,4}$/.test(value)) throw new UsageError(`--${name} must be an integer`);
  return Number(value);
}

/**
 * Commands that need no database. card:encrypt encrypts what it is given as it is (the service
 * checks the card): a test may want an expired or mistyped card. The card JSON has the documented
 * types: expMonth and expYear numbers, the rest strings.
 */
const LOCAL_COMMANDS: Record<string, (options: Options) => Promise<Record<string, unknown>>> = {
  async 'card:encrypt'(options) {
    const card = {
      number: required(options, 'number'),
      holder: options.holder ?? 'MARIA SILVA',
      expMonth: integerOption(options, 'exp-month'),
      expYear: integerOption(options, 'exp-year'),
      cvv: required(options, 'cvv'),
    };
    const { encryptCard, publicKeyPem } = await import('../cards');
    const { keyIdOf } = await import('../cards/keys');
    const file = options['public-key-file'];
    const pem = file ? (await import('node:fs')).readFileSync(file, 'utf8') : publicKeyPem();
    return { encrypted_card: encryptCard(card, pem), kid: keyIdOf(pem) };
  },
};

type Service = typeof import('../auth/service');

const COMMANDS: Record<string, (service: Service, options: Options) => Promise<Record<string, unknown>>> = {
  async 'merchant:create'(service, options) {
    const { merchant, user } = await service.createMerchant({
      companyName: required(options, 'name'),
      email: required(options, 'email'),
      login: required(options, 'login'),
      password: await passwordOption(options),
      establishmentNumbers: options.establishment,
    });
    return {
      merchant_id: merchant._id,
      user_id: user._id,
      company_name: merchant.companyName,
      email: user.email,
      login: user.login,
    };
  },
  async 'merchant:token'(service, options) {
    const merchantId = merchantIdOption(options);
    const { token, prefix } = await service.issueMerchantToken(merchantId);
    return { merchant_id: merchantId, token, prefix };
  },
  async 'merchant:tokens'(service, options) {
    const merchantId = merchantIdOption(options);
    const tokens = await service.listMerchantTokens(merchantId);
    return {
      merchant_id: merchantId,
      tokens: tokens.map((t) => ({ prefix: t.prefix, created_at: t.createdAt, revoked_at: t.revokedAt })),
    };
  },
  async 'merchant:revoke-token'(service, options) {
    const merchantId = merchantIdOption(options);
    if (Boolean(options.all) === (options.prefix !== undefined))
      throw new UsageError('give exactly one of --prefix <token prefix> or --all');
    const revoked = await service.revokeMerchantTokens(
      merchantId,
      options.all ? { all: true } : { prefix: options.prefix! },
    );
    return { merchant_id: merchantId, revoked };
  },
  async 'merchant:set'(service, options) {
    const merchant = await service.updateMerchant(merchantIdOption(options), {
      companyName: options.name,
      allowVoidOnConfirmed: booleanOption(options['allow-void-on-confirmed'], 'allow-void-on-confirmed'),
      addEstablishmentNumbers: options.establishment,
      removeEstablishmentNumbers: options['remove-establishment'],
    });
    return {
      merchant_id: merchant._id,
      company_name: merchant.companyName,
      allow_void_on_confirmed: merchant.settings.allowVoidOnConfirmed,
      establishment_numbers: merchant.establishmentNumbers,
    };
  },
  async 'merchant:delete'(_service, options) {
    const { deleteMerchant } = await import('./merchant-delete');
    return { ...(await deleteMerchant(merchantIdOption(options))), deleted: true };
  },
  async 'staff:create'(service, options) {
    const user = await service.createStaffUser({
      email: required(options, 'email'),
      login: required(options, 'login'),
      password: await passwordOption(options),
    });
    return { user_id: user._id, email: user.email, login: user.login, role: user.role };
  },
  async 'user:revoke-sessions'(service, options) {
    return sessionsAnswer(await service.revokeSessions(userOption(options)));
  },
  async 'user:set-password'(service, options) {
    const user = userOption(options);
    return sessionsAnswer(await service.changePassword(user, await passwordOption(options)));
  },
  async 'user:deactivate'(service, options) {
    return sessionsAnswer(await service.setUserActive(userOption(options), false));
  },
  async 'user:activate'(service, options) {
    return sessionsAnswer(await service.setUserActive(userOption(options), true));
  },
};

function sessionsAnswer(ended: import('../auth/service').EndedSessions): Record<string, unknown> {
  return { user_id: ended.userId, email: ended.email, sessions_ended: true, deactivated: ended.deactivated };
}

async function main(argv: string[]): Promise<number> {
  let name: string;
  let options: Options;
  try {
    const parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    if (parsed.values.help || parsed.positionals[0] === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (parsed.positionals.length !== 1)
      throw new UsageError(
        parsed.positionals.length ? `one command at a time, got ${parsed.positionals.join(' ')}` : 'no command given',
      );
    name = parsed.positionals[0];
    if (!Object.hasOwn(COMMANDS, name) && !Object.hasOwn(LOCAL_COMMANDS, name))
      throw new UsageError(`unknown command ${name}`);
    options = parsed.values;
  } catch (error) {
    // `--help` after a bad option still gets the usage (parseArgs throws before reading it).
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    process.stderr.write(`${JSON.stringify({ error: (error as Error).message, usage: USAGE })}\n`);
    return 2;
  }
  if (Object.hasOwn(LOCAL_COMMANDS, name)) {
    try {
      process.stdout.write(`${JSON.stringify(await LOCAL_COMMANDS[name](options))}\n`);
      return 0;
    } catch (error) {
      const usage = error instanceof UsageError ? { usage: USAGE } : {};
      process.stderr.write(`${JSON.stringify({ error: (error as Error).message, ...usage })}\n`);
      return error instanceof UsageError ? 2 : 1;
    }
  }
  const command = COMMANDS[name];
  // Its models are imported for merchant:delete alone (before connecting, as the service's are below).
  const deletion = name === 'merchant:delete' ? await import('./merchant-delete') : undefined;
  const refusal = deletion?.deletionRefusal(process.env.NODE_ENV);
  if (refusal) {
    process.stderr.write(`${JSON.stringify({ error: refusal })}\n`);
    return 1;
  }
  const { stackForCli, useStack } = await import('../devstack/stacks');
  const stack = stackForCli(process.env);
  if (stack.kind === 'ambiguous') {
    process.stderr.write(`${JSON.stringify({ error: stack.message })}\n`);
    return 1;
  }
  if (stack.kind === 'running') {
    useStack(stack.stack);
    process.stderr.write(`[cli] ${stack.notice}\n`);
  }
  const { getConfig } = await import('../../config');
  const { connectDatabase, disconnectDatabase } = await import('../db/connection');
  const { ApiError } = await import('../platform/errors');
  try {
    const remote = deletion?.deletionRefusal(getConfig().nodeEnv, getConfig().mongodbUri);
    if (remote) throw new Error(remote);
    // Import the models before connecting: connecting creates the indexes of the registered models.
    const service = await import('../auth/service');
    await connectDatabase(getConfig().mongodbUri);
    const result = await command(service, options);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${JSON.stringify({ error: error.message, usage: USAGE })}\n`);
      return 2;
    }
    if (error instanceof ApiError) {
      const { detail, ...fields } = error.body;
      process.stderr.write(
        `${JSON.stringify({ error: detail ?? 'invalid input', ...(Object.keys(fields).length ? { fields } : {}) })}\n`,
      );
      return 1;
    }
    process.stderr.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
    return 1;
  } finally {
    await disconnectDatabase().catch(() => undefined);
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
