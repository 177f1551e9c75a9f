/**
 * Secrets a local run needs, generated once into .data/local-secrets.json (git-ignored) so that
 * `npm install && npm start` works with no .env. Never used when NODE_ENV=production.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { variablesOf, type SecretNames } from './declare';
import { CONFIG_VARIABLES } from './variables';
import { PROJECT_ROOT } from './project-root';

export const LOCAL_SECRETS_FILE = path.join(PROJECT_ROOT, '.data', 'local-secrets.json');

/** One value for each variable declared `secret` (the type holds this list to the declarations). */
function generate(): Record<SecretNames<typeof CONFIG_VARIABLES>, string> {
  const random = (bytes: number) => crypto.randomBytes(bytes).toString('base64url');
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    JWT_SECRET: random(48),
    SYSTEM_TOKEN: `sys_${random(32)}`,
    CARD_RSA_PRIVATE_KEY: privateKey,
    CARD_RSA_PUBLIC_KEY: publicKey,
    CARD_FINGERPRINT_KEY: random(32),
    SAVED_CARD_TOKEN_KEY: random(32),
    DASHBOARD_PASSWORD: random(18),
    ACQUIRER_MERCHANT_KEY: random(30),
    ACQUIRER_NOTIFICATION_SECRET: random(32),
    ACQUIRER_CHARGEBACK_CLIENT_SECRET: random(32),
    ACQUIRER_3DS_CLIENT_SECRET: random(32),
    CHARGEBACK_NOTIFICATION_SECRET: random(32),
  };
}

let cached: { file: string; secrets: Record<string, string> } | undefined;

export function loadLocalSecrets(file = LOCAL_SECRETS_FILE): Record<string, string> {
  // Callers skip it in production already; this makes sure a new caller cannot read or create the file there.
  if (process.env.NODE_ENV === 'production')
    throw new Error('NODE_ENV=production never reads or writes the local secrets file: give every secret');
  if (cached?.file === file) return cached.secrets;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${Date.now()}`;
    fs.writeFileSync(temp, JSON.stringify(generate(), null, 2), { mode: 0o600 });
    try {
      fs.linkSync(temp, file); // create-if-absent atomically: several processes may start at once
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.unlinkSync(temp);
    }
  }
  const text = fs.readFileSync(file, 'utf8');
  const stored = JSON.parse(text) as Record<string, string>;
  cached = { file, secrets: { ...secretsMissingFrom(stored, text), ...stored } };
  return cached.secrets;
}

/**
 * A file made before a secret was declared lacks it. Rather than rewrite a file other processes may
 * be reading (and race them to different values), each missing secret is derived from the file's
 * own random content (HKDF, labelled with the secret's name): every process derives the same value,
 * as unguessable as the file.
 */
function secretsMissingFrom(stored: Record<string, string>, text: string): Record<string, string> {
  const missing = variablesOf(CONFIG_VARIABLES)
    .filter((variable) => variable.generatedLocally && !(variable.env in stored))
    .map((variable) => variable.env);
  const derive = (name: string) =>
    Buffer.from(crypto.hkdfSync('sha256', text, 'local-secrets', name, 32)).toString('base64url');
  return Object.fromEntries(missing.map((name) => [name, derive(name)]));
}
