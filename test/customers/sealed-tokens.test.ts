/** The acquirer's tokens of saved cards, sealed at rest: bound to their document and key, and rotatable. */
import '../helpers/env';
import crypto from 'node:crypto';
import test from 'ava';
import { reloadConfig } from '../../config';
import { openCardToken, sealCardToken, SealedTokenError } from '../../src/cards/sealed-tokens';

const TOKEN = '0e5a3b3c-6c1b-4a4e-9b7e-3f1d2c4b5a69';
const DOCUMENT = 'cus_5f2b9c0e4a7d1e3f9b6c8a20:ab12';

/** Runs `steps` with these variables set (and the config read again), then puts the environment back. */
function withVariables<T>(variables: Record<string, string>, steps: () => T): T {
  const before = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  reloadConfig();
  try {
    return steps();
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    reloadConfig();
  }
}

const newKey = () => crypto.randomBytes(36).toString('base64url');

test.serial('a sealed token opens for its document only, and shows nothing of the token', (t) => {
  const sealed = sealCardToken(TOKEN, DOCUMENT);
  t.regex(sealed, /^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
  t.false(sealed.includes(TOKEN) || sealed.includes(Buffer.from(TOKEN).toString('base64url')));
  t.not(sealCardToken(TOKEN, DOCUMENT), sealed, 'a new IV each time');
  t.is(openCardToken(sealed, DOCUMENT), TOKEN);
  t.throws(() => openCardToken(sealed, `${DOCUMENT}x`), { instanceOf: SealedTokenError });
});

test.serial('an altered or truncated sealed token does not open', (t) => {
  const sealed = sealCardToken(TOKEN, DOCUMENT);
  const parts = sealed.split('.');
  const flipped = Buffer.from(parts[3], 'base64url');
  flipped[0] ^= 1;
  for (const broken of [
    [...parts.slice(0, 3), flipped.toString('base64url'), parts[4]].join('.'),
    parts.slice(0, 4).join('.'),
    `${sealed}.x`,
    `v2.${parts.slice(1).join('.')}`,
    '',
  ])
    t.throws(() => openCardToken(broken, DOCUMENT), { instanceOf: SealedTokenError }, broken);
});

test.serial('a rotation reads tokens sealed under the previous key, and seals under the new one', (t) => {
  const oldKey = newKey();
  const sealedBefore = withVariables({ SAVED_CARD_TOKEN_KEY: oldKey }, () => sealCardToken(TOKEN, DOCUMENT));
  const rotated = { SAVED_CARD_TOKEN_KEY: newKey(), SAVED_CARD_TOKEN_PREVIOUS_KEY: oldKey };
  withVariables(rotated, () => {
    t.is(openCardToken(sealedBefore, DOCUMENT), TOKEN);
    const sealedNow = sealCardToken(TOKEN, DOCUMENT);
    t.not(sealedNow.split('.')[1], sealedBefore.split('.')[1], 'another key id');
    t.is(openCardToken(sealedNow, DOCUMENT), TOKEN);
  });
  // Without the previous key, the old token names a key that is not configured.
  withVariables({ SAVED_CARD_TOKEN_KEY: rotated.SAVED_CARD_TOKEN_KEY, SAVED_CARD_TOKEN_PREVIOUS_KEY: '' }, () =>
    t.throws(() => openCardToken(sealedBefore, DOCUMENT), { message: /not configured/ }),
  );
});
