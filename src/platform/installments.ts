/**
 * The installment options a payer may choose ("até 12x"), in integer cents. A merchant's policy says the
 * most installments, how many of them are interest-free, the monthly rate for the rest (basis points:
 * 199 = 1.99% a month) and the smallest installment worth offering.
 *
 * Rounding, as docs/api/payment-links.md states:
 * - interest-free: the total is the amount; each installment is the amount divided by their number,
 *   rounded down to the cent, and the first installment carries the cents left over (R$ 100,00 in 3x:
 *   33,34 + 33,33 + 33,33); `installment_value` shows the rounded-down one.
 * - with interest: the Price table (constant installments): PMT = P·i·(1+i)^n / ((1+i)^n − 1), computed
 *   exactly in integers (BigInt) and rounded half up to the cent once; the total is n × PMT.
 */
export interface InstallmentPolicy {
  /** The most installments the payer may choose (1 to 12). */
  maxInstallments: number;
  /** Up to this many installments, no interest (0 to maxInstallments). */
  freeInstallments: number;
  /** Monthly interest for more installments than the free ones, in basis points (0 to 1000, 10%). */
  interestRateMonthlyBp: number;
  /** Installment values below this (cents) are not offered; one installment always is. */
  minInstallmentValue: number;
}

export interface InstallmentOption {
  installments: number;
  /** Cents of each installment (interest-free: rounded down, the first carries the rest). */
  installmentValue: number;
  /** Cents the payer pays in all: the amount, or n × the installment with interest. */
  total: number;
  interestFree: boolean;
}

export const MAX_INSTALLMENTS = 12;
export const MAX_INTEREST_RATE_BP = 1000;
const BASIS = 10_000n;

/** The Price-table installment of `amount` cents over `n` months at `rateBp` basis points a month. */
export function priceTableInstallment(amount: number, n: number, rateBp: number): number {
  if (rateBp === 0) return Math.ceil(amount / n);
  const growth = (BASIS + BigInt(rateBp)) ** BigInt(n);
  const numerator = BigInt(amount) * BigInt(rateBp) * growth;
  const denominator = BASIS * (growth - BASIS ** BigInt(n));
  return Number((2n * numerator + denominator) / (2n * denominator));
}

export function installmentOption(amount: number, n: number, policy: InstallmentPolicy): InstallmentOption {
  const interestFree = n <= policy.freeInstallments || policy.interestRateMonthlyBp === 0;
  if (interestFree) return { installments: n, installmentValue: Math.floor(amount / n), total: amount, interestFree };
  const installmentValue = priceTableInstallment(amount, n, policy.interestRateMonthlyBp);
  return { installments: n, installmentValue, total: installmentValue * n, interestFree };
}

/** Every option the payer may choose: one installment always, more while each is worth the minimum. */
export function installmentOptions(amount: number, policy: InstallmentPolicy): InstallmentOption[] {
  const options: InstallmentOption[] = [];
  for (let n = 1; n <= Math.min(policy.maxInstallments, MAX_INSTALLMENTS); n++) {
    const option = installmentOption(amount, n, policy);
    if (n > 1 && option.installmentValue < policy.minInstallmentValue) break;
    options.push(option);
  }
  return options;
}

/** R$ 1.234,56: how a Brazilian reads an amount of cents. */
export function brl(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const reais = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}R$ ${reais},${String(abs % 100).padStart(2, '0')}`;
}

/** "3x de R$ 33,33 sem juros", "10x de R$ 11,13 com juros (total R$ 111,30)". */
export function installmentLabel(option: InstallmentOption): string {
  const each = `${option.installments}x de ${brl(option.installmentValue)}`;
  return option.interestFree ? `${each} sem juros` : `${each} com juros (total ${brl(option.total)})`;
}
