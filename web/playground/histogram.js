// A histogram of chunk lengths drawn as SVG, in characters or in tokens, with the size
// settings (or the token budget) marked as lines, so one can see at a glance how the chunks
// sit against the target and the maximum. The chart is drawn as wide as it shows, one unit a
// pixel, so that its labels keep their size on a phone rather than shrink with the chart.

import { svg } from './dom.js';
import { formatCount } from './format.js';

const HEIGHT = 150;
const LABEL = 12; // the labels' size in pixels, and each marker label's row below
const PAD = { left: 34, right: 10, top: 6 + 2 * (LABEL + 1), bottom: LABEL + 10 };
const BINS = 24;

/**
 * The histogram in `container`. Its chart is made once; the bars with their axis, and the
 * markers, are each drawn again only when what they show changes: a setting's step moves its
 * marker but often leaves every length as it was, and a new chart costs the browser a layout
 * and a new layer (tests/bench/playground.py, slider). Its width is the one a ResizeObserver
 * last saw (reading it in a redraw would cost a layout), and a new width draws it again.
 */
export function createHistogram(container) {
  const bars = svg('g');
  const marks = svg('g');
  let width = 400; // until the chart is first laid out
  // Its height is fixed: a new width changes its view box, never its size, which would
  // call the observer again.
  const chart = svg('svg', { viewBox: `0 0 ${width} ${HEIGHT}`, height: HEIGHT, role: 'img',
    class: 'histogram-svg', 'font-size': LABEL }, bars, marks);
  const shown = new Map(); // each group's key of what it shows
  let drawn = null; // the arguments of the last render, for a new width
  new ResizeObserver(([entry]) => {
    const seen = Math.round(entry.contentBoxSize[0].inlineSize);
    if (!seen || seen === width) return; // hidden (a narrow screen's other view), or as drawn
    width = seen;
    chart.setAttribute('viewBox', `0 0 ${width} ${HEIGHT}`);
    if (drawn) render(...drawn);
  }).observe(chart);

  /** Fill `group` with `make()`'s nodes unless it shows `key` already. */
  function redraw(group, key, make) {
    if (shown.get(group) === key) return;
    shown.set(group, key);
    group.replaceChildren(...make());
  }

  /**
   * Draw `lengths` (with their `stats`, from stats.js), with `markers` ([{label, value}])
   * as vertical lines, all counted in `unit` ('characters' or 'tokens'). The x axis runs
   * from 0 to a round number above the longest chunk and every marker.
   */
  function render(lengths, stats, markers, unit = 'characters') {
    drawn = [lengths, stats, markers, unit];
    if (!chart.isConnected) container.replaceChildren(chart); // placed by the first result
    // No spread of `lengths` into Math.max: a million chunks would overflow the call stack.
    const top = niceCeiling(Math.max(1, stats.max, ...markers.map((m) => m.value)));
    const binWidth = top / BINS;
    const counts = new Array(BINS).fill(0);
    for (const length of lengths) counts[Math.min(BINS - 1, Math.floor(length / binWidth))] += 1;
    const highest = Math.max(1, ...counts);
    const plotW = width - PAD.left - PAD.right;
    const plotH = HEIGHT - PAD.top - PAD.bottom;
    const x = (value) => PAD.left + (value / top) * plotW;
    const y = (count) => PAD.top + plotH - (count / highest) * plotH;

    const markerText = markers.map((m) => `${m.label} ${formatCount(m.value)}`).join(', ');
    chart.setAttribute('aria-label', lengths.length
      ? `Histogram of ${lengths.length} chunk lengths from ${formatCount(stats.min)} `
        + `to ${formatCount(stats.max)} ${unit}; ${markerText}`
      : 'Histogram: no chunks');
    // The bars and the axis depend on the unit, the axis's top, the tallest bar and the counts.
    redraw(bars, `${width} ${unit} ${top} ${highest} ${counts}`, () => [
      ...counts.flatMap((count, bin) => {
        if (!count) return [];
        const from = bin * binWidth;
        return [svg('rect', {
          class: 'bar', x: x(from) + 0.5, y: y(count), width: Math.max(plotW / BINS - 1, 1),
          height: PAD.top + plotH - y(count),
        }, svg('title', {}, `${formatCount(Math.round(from))}–`
          + `${formatCount(Math.round(from + binWidth))} ${unit}: ${count} `
          + `chunk${count === 1 ? '' : 's'}`))];
      }),
      svg('line', { class: 'axis', x1: PAD.left, x2: width - PAD.right, y1: PAD.top + plotH,
        y2: PAD.top + plotH }),
      svg('text', { class: 'tick', x: PAD.left, y: HEIGHT - 6, 'text-anchor': 'start' }, '0'),
      svg('text', { class: 'tick', x: width - PAD.right, y: HEIGHT - 6, 'text-anchor': 'end' },
        formatCount(top)),
      svg('text', { class: 'tick', x: PAD.left - 4, y: PAD.top + 4, 'text-anchor': 'end' },
        String(highest)),
    ]);
    const marked = markers.map((m) => `${m.label}=${m.value}`);
    redraw(marks, `${width} ${top} ${marked}`, () => markers.flatMap((marker, i) => {
      const at = x(marker.value);
      return [
        svg('line', { class: `marker marker-${i}`, x1: at, x2: at, y1: PAD.top - 4,
          y2: PAD.top + plotH }),
        // One row of labels per marker, so close markers never print over each other.
        svg('text', { class: `marker-label marker-${i}`, x: at, y: LABEL + (LABEL + 1) * i,
          'text-anchor': at > width - 60 ? 'end' : at < PAD.left + 30 ? 'start' : 'middle' },
        `${marker.label} ${formatCount(marker.value)}`),
      ];
    }));
  }

  return { render };
}

/** A round number (1, 2 or 5 times a power of ten, or a multiple) at or above `value`. */
function niceCeiling(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}
