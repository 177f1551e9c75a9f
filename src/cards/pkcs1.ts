/**
 * RSAES-PKCS1-v1_5 decryption without a padding oracle, on Node's native RSA.
 *
 * Why not node-forge: its pure-JS RSA costs ~75-200 ms of CPU per card on the event loop.
 * Why not crypto.privateDecrypt(RSA_PKCS1_PADDING): Node 20 refuses it (Marvin attack,
 * CVE-2023-46809) unless run with --security-revert, which we do not use.
 * So: the raw RSA operation natively (RSA_NO_PADDING, ~1.5 ms), then the padding is removed here
 * in constant time over the whole k-byte block, with IMPLICIT REJECTION as OpenSSL 3.2+ does and
 * draft-irtf-cfrg-rsa-guidance describes: when the padding is wrong we do not fail, we return a
 * deterministic pseudo-random message derived (HMAC-SHA256) from a secret of the private key and
 * the ciphertext. Valid and invalid padding run the same code, and the caller gets a plausible
 * byte string either way; it then fails JSON parsing / card validation like any other garbage.
 * An attacker thus learns neither from an error nor (as far as JavaScript allows) from timing
 * whether a chosen ciphertext was PKCS#1 conforming, which is what Bleichenbacher/Marvin need.
 *
 * The KDK and PRF follow OpenSSL 3.2's construction (rsa_pk1.c, ossl_rsa_prf); interop is not
 * needed (only we ever see the synthetic message) and was not checked: this machine has OpenSSL 3.0.
 */
import crypto from 'node:crypto';

export interface RsaDecryptionKey {
  readonly key: crypto.KeyObject;
  /** k: the modulus length in bytes; every ciphertext must be exactly this long. */
  readonly modulusBytes: number;
  /** n, big-endian, k bytes. */
  readonly modulus: Buffer;
  /** SHA-256 of the private exponent (k bytes, big-endian): the key of the implicit-rejection KDK. */
  readonly rejectionSecret: Buffer;
}

/** Thrown for every failure; callers map it to their one undecryptable error. */
export class RsaDecryptionError extends Error {}

/** Minimum padding string length (PKCS#1: at least 8 non-zero bytes). */
const MIN_PADDING_LENGTH = 8;
/** OpenSSL's MAX_LEN_GEN_TRIES: 16-bit length candidates drawn for the synthetic message. */
const LENGTH_CANDIDATES = 128;

export function loadRsaDecryptionKey(privateKeyPem: string): RsaDecryptionKey {
  const key = crypto.createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'rsa') throw new RsaDecryptionError('not an RSA private key');
  const jwk = key.export({ format: 'jwk' });
  const modulusBits = key.asymmetricKeyDetails!.modulusLength!;
  const modulusBytes = Math.ceil(modulusBits / 8);
  const modulus = leftPad(Buffer.from(jwk.n!, 'base64url'), modulusBytes);
  const exponent = leftPad(Buffer.from(jwk.d!, 'base64url'), modulusBytes);
  const rejectionSecret = crypto.createHash('sha256').update(exponent).digest();
  exponent.fill(0);
  return { key, modulusBytes, modulus, rejectionSecret };
}

/**
 * Decrypts an RSAES-PKCS1-v1_5 ciphertext. Throws RsaDecryptionError only for what is public
 * (wrong length, value >= modulus, native failure); bad padding returns the synthetic message.
 */
export function rsaDecryptPkcs1(rsa: RsaDecryptionKey, ciphertext: Buffer): Buffer {
  // Both checks compare the ciphertext with public values: they may exit early.
  if (ciphertext.length !== rsa.modulusBytes) throw new RsaDecryptionError('ciphertext length');
  if (Buffer.compare(ciphertext, rsa.modulus) >= 0) throw new RsaDecryptionError('ciphertext not below the modulus');
  let encoded: Buffer;
  try {
    encoded = crypto.privateDecrypt({ key: rsa.key, padding: crypto.constants.RSA_NO_PADDING }, ciphertext);
  } catch {
    throw new RsaDecryptionError('raw RSA failed');
  }
  if (encoded.length !== rsa.modulusBytes) throw new RsaDecryptionError('raw RSA length');
  try {
    return removePkcs1Type2Padding(encoded, syntheticSource(rsa, ciphertext));
  } finally {
    encoded.fill(0);
  }
}

interface SyntheticMessage {
  /** k pseudo-random bytes; the synthetic message is its last `length` bytes. */
  bytes: Buffer;
  length: number;
}

/** The implicit-rejection message for this ciphertext (computed whether or not it is needed). */
function syntheticSource(rsa: RsaDecryptionKey, ciphertext: Buffer): SyntheticMessage {
  const k = rsa.modulusBytes;
  const kdk = crypto.createHmac('sha256', rsa.rejectionSecret).update(ciphertext).digest();
  const bytes = prf(kdk, 'message', k * 8);
  const candidates = prf(kdk, 'length', LENGTH_CANDIDATES * 16);
  // Longest possible message: k - 2 (0x00 0x02) - 8 (minimum padding) - 1 (separator) + 1 = k - 10
  // exclusive bound, as in OpenSSL. Take the last candidate below it, masked to its bit length.
  const maxSeparatorOffset = k - 2 - MIN_PADDING_LENGTH;
  let lengthMask = maxSeparatorOffset;
  lengthMask |= lengthMask >> 1;
  lengthMask |= lengthMask >> 2;
  lengthMask |= lengthMask >> 4;
  lengthMask |= lengthMask >> 8;
  let length = 0;
  for (let i = 0; i < LENGTH_CANDIDATES * 2; i += 2) {
    const candidate = ((candidates[i] << 8) | candidates[i + 1]) & lengthMask;
    length = select(lessThanMask(candidate, maxSeparatorOffset), candidate, length);
  }
  return { bytes, length };
}

/**
 * EM = 0x00 || 0x02 || PS (>= 8 non-zero bytes) || 0x00 || M. Reads every byte of EM whatever it
 * holds; decisions are masks (all ones / all zeros), never branches on secret data.
 */
function removePkcs1Type2Padding(encoded: Buffer, synthetic: SyntheticMessage): Buffer {
  const k = encoded.length;
  let good = equalMask(encoded[0], 0x00) & equalMask(encoded[1], 0x02);
  let foundSeparator = 0;
  let separatorIndex = 0;
  for (let i = 2; i < k; i++) {
    const isZero = zeroMask(encoded[i]);
    separatorIndex = select(~foundSeparator & isZero, i, separatorIndex);
    foundSeparator |= isZero;
  }
  good &= foundSeparator;
  good &= ~lessThanMask(separatorIndex, 2 + MIN_PADDING_LENGTH);

  const messageStart = select(good, separatorIndex + 1, k - synthetic.length);
  const chosen = Buffer.alloc(k);
  for (let i = 0; i < k; i++) chosen[i] = select(good, encoded[i], synthetic.bytes[i]);
  // The returned length is the message length, which the caller learns by nature; everything
  // before it was computed without branching on whether the padding was valid.
  return chosen.subarray(messageStart);
}

/**
 * OpenSSL's ossl_rsa_prf: HMAC-SHA256(key, counter(2 bytes BE) || label || bitLength(2 bytes BE))
 * for counter = 0, 1, ... concatenated and cut to bitLength bits (always whole bytes here).
 */
function prf(kdk: Buffer, label: string, bitLength: number): Buffer {
  const out = Buffer.alloc(bitLength / 8);
  const suffix = Buffer.alloc(2);
  suffix.writeUInt16BE(bitLength);
  for (let counter = 0, offset = 0; offset < out.length; counter++, offset += 32) {
    const prefix = Buffer.alloc(2);
    prefix.writeUInt16BE(counter);
    const block = crypto.createHmac('sha256', kdk).update(prefix).update(label).update(suffix).digest();
    block.copy(out, offset, 0, Math.min(32, out.length - offset));
  }
  return out;
}

// Constant-time helpers over small non-negative integers (bytes and indexes < 2^30).
/** -1 (all ones) when value is 0, else 0. */
function zeroMask(value: number): number {
  return (value - 1) >> 31;
}
function equalMask(a: number, b: number): number {
  return zeroMask(a ^ b);
}
/** -1 when a < b, else 0. */
function lessThanMask(a: number, b: number): number {
  return (a - b) >> 31;
}
/** a where mask is all ones, b where it is zero. */
function select(mask: number, a: number, b: number): number {
  return (a & mask) | (b & ~mask);
}

function leftPad(bytes: Buffer, length: number): Buffer {
  if (bytes.length >= length) return bytes.subarray(bytes.length - length);
  return Buffer.concat([Buffer.alloc(length - bytes.length), bytes]);
}
