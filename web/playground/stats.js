// Count, min, median and max of the chunk lengths, in characters.

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

/** Draw `stats` into the `<dl>` `container`, naming the chunks `noun` (chunks, passages). */
export function renderStats(container, stats, noun) {
  const entries = [[noun, stats.count], ['min', stats.min], ['median', stats.median],
    ['max', stats.max]];
  container.replaceChildren(...entries.flatMap(([term, value]) => [
    el('div', { className: 'stat', dataset: { stat: term === noun ? 'count' : term } },
      el('dt', {}, term), el('dd', {}, formatCount(value))),
  ]));
}
