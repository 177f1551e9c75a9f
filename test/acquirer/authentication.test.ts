import '../helpers/env';
import test from 'ava';
import {
  authenticatedPaymentFields,
  authenticationLevel,
  liabilityShifted,
  toThreeDSecureToken,
  validateAuthenticationResult,
  type AuthenticationLevel,
} from '../../src/acquirer/client';
import { AcquirerUnavailableError } from '../../src/acquirer/errors';

/** A Visa result as the authentication service gives it for a frictionless pass. */
const VISA_PASS = {
  eci: '05',
  cavv: 'AAABAWFlmQAAAABjRWWZEEFgFz8=',
  xid: 'MDAwMDAwMDAwMDAwMDAwMzIyNzY=',
  version: '2.2.0',
  reference_id: 'a24a5d87-b1a1-4aef-a37b-2f30b91274e6',
};

test('ECI by brand: authenticated and attempted shift the liability, 07 and 00 do not', (t) => {
  const cases: [brand: string, eci: string, level: AuthenticationLevel, shifted: boolean][] = [
    ['Visa', '05', 'authenticated', true],
    ['Visa', '06', 'attempted', true],
    ['Visa', '07', 'not_authenticated', false],
    ['Elo', '05', 'authenticated', true],
    ['Amex', '06', 'attempted', true],
    ['Amex', '07', 'not_authenticated', false],
    ['Master', '02', 'authenticated', true],
    ['Master', '01', 'attempted', true],
    ['Master', '00', 'not_authenticated', false],
    // Another brand's authenticated value says nothing of this one.
    ['Master', '05', 'not_authenticated', false],
    ['Visa', '02', 'not_authenticated', false],
    // "5" is ECI 05, as some services write it.
    ['Visa', '5', 'authenticated', true],
    ['Master', '1', 'attempted', true],
  ];
  for (const [brand, eci, level, shifted] of cases) {
    t.is(authenticationLevel(brand, eci), level, `${brand} ${eci}`);
    t.is(liabilityShifted(brand, eci), shifted, `${brand} ${eci}`);
  }
});

test('the liability stays with the merchant for any brand or ECI that is not one', (t) => {
  const hostile: [unknown, unknown][] = [
    ['Hipercard', '05'],
    ['Diners', '02'],
    ['visa', '05'],
    ['constructor', '05'],
    ['__proto__', '05'],
    ['Visa', 5],
    ['Visa', '005'],
    ['Visa', ' 05'],
    ['Visa', '٠٥'],
    ['Visa', ''],
    ['Visa', null],
    ['Visa', { valueOf: () => '05' }],
    ['Visa', ['05']],
    [undefined, '05'],
    [{ toString: () => 'Visa' }, '05'],
  ];
  for (const [brand, eci] of hostile) t.false(liabilityShifted(brand, eci), `${String(brand)} ${JSON.stringify(eci)}`);
});

test('a valid result is read into the sale fields the acquirer takes', (t) => {
  const checked = validateAuthenticationResult(VISA_PASS, 'Visa');
  if (!checked.ok) return t.fail(JSON.stringify(checked.errors));
  t.deepEqual(checked.value, {
    eci: '05',
    cavv: VISA_PASS.cavv,
    xid: VISA_PASS.xid,
    version: '2.2.0',
    referenceId: VISA_PASS.reference_id,
  });
  t.deepEqual(authenticatedPaymentFields(checked.value), {
    Authenticate: true,
    ExternalAuthentication: {
      Cavv: VISA_PASS.cavv,
      Xid: VISA_PASS.xid,
      Eci: '05',
      Version: '2.2.0',
      ReferenceId: VISA_PASS.reference_id,
    },
  });
});

test('a result without a cavv is valid only when the liability stays with the merchant', (t) => {
  const failed = { eci: '00', version: '2.2.0', reference_id: VISA_PASS.reference_id, xid: null };
  const checked = validateAuthenticationResult(failed, 'Master');
  if (!checked.ok) return t.fail(JSON.stringify(checked.errors));
  t.deepEqual(authenticatedPaymentFields(checked.value).ExternalAuthentication, {
    Eci: '00',
    Version: '2.2.0',
    ReferenceId: VISA_PASS.reference_id,
  });
  const attempted = validateAuthenticationResult({ ...failed, eci: '01' }, 'Master');
  t.deepEqual(attempted, { ok: false, errors: { 'authentication.cavv': ['This field is required.'] } });
  const authenticated = validateAuthenticationResult({ ...VISA_PASS, cavv: undefined }, 'Visa');
  t.deepEqual(authenticated, { ok: false, errors: { 'authentication.cavv': ['This field is required.'] } });
  // "5" is read as 05.
  const short = validateAuthenticationResult({ ...VISA_PASS, eci: '5' }, 'Visa');
  t.true(short.ok && short.value.eci === '05');
});

/** Each hostile value of one field is refused, with the error under that field's name only. */
const HOSTILE: Record<string, unknown[]> = {
  eci: [
    '02', // Mastercard's value on a Visa card
    '5 ',
    '005',
    '٠٥',
    '0x5',
    '-5',
    '',
    null,
    5,
    ['05'],
    { $gt: '' },
    '05\u0000',
    '9'.repeat(100_000),
  ],
  cavv: [
    'not base64!',
    'AAAB',
    'A'.repeat(65),
    'AAABAWFlmQAAAABjRWWZEEFgFz8',
    'AAABAWFlmQAAAABjRWWZEEFgFz8=\n',
    '<script>alert(1)</script>AAAA',
    '\u0000'.repeat(28),
    12345678901234567890123456789,
    { toString: () => VISA_PASS.cavv },
    [VISA_PASS.cavv],
    'A'.repeat(1_000_000),
  ],
  xid: ['xid with spaces', 'A'.repeat(70), 12, true, { $ne: null }, '${7*7}{{7*7}}'],
  version: ['1.0.2', '3', '2.2.0.1', '2.x', 'v2', ' 2.2.0', 2.2, '', null, '2.2.0; drop table'],
  reference_id: [
    'not-a-uuid',
    'a24a5d87-b1a1-4aef-a37b-2f30b91274e6 ',
    'a24a5d87b1a14aefa37b2f30b91274e6',
    '{a24a5d87-b1a1-4aef-a37b-2f30b91274e6}',
    'g24a5d87-b1a1-4aef-a37b-2f30b91274e6',
    '../../etc/passwd',
    42,
    undefined,
  ],
};

test('hostile values in each field are refused, naming that field', (t) => {
  for (const [field, values] of Object.entries(HOSTILE)) {
    for (const value of values) {
      const checked = validateAuthenticationResult({ ...VISA_PASS, [field]: value }, 'Visa');
      const label = `${field} = ${typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value)}`;
      if (checked.ok) {
        t.fail(`${label} was accepted`);
        continue;
      }
      t.deepEqual(Object.keys(checked.errors), [`authentication.${field}`], label);
      const message = checked.errors[`authentication.${field}`][0];
      t.true(message.length < 120, `${label}: ${message}`);
      if (typeof value === 'string' && value.length > 8) t.false(message.includes(value), `${label} is echoed`);
    }
  }
});

test('a result that is not an object, has unknown fields or is for a brand without 3-D Secure is refused', (t) => {
  for (const input of [null, undefined, 'eci=05', 5, [VISA_PASS], true]) {
    const checked = validateAuthenticationResult(input, 'Visa');
    t.false(checked.ok, String(input));
    if (!checked.ok) t.deepEqual(Object.keys(checked.errors), ['authentication']);
  }
  const extra = validateAuthenticationResult(JSON.parse(`{"__proto__": {"eci": "05"}, "cavv_algorithm": "2"}`), 'Visa');
  t.false(extra.ok);
  if (!extra.ok)
    t.deepEqual(Object.keys(extra.errors).sort(), [
      'authentication.__proto__',
      'authentication.cavv_algorithm',
      'authentication.eci',
      'authentication.reference_id',
      'authentication.version',
    ]);
  const longKey = validateAuthenticationResult({ ...VISA_PASS, ['k'.repeat(5000)]: 1 }, 'Visa');
  t.false(longKey.ok);
  if (!longKey.ok) t.true(Object.keys(longKey.errors).every((key) => key.length < 60));
  for (const brand of ['Hipercard', 'Diners', 'constructor', '<img src=x>']) {
    const checked = validateAuthenticationResult(VISA_PASS, brand);
    t.false(checked.ok, brand);
    if (!checked.ok) t.regex(checked.errors.authentication[0], /not available for .* cards/);
    if (!checked.ok) t.false(checked.errors.authentication[0].includes('<img'));
  }
  t.deepEqual(validateAuthenticationResult({ ...VISA_PASS }, 'Visa', 'payment.authentication').ok, true);
  const prefixed = validateAuthenticationResult({ ...VISA_PASS, eci: '7x' }, 'Visa', 'payment.authentication');
  t.false(prefixed.ok);
  if (!prefixed.ok) t.deepEqual(Object.keys(prefixed.errors), ['payment.authentication.eci']);
});

test('the token answer is read with its expiry in minutes or as a date-time (Brasília when it has no zone)', (t) => {
  const now = new Date('2026-11-28T12:00:00Z');
  const minutes = toThreeDSecureToken({ access_token: 'tok', token_type: 'bearer', expires_in: 20 }, now);
  t.deepEqual(minutes, { accessToken: 'tok', expiresAt: new Date('2026-11-28T12:20:00Z') });
  const dated = toThreeDSecureToken({ access_token: 'tok', expires_in: '2026-11-28T09:29:32' }, now);
  t.is(dated.expiresAt.toISOString(), '2026-11-28T12:29:32.000Z');
  const zoned = toThreeDSecureToken({ access_token: 'tok', expires_in: '2026-11-28T12:29:32Z' }, now);
  t.is(zoned.expiresAt.toISOString(), '2026-11-28T12:29:32.000Z');
  for (const body of [
    null,
    {},
    { access_token: '', expires_in: 20 },
    { access_token: 7, expires_in: 20 },
    { access_token: 'tok' },
    { access_token: 'tok', expires_in: -1 },
    { access_token: 'tok', expires_in: 'soon' },
    { access_token: 'tok', expires_in: '2026-13-45T99:99:99' },
  ])
    t.throws(() => toThreeDSecureToken(body, now), { instanceOf: AcquirerUnavailableError }, JSON.stringify(body));
});
