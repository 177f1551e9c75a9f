/**
 * Key rotation: this file's process runs with a new key pair and the previous private key accepted
 * until a set time (config loads once per process, so the variables are set before anything reads it).
 */
import '../helpers/env';
import crypto from 'node:crypto';
import test from 'ava';

const pair = () => {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKey, publicKey };
};
const previousPair = pair();
const currentPair = pair();
const unrelatedPair = pair();
const PREVIOUS_UNTIL = new Date(Date.now() + 7 * 86_400_000);
Object.assign(process.env, {
  CARD_RSA_PRIVATE_KEY: currentPair.privateKey,
  CARD_RSA_PUBLIC_KEY: currentPair.publicKey,
  CARD_RSA_PREVIOUS_PRIVATE_KEY: previousPair.privateKey,
  CARD_RSA_PREVIOUS_KEY_UNTIL: PREVIOUS_UNTIL.toISOString(),
});

/* eslint-disable import/first */
import { ConfigError, loadConfig } from '../../config';
import { CardError, decryptCard, encryptCard, publicKeyId, UNDECRYPTABLE_CARD } from '../../src/cards';
import { keyIdOf } from '../../src/cards/keys';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { send } from '../helpers/http';

const card = { number: '4111111111111111', holder: 'Ana Souza', expMonth: 12, expYear: 2035, cvv: '123' };

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(() => app?.close());

test('the key id is the RFC 7638 thumbprint of the public key', (t) => {
  const { e, n } = crypto.createPublicKey(currentPair.publicKey).export({ format: 'jwk' });
  const expected = crypto.createHash('sha256').update(`{"e":"${e}","kty":"RSA","n":"${n}"}`).digest('base64url');
  t.is(publicKeyId(), expected);
  t.is(keyIdOf(currentPair.privateKey), expected, 'the private key names the same kid');
  t.not(keyIdOf(previousPair.publicKey), expected);
});

test('the route serves the current key, its kid and the previous key end', async (t) => {
  const res = await send(app, 'GET', '/api/v1/cards/public-key/');
  t.is(res.status, 200);
  t.regex(res.headers.get('cache-control') ?? '', /public, max-age=3600/);
  t.is(res.headers.get('access-control-allow-origin'), '*');
  t.deepEqual(await json(res), {
    kid: keyIdOf(currentPair.publicKey),
    algorithm: 'RSAES-PKCS1-v1_5',
    key_size: 2048,
    public_key: currentPair.publicKey,
    previous_kid: keyIdOf(previousPair.publicKey),
    previous_accepted_until: PREVIOUS_UNTIL.toISOString(),
  });
});

test('cards encrypted with the current or the previous key are accepted during the overlap', (t) => {
  t.deepEqual(decryptCard(encryptCard(card, currentPair.publicKey)), card);
  t.deepEqual(decryptCard(encryptCard(card, previousPair.publicKey)), card);
  t.deepEqual(
    decryptCard(encryptCard(card), new Date(PREVIOUS_UNTIL.getTime() - 1)),
    card,
    'encryptCard uses the current key',
  );
});

test('after the overlap the previous key gets the same answer as any undecryptable card', (t) => {
  const after = new Date(PREVIOUS_UNTIL.getTime() + 1);
  t.deepEqual(decryptCard(encryptCard(card, currentPair.publicKey), after), card);
  for (const [label, encrypted] of [
    ['previous key, after the overlap', encryptCard(card, previousPair.publicKey)],
    ['a key we never had', encryptCard(card, unrelatedPair.publicKey)],
    ['garbage of the right length', crypto.randomBytes(256).toString('base64')],
  ] as const) {
    const error = t.throws(() => decryptCard(encrypted, after), { instanceOf: CardError }, label);
    t.is(error?.field, 'encrypted_card', label);
    t.is(error?.message, UNDECRYPTABLE_CARD, label);
  }
  // During the overlap an unknown key fails the same way too.
  const during = t.throws(() => decryptCard(encryptCard(card, unrelatedPair.publicKey)), { instanceOf: CardError });
  t.is(during?.message, UNDECRYPTABLE_CARD);
});

test("the configuration refuses a public key that is not the private key's, and a previous key with no end", (t) => {
  const base = {
    NODE_ENV: 'development',
    CARD_RSA_PRIVATE_KEY: currentPair.privateKey,
    CARD_RSA_PUBLIC_KEY: currentPair.publicKey,
  };
  t.notThrows(() => loadConfig(base));
  const mismatch = t.throws(() => loadConfig({ ...base, CARD_RSA_PUBLIC_KEY: previousPair.publicKey }), {
    instanceOf: ConfigError,
  });
  t.regex(mismatch!.message, /CARD_RSA_PUBLIC_KEY is not the public key of CARD_RSA_PRIVATE_KEY/);
  const endless = t.throws(() => loadConfig({ ...base, CARD_RSA_PREVIOUS_PRIVATE_KEY: previousPair.privateKey }), {
    instanceOf: ConfigError,
  });
  t.regex(endless!.message, /CARD_RSA_PREVIOUS_KEY_UNTIL is required/);
  const badDate = t.throws(
    () =>
      loadConfig({
        ...base,
        CARD_RSA_PREVIOUS_PRIVATE_KEY: previousPair.privateKey,
        CARD_RSA_PREVIOUS_KEY_UNTIL: 'next week',
      }),
    { instanceOf: ConfigError },
  );
  t.regex(badDate!.message, /CARD_RSA_PREVIOUS_KEY_UNTIL is invalid/);
  const loaded = loadConfig({
    ...base,
    CARD_RSA_PREVIOUS_PRIVATE_KEY: previousPair.privateKey,
    CARD_RSA_PREVIOUS_KEY_UNTIL: '2031-01-02T03:04:05Z',
  });
  t.is(loaded.cardKeys.previous?.acceptedUntil.toISOString(), '2031-01-02T03:04:05.000Z');
});
