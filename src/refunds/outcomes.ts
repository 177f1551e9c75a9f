/**
 * What the acquirer's answer to a cancel means for a refund, pure: its cancel codes
 * (../shared/reference/acquirer-api.md, section 2) as a final failure with a reason the merchant
 * can act on, or a refusal to try again later.
 */

/** The acquirer's spacing between cancels on one sale, plus a margin for clocks and transit. */
export const CANCEL_SPACING_MS = 5_000 + 250;

/** Codes that say "not now": the same refund is sent again later, as a new request. */
const RETRY_CODES = new Set(['98', '99']);

const FAILURE_REASONS: Record<string, string> = {
  '3': 'The acquirer has no record of this sale.',
  '40': 'Too late: the acquirer no longer refunds this sale (its refund window is over).',
  '41': "The sale's state at the acquirer does not allow a refund.",
  '43': "The merchant's balance at the acquirer is too low for this refund.",
  '72': "The merchant's balance at the acquirer is too low for this refund.",
  '76': "The merchant's balance at the acquirer is too low for this refund.",
  '51': 'The acquirer says this refund is above what is left of the sale.',
  '102': 'The acquirer says this refund is above what is left of the sale.',
  '309': 'The acquirer says this sale cannot be refunded.',
};

export type CancelRefusal = { retry: true } | { retry: false; code: string; reason: string };

/** A refused cancel: its first code decides; an unknown code fails the refund with the acquirer's own message. */
export function refusalOf(errors: { Code: number | string; Message: string }[], httpStatus: number): CancelRefusal {
  const first = errors[0];
  const code = first ? String(first.Code) : `HTTP ${httpStatus}`;
  if (RETRY_CODES.has(code)) return { retry: true };
  const reason = FAILURE_REASONS[code] ?? `The acquirer refused the refund (${code} ${first?.Message ?? ''}).`.trim();
  return { retry: false, code, reason };
}

/** How the acquirer's cumulative VoidedAmount settles a refund whose void had no answer. */
export type UnknownOutcome = 'happened' | 'not-happened' | 'inconsistent';

export function outcomeFromVoidedAmount(voidedNow: number, voidedBefore: number, valueCents: number): UnknownOutcome {
  if (voidedNow === voidedBefore + valueCents) return 'happened';
  if (voidedNow === voidedBefore) return 'not-happened';
  return 'inconsistent';
}
