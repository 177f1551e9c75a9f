/**
 * The subscriptions' calendar: when each cycle falls due, the retry days, and the sequences that
 * number subscriptions, charges and financial transactions. Reads no record.
 */
import { getConfig } from '../../config';
import type { DueCycle } from '../../jobs/charge-subscription';
import { addDays, addMonths } from './clock';
import type { BillingCycle, Subscription } from './model';

export const SUBSCRIPTION_SEQUENCE = 'subscription';
export const CHARGE_SEQUENCE = 'subscription_charge';
/** Financial transactions created when a charge is confirmed. */
export const PAYMENT_TRANSACTION_SEQUENCE = 'payment_transaction';

const CYCLE_MONTHS: Record<Exclude<BillingCycle, 'weekly'>, number> = {
  monthly: 1,
  bimonthly: 2,
  quarterly: 3,
  semiannual: 6,
  annual: 12,
};

/** Due date of cycle `cycle` (0-based), always counted from the first due date so month ends do not drift. */
function dueDateOfCycle(sub: Pick<Subscription, 'firstDueDate' | 'billingCycle'>, cycle: number): string {
  if (sub.billingCycle === 'weekly') return addDays(sub.firstDueDate, 7 * cycle);
  return addMonths(sub.firstDueDate, CYCLE_MONTHS[sub.billingCycle] * cycle);
}

/** The cycle's due date, or null when the subscription's end (end date or number of cycles) is past it. */
export function cycleDueDate(
  sub: Pick<Subscription, 'firstDueDate' | 'billingCycle' | 'endDate' | 'maxCycles'>,
  cycle: number,
): string | null {
  if (sub.maxCycles !== null && sub.maxCycles !== undefined && cycle >= sub.maxCycles) return null;
  const due = dueDateOfCycle(sub, cycle);
  if (sub.endDate && due > sub.endDate) return null;
  return due;
}

export function retryDays(): number[] {
  return getConfig().charges.retryDays;
}

/** The amount of the cycle due `dueDate`: the one set for it (a variable Pix Automático mandate's), else `value`. */
export function cycleValue(sub: Pick<Subscription, 'value' | 'cycleValues'>, dueDate: string | null): number {
  return (dueDate !== null && sub.cycleValues?.[dueDate]) || sub.value;
}

/** What a job of the cycle due now carries (see ChargeJobData.cycle). */
export function dueCycleOf(
  sub: Pick<
    Subscription,
    | 'merchantId'
    | 'value'
    | 'cycleValues'
    | 'nextDueDate'
    | 'nextCycle'
    | 'firstDueDate'
    | 'billingCycle'
    | 'endDate'
    | 'maxCycles'
  >,
): DueCycle {
  return {
    merchantId: sub.merchantId,
    value: cycleValue(sub, sub.nextDueDate),
    number: sub.nextCycle,
    followingDueDate: cycleDueDate(sub, sub.nextCycle + 1),
  };
}
