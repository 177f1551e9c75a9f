/** SHA-256 digests of secrets we keep only as digests, and constant-time comparison of secrets. */
import crypto from 'node:crypto';

export function sha256Hex(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

/** Compares two secrets in constant time (hashing first makes the lengths equal). */
export function safeEqual(a: string, b: string): boolean {
  return crypto.timingSafeEqual(
    crypto.createHash('sha256').update(a).digest(),
    crypto.createHash('sha256').update(b).digest(),
  );
}
