/**
 * Brazilian taxpayer documents: CPF (11 digits) and CNPJ (14 characters), each ending in two
 * mod-11 check digits. Since July 2026 the Receita Federal issues alphanumeric CNPJs: the first
 * 12 characters may be A-Z or 0-9 (each worth its ASCII code minus 48, so '0'..'9' are 0..9 and
 * 'A' is 17), the last two stay digits. The same weights apply to both forms.
 */

export type DocumentKind = 'CPF' | 'CNPJ';

/** Strips the usual punctuation (dots, dashes, slash, spaces) and upper-cases the letters. */
export function normalizeDocument(raw: string): string {
  return raw.replace(/[.\-/\s]/g, '').toUpperCase();
}

function checkDigit(values: number[], weights: number[]): number {
  const sum = values.reduce((acc, value, i) => acc + value * weights[i], 0);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

export function isValidCpf(cpf: string): boolean {
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const digits = [...cpf].map(Number);
  const first = checkDigit(digits.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(digits.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === digits[9] && second === digits[10];
}

const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

export function isValidCnpj(cnpj: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  const values = [...cnpj].map((c) => c.charCodeAt(0) - 48);
  const first = checkDigit(values.slice(0, 12), CNPJ_WEIGHTS.slice(1));
  const second = checkDigit(values.slice(0, 13), CNPJ_WEIGHTS);
  return first === values[12] && second === values[13];
}

/** The kind of a valid document (after normalizeDocument), or null. */
export function documentKind(normalized: string): DocumentKind | null {
  if (isValidCpf(normalized)) return 'CPF';
  if (isValidCnpj(normalized)) return 'CNPJ';
  return null;
}

/** Shows a document without revealing it: the public checkout never returns it whole. */
export function maskDocument(normalized: string): string {
  if (!normalized) return '';
  if (normalized.length === 11) return `***.${normalized.slice(3, 6)}.***-**`;
  if (normalized.length === 14) return `**.${normalized.slice(2, 5)}.***/****-**`;
  return '*'.repeat(Math.min(normalized.length, 20));
}
