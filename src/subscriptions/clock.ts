/**
 * The one clock of subscriptions. Production reads the system time; tests replace it with
 * setClock() (in-process) or pass a chosen `now` to runSchedulerTick(), so a whole retry schedule
 * of weeks runs in seconds. Calendar dates are UTC days written YYYY-MM-DD: a billing day does not
 * move with the server's time zone.
 */
let source: () => Date = () => new Date();

export function now(): Date {
  return source();
}

/** Tests only: make now() return what `clock` returns (a fixed Date or a function). */
export function setClock(clock: Date | (() => Date)): void {
  source = typeof clock === 'function' ? clock : () => new Date(clock.getTime());
}

export function resetClock(): void {
  source = () => new Date();
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC calendar day of an instant, YYYY-MM-DD. */
export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

export function today(): string {
  return dayOf(now());
}

/** True for a real calendar day written YYYY-MM-DD (2025-02-30 is not one). */
export function isCalendarDay(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function parseDay(day: string): [number, number, number] {
  const match = ISO_DATE.exec(day);
  if (!match) throw new Error(`not a YYYY-MM-DD day: ${day}`);
  return [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
}

export function addDays(day: string, days: number): string {
  const [y, m, d] = parseDay(day);
  return dayOf(new Date(Date.UTC(y, m, d + days)));
}

/** Same day of the month `months` later, clamped to the month's last day (Jan 31 + 1 = Feb 28/29). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = parseDay(day);
  const lastDayOfTarget = new Date(Date.UTC(y, m + months + 1, 0)).getUTCDate();
  return dayOf(new Date(Date.UTC(y, m + months, Math.min(d, lastDayOfTarget))));
}
