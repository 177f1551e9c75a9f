import '../helpers/env';
import test from 'ava';
import crypto from 'node:crypto';
import forge from 'node-forge';
import fc from 'fast-check';
import { getConfig } from '../../config';
import { CardError, decryptCard, encryptCard, UNDECRYPTABLE_CARD } from '../../src/cards';
import { loadRsaDecryptionKey, rsaDecryptPkcs1, RsaDecryptionError } from '../../src/cards/pkcs1';

const { privateKeyPem, publicKeyPem } = getConfig().cardKeys;
const rsa = loadRsaDecryptionKey(privateKeyPem);
const k = rsa.modulusBytes;
const card = { number: '4111111111111111', holder: 'Ana Souza', expMonth: 12, expYear: 2035, cvv: '123' };

function nonZeroBytes(length: number): Buffer {
  const bytes = crypto.randomBytes(length);
  for (let i = 0; i < length; i++) if (bytes[i] === 0) bytes[i] = 1 + (i % 255);
  return bytes;
}

/** Encrypts an encoded block exactly as given (raw RSA), to craft bad paddings. */
function encryptRaw(encoded: Buffer): Buffer {
  return crypto.publicEncrypt({ key: publicKeyPem, padding: crypto.constants.RSA_NO_PADDING }, encoded);
}

/**
 * 0x00 0x02 PS 0x00 M with the given padding length (PKCS#1 wants >= 8). M is space-padded to fill
 * k bytes, so a JSON M stays valid JSON: a decoder that accepted the padding would read the card.
 */
function encode(
  message: Buffer,
  { first = 0x00, blockType = 0x02, paddingLength = k - 3 - message.length } = {},
): Buffer {
  const filler = Buffer.alloc(k - 3 - paddingLength - message.length, 0x20);
  return Buffer.concat([
    Buffer.from([first, blockType]),
    nonZeroBytes(paddingLength),
    Buffer.from([0]),
    message,
    filler,
  ]);
}

const cardJson = Buffer.from(JSON.stringify(card));

function assertUndecryptable(t: import('ava').ExecutionContext, encrypted: unknown, label: string) {
  const error = t.throws(() => decryptCard(encrypted), { instanceOf: CardError }, label);
  t.is(error?.field, 'encrypted_card', label);
  t.is(error?.message, UNDECRYPTABLE_CARD, label);
}

test('round trip with node-forge encryption (what the checkout page runs in the browser)', (t) => {
  const key = forge.pki.publicKeyFromPem(publicKeyPem) as forge.pki.rsa.PublicKey;
  const encrypted = forge.util.encode64(key.encrypt(forge.util.encodeUtf8(JSON.stringify(card)), 'RSAES-PKCS1-V1_5'));
  t.deepEqual(decryptCard(encrypted), card);
});

test('round trip with encryptCard', (t) => {
  t.deepEqual(decryptCard(encryptCard(card)), card);
});

test('the card fields have the documented types', (t) => {
  const accepted: [Record<string, unknown>, Partial<typeof card>][] = [
    [
      { expMonth: '05', expYear: '2035' },
      { expMonth: 5, expYear: 2035 },
    ],
    [
      { expMonth: '5', expYear: 35 },
      { expMonth: 5, expYear: 2035 },
    ],
    [{ expYear: '35' }, { expYear: 2035 }],
    [{ number: '4111 1111-1111 1111' }, { number: '4111111111111111' }],
    [{ holder: '  Ana Souza ' }, { holder: 'Ana Souza' }],
  ];
  for (const [overrides, expected] of accepted)
    t.deepEqual(
      decryptCard(encryptCard({ ...card, ...overrides })),
      { ...card, ...expected },
      JSON.stringify(overrides),
    );
  const refused: [Record<string, unknown>, CardError['field']][] = [
    [{ number: 4111111111111111 }, 'number'],
    [{ number: '4111111111111112' }, 'number'],
    [{ cvv: 123 }, 'cvv'],
    [{ cvv: '12' }, 'cvv'],
    [{ expMonth: true }, 'expiry'],
    [{ expMonth: 5.5 }, 'expiry'],
    [{ expMonth: '' }, 'expiry'],
    [{ expMonth: ' 5' }, 'expiry'],
    [{ expMonth: [5] }, 'expiry'],
    [{ expMonth: '13' }, 'expiry'],
    [{ expYear: '203' }, 'expiry'],
    [{ expYear: 2020 }, 'expiry'],
    [{ expYear: 20310 }, 'expiry'],
    [{ expYear: -31 }, 'expiry'],
    [{ expMonth: 123 }, 'expiry'],
    [{ holder: 42 }, 'holder'],
    [{ holder: 'x'.repeat(26) }, 'holder'],
  ];
  for (const [overrides, field] of refused) {
    const error = t.throws(
      () => decryptCard(encryptCard({ ...card, ...overrides })),
      { instanceOf: CardError },
      JSON.stringify(overrides),
    );
    t.is(error?.field, field, JSON.stringify(overrides));
  }
});

test('round trip with node publicEncrypt pkcs1', (t) => {
  const encrypted = crypto.publicEncrypt({ key: publicKeyPem, padding: crypto.constants.RSA_PKCS1_PADDING }, cardJson);
  t.deepEqual(decryptCard(encrypted.toString('base64')), card);
});

test('shortest padding and empty message decode', (t) => {
  t.deepEqual(rsaDecryptPkcs1(rsa, encryptRaw(encode(cardJson))), cardJson);
  const emptyMessage = encode(Buffer.alloc(0), { paddingLength: k - 3 });
  t.is(rsaDecryptPkcs1(rsa, encryptRaw(emptyMessage)).length, 0);
  const minimalPadding = Buffer.concat([
    Buffer.from([0, 2]),
    nonZeroBytes(8),
    Buffer.from([0]),
    crypto.randomBytes(k - 11),
  ]);
  t.deepEqual(rsaDecryptPkcs1(rsa, encryptRaw(minimalPadding)), minimalPadding.subarray(11));
});

test('every malformed ciphertext gives the same error', (t) => {
  const valid = Buffer.from(encryptCard(card), 'base64');
  const cases: Record<string, unknown> = {
    'not a string': 42,
    'not base64': '***',
    'one byte short': valid.subarray(1).toString('base64'),
    'one byte long': Buffer.concat([valid, Buffer.from([1])]).toString('base64'),
    'equal to the modulus': rsa.modulus.toString('base64'),
    'above the modulus': Buffer.alloc(k, 0xff).toString('base64'),
    'all zeros': Buffer.alloc(k).toString('base64'),
    'wrong first byte': encryptRaw(encode(cardJson, { first: 0x01 })).toString('base64'),
    'wrong block type': encryptRaw(encode(cardJson, { blockType: 0x01 })).toString('base64'),
    'separator too early': encryptRaw(encode(cardJson, { paddingLength: 7 })).toString('base64'),
    'separator first': encryptRaw(encode(cardJson, { paddingLength: 0 })).toString('base64'),
    'no separator': encryptRaw(Buffer.concat([Buffer.from([0, 2]), nonZeroBytes(k - 2)])).toString('base64'),
    'valid padding, not json': encryptRaw(encode(Buffer.from('not json'))).toString('base64'),
    'valid padding, json number': encryptRaw(encode(Buffer.from('7'))).toString('base64'),
    'valid padding, invalid utf-8': encryptRaw(encode(Buffer.from([0x7b, 0xff, 0x7d]))).toString('base64'),
  };
  for (const [label, encrypted] of Object.entries(cases)) assertUndecryptable(t, encrypted, label);
});

test('length and modulus are refused before the raw rsa', (t) => {
  t.throws(() => rsaDecryptPkcs1(rsa, Buffer.alloc(k - 1, 1)), { instanceOf: RsaDecryptionError });
  t.throws(() => rsaDecryptPkcs1(rsa, rsa.modulus), { instanceOf: RsaDecryptionError });
  t.throws(() => rsaDecryptPkcs1(rsa, Buffer.alloc(k, 0xff)), { instanceOf: RsaDecryptionError });
});

test('implicit rejection is deterministic per ciphertext', (t) => {
  const badBlocks = [
    encode(cardJson, { blockType: 0x01 }),
    encode(cardJson, { paddingLength: 7 }),
    Buffer.concat([Buffer.from([0, 2]), nonZeroBytes(k - 2)]),
  ];
  const outputs = badBlocks.map((block) => {
    const ciphertext = encryptRaw(block);
    const first = rsaDecryptPkcs1(rsa, ciphertext);
    t.deepEqual(rsaDecryptPkcs1(rsa, Buffer.from(ciphertext)), first);
    t.true(first.length <= k - 11);
    return first.toString('hex');
  });
  t.is(new Set(outputs).size, outputs.length);
  // All zeros decrypts to an all-zero block: bad padding, a synthetic message, not an error.
  const zeros = rsaDecryptPkcs1(rsa, Buffer.alloc(k));
  t.deepEqual(rsaDecryptPkcs1(rsa, Buffer.alloc(k)), zeros);
});

test('implicit rejection depends on the private key', (t) => {
  const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const otherRsa = loadRsaDecryptionKey(other.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
  const ciphertext = Buffer.alloc(k);
  t.notDeepEqual(rsaDecryptPkcs1(otherRsa, ciphertext), rsaDecryptPkcs1(rsa, ciphertext));
});

/** The textbook, branching unpadding, as the reference for valid blocks. */
function referenceUnpad(encoded: Buffer): Buffer | undefined {
  if (encoded[0] !== 0 || encoded[1] !== 2) return undefined;
  const separator = encoded.indexOf(0, 2);
  if (separator < 10) return undefined;
  return encoded.subarray(separator + 1);
}

test('agrees with the textbook unpadding on random blocks', (t) => {
  const block = fc
    .tuple(
      fc.constantFrom(0, 1),
      fc.constantFrom(2, 1, 0),
      fc.uint8Array({ minLength: k - 2, maxLength: k - 2 }),
      fc.nat({ max: k - 3 }),
      fc.boolean(),
    )
    .map(([first, blockType, rest, separatorAt, withSeparator]) => {
      const body = Buffer.from(rest);
      if (withSeparator) body[separatorAt] = 0;
      return Buffer.concat([Buffer.from([first, blockType]), body]);
    });
  t.notThrows(() =>
    fc.assert(
      fc.property(block, (encoded) => {
        const decoded = rsaDecryptPkcs1(rsa, encryptRaw(encoded));
        const expected = referenceUnpad(encoded);
        if (expected) return decoded.equals(expected);
        // Bad padding: the synthetic message, never the bytes after the first zero.
        const separator = encoded.indexOf(0, 2);
        const leaked = separator >= 0 && decoded.equals(encoded.subarray(separator + 1));
        return !leaked && decoded.length <= k - 11 && decoded.equals(rsaDecryptPkcs1(rsa, encryptRaw(encoded)));
      }),
      { numRuns: 150 },
    ),
  );
});

test('micro-check: native raw rsa against node-forge', (t) => {
  const encrypted = encryptCard(card);
  const forgeKey = forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey;
  const binary = forge.util.decode64(encrypted);
  const time = (runs: number, fn: () => void) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < runs; i++) fn();
    return Number(process.hrtime.bigint() - start) / 1e6 / runs;
  };
  const forgeMs = time(5, () => forgeKey.decrypt(binary, 'RSAES-PKCS1-V1_5'));
  const nativeMs = time(50, () => decryptCard(encrypted));
  t.log(
    `decryptCard ${nativeMs.toFixed(2)} ms/card, ` +
      `node-forge ${forgeMs.toFixed(2)} ms/card (${(forgeMs / nativeMs).toFixed(0)}x)`,
  );
  t.deepEqual(decryptCard(encrypted), card);
});
