/**
 * Operations the suite cannot answer with a 2xx, each with the reason. Keep it short: an entry
 * here is an operation whose success answer nothing checks against the document.
 */
import type { Unreached } from './verdict';

export const UNREACHABLE: Unreached[] = [];
