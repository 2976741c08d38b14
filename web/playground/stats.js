// Count, min, median and max of the chunk lengths, in characters or tokens.

import { el } from './dom.js';
import { formatCount } from './format.js';

/** The statistics of `lengths` (a list of numbers); all 0 when there are none. */
export function summarize(lengths) {
  if (!lengths.length) return { count: 0, min: 0, median: 0, max: 0 };
  const sorted = Float64Array.from(lengths).sort();
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { count: sorted.length, min: sorted[0], median, max: sorted[sorted.length - 1] };
}

/**
 * Draw `stats` into the `<dl>` `container`, naming the chunks `noun` (chunks, passages), then
 * the `extra` entries, each `[term, value, key]` (its `data-stat`).
 */
export function renderStats(container, stats, noun, extra = []) {
  const entries = [[noun, stats.count, 'count'], ['min', stats.min, 'min'],
    ['median', stats.median, 'median'], ['max', stats.max, 'max'], ...extra];
  container.replaceChildren(...entries.flatMap(([term, value, key]) => [
    el('div', { className: 'stat', dataset: { stat: key } },
      el('dt', {}, term), el('dd', {}, formatCount(value))),
  ]));
}
