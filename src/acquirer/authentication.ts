/**
 * 3-D Secure 2 results as the acquirer's authentication service gives them and a card sale carries them
 * (docs/design/three-d-secure.md): their type, the Payment fields a sale sends, the validation of a result a
 * partner or the checkout hands us, and what its ECI means for the chargeback liability. Pure functions: no I/O,
 * so the sales API, the checkout and src/payments can all call them.
 */
import type { FieldErrors } from '../platform/errors';
import { AcquirerUnavailableError } from './errors';
import type { AcquirerCardBrand } from './types';

/** What an authentication answered (the script's Cavv, Xid, Eci, Version, ReferenceId). */
export interface AuthenticationResult {
  /** Two digits; what it means depends on the brand (authenticationLevel). */
  eci: string;
  /** The issuer's proof of the authentication, base64: present when the ECI shifts the liability. */
  cavv?: string;
  xid?: string;
  /** 3-D Secure 2.x: "2", "2.1.0", "2.2.0". */
  version: string;
  /** The authentication service's id of this authentication (a UUID). */
  referenceId: string;
}

/** The Payment fields of a card (or debit) sale that carries an authentication: POST /1/sales/ (reference 2c). */
export interface AuthenticatedPaymentFields {
  Authenticate: true;
  ExternalAuthentication: { Cavv?: string; Xid?: string; Eci: string; Version: string; ReferenceId: string };
}

/** What a sale's Payment node adds for an authenticated card: spread it into the Payment sent. */
export function authenticatedPaymentFields(result: AuthenticationResult): AuthenticatedPaymentFields {
  return {
    Authenticate: true,
    ExternalAuthentication: {
      ...(result.cavv ? { Cavv: result.cavv } : {}),
      ...(result.xid ? { Xid: result.xid } : {}),
      Eci: result.eci,
      Version: result.version,
      ReferenceId: result.referenceId,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// ECI and the liability shift
// ---------------------------------------------------------------------------------------------

/** ECI values by brand (reference 2c; EMVCo 3-D Secure): authenticated, attempted, not authenticated. */
const ECI_BY_BRAND: Partial<Record<AcquirerCardBrand, { authenticated: string; attempted: string; not: string }>> = {
  Visa: { authenticated: '05', attempted: '06', not: '07' },
  Elo: { authenticated: '05', attempted: '06', not: '07' },
  Amex: { authenticated: '05', attempted: '06', not: '07' },
  Master: { authenticated: '02', attempted: '01', not: '00' },
};

/** The brands the authentication service authenticates (3DS 2.2 for Visa and Mastercard, 2.1 for Elo and Amex). */
export const THREE_D_SECURE_BRANDS = Object.keys(ECI_BY_BRAND) as AcquirerCardBrand[];

export type AuthenticationLevel = 'authenticated' | 'attempted' | 'not_authenticated';

/** A brand's ECI values; own keys only, so "constructor" or "__proto__" is no brand. */
function eciValuesOf(brand: unknown) {
  return typeof brand === 'string' && Object.hasOwn(ECI_BY_BRAND, brand)
    ? ECI_BY_BRAND[brand as AcquirerCardBrand]
    : undefined;
}

/** The ECI an authentication service gives a card of this brand at this level (undefined: not a 3DS brand). */
export function eciFor(brand: string, level: AuthenticationLevel): string | undefined {
  const values = eciValuesOf(brand);
  if (!values) return undefined;
  return level === 'authenticated' ? values.authenticated : level === 'attempted' ? values.attempted : values.not;
}

/** "5" and "05" are the same ECI; anything but one or two ASCII digits is no ECI at all. */
function normalisedEci(eci: unknown): string | undefined {
  return typeof eci === 'string' && /^\d{1,2}$/.test(eci) ? eci.padStart(2, '0') : undefined;
}

/** What an ECI says of a card of this brand; an unknown brand or ECI is not authenticated. */
export function authenticationLevel(brand: unknown, eci: unknown): AuthenticationLevel {
  const values = eciValuesOf(brand);
  const normalised = normalisedEci(eci);
  if (!values || !normalised) return 'not_authenticated';
  if (normalised === values.authenticated) return 'authenticated';
  if (normalised === values.attempted) return 'attempted';
  return 'not_authenticated';
}

/**
 * Whether the chargeback liability of a sale with this ECI moves to the issuer: authenticated or attempted (the
 * issuer took part, or chose not to) shift it; anything else (07, 00, none) leaves it with the merchant.
 */
export function liabilityShifted(brand: unknown, eci: unknown): boolean {
  return authenticationLevel(brand, eci) !== 'not_authenticated';
}

// ---------------------------------------------------------------------------------------------
// Validation of a result handed to us (sales API `authentication`, the checkout's script result)
// ---------------------------------------------------------------------------------------------

const FIELDS = ['eci', 'cavv', 'xid', 'version', 'reference_id'] as const;
/** The longest text any field may be: checked before any pattern runs, so a huge value costs nothing. */
const MAX_FIELD_LENGTH = 64;
/** Standard base64 (the CAVV of every brand is 20 bytes: 28 characters), padding only at the end. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64_LENGTH = { min: 24, max: 64 };
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const VERSION_2 = /^2(?:\.\d{1,2}){0,2}$/;

export type AuthenticationValidation = { ok: true; value: AuthenticationResult } | { ok: false; errors: FieldErrors };

function isBase64(text: string): boolean {
  return text.length >= BASE64_LENGTH.min && text.length <= BASE64_LENGTH.max && BASE64.test(text);
}

/**
 * Checks an authentication result `{eci, cavv, xid, version, reference_id}` for a card of `brand`: `eci` always
 * (two digits, one of the brand's), `cavv` when the ECI shifts the liability (base64, 24 to 64 characters), `xid`
 * optional (base64 or a UUID), `version` 2.x (3-D Secure 1 is retired by the brands), `reference_id` a UUID.
 * Errors are keyed by the field's dotted path under `prefix` (the request's field map); no message repeats a value.
 */
export function validateAuthenticationResult(
  input: unknown,
  brand: string,
  prefix = 'authentication',
): AuthenticationValidation {
  const errors: FieldErrors = {};
  const refuse = (field: string, message: string) => (errors[field ? `${prefix}.${field}` : prefix] = [message]);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    refuse('', 'Must be a JSON object with eci, version and reference_id, and cavv when authenticated.');
    return { ok: false, errors };
  }
  const values = eciValuesOf(brand);
  if (!values) {
    refuse(
      '',
      `3-D Secure is not available for ${describeBrand(brand)} cards (only ${THREE_D_SECURE_BRANDS.join(', ')}).`,
    );
    return { ok: false, errors };
  }
  const given = input as Record<string, unknown>;
  for (const key of Object.keys(given))
    if (!(FIELDS as readonly string[]).includes(key)) refuse(fieldName(key), 'Unknown field.');
  const text = (field: (typeof FIELDS)[number], required: boolean): string | undefined => {
    const value = given[field];
    if (value === undefined || value === null || value === '') {
      if (required) refuse(field, 'This field is required.');
      return undefined;
    }
    if (typeof value !== 'string') refuse(field, 'Must be a string.');
    else if (value.length > MAX_FIELD_LENGTH) refuse(field, `At most ${MAX_FIELD_LENGTH} characters.`);
    else return value;
    return undefined;
  };

  const eciText = text('eci', true);
  const eci = eciText === undefined ? undefined : normalisedEci(eciText);
  const allowed = [values.authenticated, values.attempted, values.not];
  if (eciText !== undefined && (!eci || !allowed.includes(eci))) {
    refuse('eci', `Must be two digits, one of ${allowed.join(', ')} for ${brand}.`);
  }
  const shifts = eci !== undefined && eci !== values.not && allowed.includes(eci);

  const cavv = text('cavv', shifts);
  if (cavv !== undefined && !isBase64(cavv))
    refuse('cavv', `Must be base64, ${BASE64_LENGTH.min} to ${BASE64_LENGTH.max} characters.`);
  const xid = text('xid', false);
  if (xid !== undefined && !isBase64(xid) && !UUID.test(xid))
    refuse('xid', `Must be base64 (${BASE64_LENGTH.min} to ${BASE64_LENGTH.max} characters) or a UUID.`);
  const version = text('version', true);
  if (version !== undefined && !VERSION_2.test(version))
    refuse('version', 'Must be a 3-D Secure 2 version: 2, 2.1.0 or 2.2.0 (3-D Secure 1 is retired).');
  const referenceId = text('reference_id', true);
  if (referenceId !== undefined && !UUID.test(referenceId)) refuse('reference_id', 'Must be a UUID.');

  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      eci: eci!,
      ...(cavv ? { cavv } : {}),
      ...(xid ? { xid } : {}),
      version: version!,
      referenceId: referenceId!,
    },
  };
}

/** A key as an error may name it: printable ASCII, bounded (a hostile key is not echoed whole). */
function fieldName(key: string): string {
  const printable = key.replace(/[^\x21-\x7e]/g, '?');
  return printable.length > 32 ? `${printable.slice(0, 32)}...` : printable;
}

function describeBrand(brand: string): string {
  return typeof brand === 'string' && /^[A-Za-z]{1,20}$/.test(brand) ? brand : 'these';
}

// ---------------------------------------------------------------------------------------------
// The single-use access token of the payer's browser
// ---------------------------------------------------------------------------------------------

/** What the merchant names itself with when it asks the authentication service for a token (reference 2c). */
export interface ThreeDSecureTokenRequest {
  /** The merchant's establishment code (EC) at the acquirer: 10 digits. */
  establishmentCode: string;
  /** As registered at the acquirer, up to 25 characters. */
  merchantName: string;
  /** The merchant's category code: 4 digits. */
  mcc: string;
}

export interface ThreeDSecureToken {
  /** Goes into the page's `bpmpi_accesstoken` field; authenticates one card, once. Never logged. */
  accessToken: string;
  expiresAt: Date;
}

/** Brasília (UTC-3): the zone of an expiry the service writes without one. */
const BRASILIA_OFFSET = '-03:00';

/**
 * The token answer `{access_token, token_type, expires_in}`. The public docs give `expires_in` two ways: as
 * minutes (the field table) and as a date-time without a zone (the example); both are read, the latter as
 * Brasília's time. No usable expiry is a malformed answer, as is no token.
 */
export function toThreeDSecureToken(body: unknown, now = new Date()): ThreeDSecureToken {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const malformed = (what: string) =>
    new AcquirerUnavailableError(`acquirer createThreeDSecureToken: malformed answer (${what})`, false);
  if (typeof answer.access_token !== 'string' || !answer.access_token) throw malformed('no access_token');
  const expiresIn = answer.expires_in;
  let expiresAt: Date | undefined;
  if (typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0)
    expiresAt = new Date(now.getTime() + expiresIn * 60_000);
  else if (
    typeof expiresIn === 'string' &&
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?$/.test(expiresIn)
  )
    expiresAt = new Date(/(Z|[+-]\d\d:\d\d)$/.test(expiresIn) ? expiresIn : `${expiresIn}${BRASILIA_OFFSET}`);
  if (!expiresAt || Number.isNaN(expiresAt.getTime())) throw malformed('no usable expires_in');
  return { accessToken: answer.access_token, expiresAt };
}
