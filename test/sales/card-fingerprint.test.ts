/**
 * The card fingerprint an Idempotency-Key compares card requests by has a key of its own
 * (CARD_FINGERPRINT_KEY): the JWT secret no longer reaches card numbers, and rotating it keeps keys
 * replaying. A request with another CVV or holder is another request. (Issue 27, item 7.)
 */
import '../helpers/env';
import crypto from 'node:crypto';
import test from 'ava';
import { getConfig, reloadConfig } from '../../config';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { clearTestCard, encryptedTestCard } from '../helpers/cards';
import { callJson } from '../helpers/http';
import { SaleIdempotencyModel } from '../../src/payments/model';
import { requestHash } from '../../src/payments/idempotency';
import { cardFingerprint } from '../../src/cards/fingerprint';
import { cardSale, PRE_CAPTURE, useSalesEnv } from './helpers';

const env = useSalesEnv({ workers: false });
const preCapture = (owner: TestMerchant, key: string, body: unknown) =>
  callJson(env.app, 'POST', PRE_CAPTURE, bearer(owner.merchantToken, { 'idempotency-key': key }), body);

/** Runs `steps` with these variables set (and the config read again), then puts the environment back. */
async function withVariables<T>(variables: Record<string, string>, steps: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  reloadConfig();
  try {
    return await steps();
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    reloadConfig();
  }
}

const newSecret = () => crypto.randomBytes(36).toString('base64url');

/** A first pre-capture with a new key, as a partner sends it. */
async function firstUse(owner: TestMerchant) {
  const key = `fp-${crypto.randomUUID()}`;
  const body = cardSale();
  const first = await preCapture(owner, key, body);
  if (first.status !== 200) throw new Error(`the first pre-capture answered ${first.status}`);
  return { key, body, first };
}

test.serial('a database copy and the JWT secret no longer test a candidate card number', async (t) => {
  const owner = await newMerchant();
  const { key, body } = await firstUse(owner);
  const record = await SaleIdempotencyModel.findById(`${owner.merchantId}:${key}`).lean();
  // The attack: the request (read off the sale) and a candidate number, hashed with a key derived from
  // the JWT secret as the fingerprint used to be; a match confirms the candidate.
  const card = clearTestCard();
  const jwtDerived = Buffer.from(
    crypto.hkdfSync('sha256', getConfig().jwt.secret, 'idempotency', 'card-fingerprint', 32),
  );
  const guess = crypto.createHmac('sha256', jwtDerived).update(`${card.number}|${card.expMonth}|${card.expYear}`);
  const request = { ...body, save_card: false, encrypted_card: undefined }; // save_card: its documented default
  const guessedHash = requestHash({ ...request, card_fingerprint: guess.digest('hex') });
  t.truthy(record?.bodyHash);
  t.not(record?.bodyHash, guessedHash, 'the JWT secret confirms no card number');
  const hashUnder = (key: string | Buffer) => requestHash({ ...request, card_fingerprint: cardFingerprint(card, key) });
  t.not(record?.bodyHash, hashUnder(jwtDerived), 'nor in the form the fingerprint has now');
  t.is(record?.bodyHash, hashUnder(getConfig().cardFingerprint.key), 'only the fingerprint key does');
  const stored = JSON.stringify(record);
  t.false(stored.includes(card.number) || stored.includes(card.holder), 'no number or holder in the clear');
});

test.serial('a new JWT_SECRET keeps an Idempotency-Key replaying', async (t) => {
  const owner = await newMerchant();
  const { key, body, first } = await firstUse(owner);
  const retry = await withVariables({ JWT_SECRET: newSecret() }, () =>
    preCapture(owner, key, { ...body, encrypted_card: encryptedTestCard() }),
  );
  t.is(retry.status, 200);
  t.is(retry.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(retry.body, first.body);
});

test.serial('the same key and card number with another CVV or holder is another request: 422', async (t) => {
  const owner = await newMerchant();
  const { key, body, first } = await firstUse(owner);
  const otherCvv = await preCapture(owner, key, { ...body, encrypted_card: encryptedTestCard({ cvv: '987' }) });
  t.is(otherCvv.status, 422);
  t.regex(otherCvv.body.detail, /different request/);
  const otherHolder = await preCapture(owner, key, { ...body, encrypted_card: encryptedTestCard({ holder: 'JOAO' }) });
  t.is(otherHolder.status, 422);
  const sameCard = await preCapture(owner, key, { ...body, encrypted_card: encryptedTestCard() });
  t.is(sameCard.status, 200, 'the same card encrypted again is still the same request');
  t.deepEqual(sameCard.body, first.body);
});

test.serial('the fingerprint is of its own key, and a rotation keeps keys in flight replaying', async (t) => {
  const card = clearTestCard();
  const { key: currentKey } = getConfig().cardFingerprint;
  const otherKey = newSecret();
  t.not(cardFingerprint(card, currentKey), cardFingerprint(card, otherKey));
  t.is(cardFingerprint(card, currentKey), cardFingerprint(clearTestCard(), currentKey));

  const owner = await newMerchant();
  const { key, body, first } = await firstUse(owner);
  const retry = () => preCapture(owner, key, { ...body, encrypted_card: encryptedTestCard() });
  // Rotated with the previous key kept (docs/cards.md): the key made before the rotation replays.
  const rotated = { CARD_FINGERPRINT_KEY: otherKey, CARD_FINGERPRINT_PREVIOUS_KEY: currentKey };
  const duringRotation = await withVariables(rotated, retry);
  t.is(duringRotation.status, 200);
  t.deepEqual(duringRotation.body, first.body);
  // Without it the earlier request cannot be recognised: refused, never charged twice.
  t.is((await withVariables({ CARD_FINGERPRINT_KEY: otherKey }, retry)).status, 422);
});
