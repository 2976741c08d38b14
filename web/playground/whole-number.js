// How every number field of the page checks what is typed in it, before anything is sent: a
// setting's (settings.js), the token budget (tokens.js), Tune's k and each value of a sweep's
// grid (tune.js). One check in one set of words, so that a value reads the same wherever it
// is typed.

import { formatCount } from './format.js';

/**
 * Why a field refuses `value` as `label`, a whole number of at least `least`, in the page's
 * words, or '' when it takes it. NaN is a field left empty; a number JavaScript cannot hold
 * exactly would reach Python as another number.
 */
export function wholeNumberProblem(label, value, least) {
  if (Number.isNaN(value)) return `${label} needs a number.`;
  if (Number.isFinite(value) && !Number.isInteger(value)) {
    return `${label} must be a whole number, not ${value}.`;
  }
  if (!Number.isSafeInteger(value)) {
    return `${label} is too large: JavaScript holds whole numbers exactly only up to `
      + `${formatCount(Number.MAX_SAFE_INTEGER)}.`;
  }
  if (value < least) return `${label} must be at least ${formatCount(least)}, not ${formatCount(value)}.`;
  return '';
}
