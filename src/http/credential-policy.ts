/**
 * Which bearer credentials a route accepts (src/auth/authenticate.ts tells them apart and checks
 * them). The web describes each route's policy in the served document; areas name one per route.
 */

/** Who a user is on the platform: a merchant's user or platform staff. */
export type Role = 'merchant' | 'staff';

export interface CredentialPolicy {
  /** Which users' JWT access tokens are accepted. */
  jwt?: Role[];
  merchantToken?: boolean;
  system?: boolean;
  /** For the system token: must the request name a merchant (X-Merchant-Id)? */
  systemMerchant?: 'required' | 'optional';
}

/** Routes that act for one merchant: a merchant user's JWT or a merchant token. */
export const MERCHANT_CREDENTIALS: CredentialPolicy = { jwt: ['merchant'], merchantToken: true };
/** Pre-capture: all three credentials. */
export const ANY_MERCHANT_CREDENTIAL: CredentialPolicy = {
  jwt: ['merchant'],
  merchantToken: true,
  system: true,
  systemMerchant: 'required',
};
/** Platform staff: a staff user's JWT or the system token. */
export const STAFF_CREDENTIALS: CredentialPolicy = { jwt: ['staff'], system: true, systemMerchant: 'optional' };
/** /api/v1/me/: every valid credential; the system token may name a merchant. */
export const ANY_CREDENTIAL: CredentialPolicy = {
  jwt: ['merchant', 'staff'],
  merchantToken: true,
  system: true,
  systemMerchant: 'optional',
};

/** The kinds of credential a policy accepts, in words: the Swagger description and every 403 for another kind. */
export function acceptedCredentials(policy: CredentialPolicy): string {
  const kinds: string[] = [];
  if (policy.jwt?.length) kinds.push(`a JWT access token of a ${policy.jwt.join(' or ')} user`);
  if (policy.merchantToken) kinds.push('an individual merchant token (mt_...)');
  if (policy.system)
    kinds.push(
      `the system token${policy.systemMerchant === 'required' ? ' with X-Merchant-Id naming the merchant' : ''}`,
    );
  return kinds.join(', or ');
}

export function describeSecurity(policy: CredentialPolicy | undefined): string {
  if (!policy) return 'Public: no credential.';
  return (
    `Bearer credential: ${acceptedCredentials(policy)}. No, invalid or expired credential: 401. ` +
    'Another kind of credential: 403.'
  );
}
