/**
 * The one normaliser of Brazilian phone numbers (commercial contacts, payment links' mobile): a
 * number as Brazilians type it in, E.164 out.
 */

/**
 * Brazilian numbers only, stored in E.164: +55, a two-digit area code (DDD, digits 1-9), then a
 * mobile (9 digits starting with 9) or a landline (8 digits starting with 2-5).
 */
export const BRAZILIAN_E164 = /^\+55[1-9]{2}(9\d{8}|[2-5]\d{7})$/;

/** The field error of a number that is not Brazilian. */
export const BRAZILIAN_PHONE_MESSAGE =
  'Enter a valid Brazilian phone number with its area code, e.g. (11) 98765-4321 or +5511987654321.';

/** Digits, with spaces, dots, hyphens and parentheses between them for readability; a + only first. */
const TYPED_PHONE = /^\+?[\d\s().-]+$/;

/**
 * "(11) 98765-4321", "11987654321", "+55 11 98765-4321", "55 11 98765 4321", "011 98765 4321"
 * (the 0 of a national call) and "0 21 11 98765-4321" (0, carrier code, area code) all give
 * "+5511987654321"; anything that is not a Brazilian mobile or landline gives null. The forms are
 * told apart by their digit count (national 10-11, with the country code 12-13, with the trunk 0
 * 11-12, with the trunk 0 and a carrier code 13-14), so area code 55 is never mistaken for the
 * country code.
 */
export function toBrazilianE164(typed: string): string | null {
  const text = typed.trim();
  if (!TYPED_PHONE.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  let national: string;
  if (text.startsWith('+')) {
    if (!digits.startsWith('55')) return null;
    national = digits.slice(2);
  } else if (digits.startsWith('0')) {
    national = digits.length >= 13 ? digits.slice(3) : digits.slice(1);
  } else if (digits.startsWith('55') && (digits.length === 12 || digits.length === 13)) {
    national = digits.slice(2);
  } else {
    national = digits;
  }
  const e164 = `+55${national}`;
  return BRAZILIAN_E164.test(e164) ? e164 : null;
}
