// The Tune view's heat map: a sweep's grid of two settings as a table, a cell for each pair
// of values. A cell done shows its figure, shaded from the worst (the panel) to the best so
// far (deep), and a click applies its settings; the best is starred. Why a cell was not run,
// or why its settings make no sense, is written under its row, where everyone reads it (a
// title on a cell reaches neither a keyboard nor a finger).

import { el } from './dom.js';
import { formatCount } from './format.js';

/**
 * A heat map in `container` of `rows` by `columns` (numbers), named by `rowLabel` and
 * `columnLabel`, under `caption`, its cells waiting; `apply(settings)` uses a cell's settings.
 * Cells are numbered row by row from 0, as a sweep runs them.
 */
export function createHeatMap(container, { rows, columns, rowLabel, columnLabel, caption, apply }) {
  const width = columns.length;
  const rowNodes = rows.map((value) => el('tr', {}, el('th', { scope: 'row' }, formatCount(value)),
    ...columns.map(() => el('td', {}, el('span', { className: 'heat-waiting' }, '…')))));
  const notes = rows.map(() => new Set()); // each row's reasons, in the order found
  const noteRows = rows.map(() => el('tr', { className: 'heat-notes' },
    el('td', { colSpan: width + 1 })));
  const table = el('table', { className: 'heat-map' }, el('caption', {}, caption),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, `${rowLabel} \\ ${columnLabel}`),
      ...columns.map((value) => el('th', { scope: 'col' }, formatCount(value))))),
    el('tbody', {}, ...rowNodes));
  container.replaceChildren(table);

  const cellAt = (index) => rowNodes[Math.floor(index / width)].cells[1 + (index % width)];

  /** Write `reasons` under the row of cell `index`, each once. */
  function note(index, reasons) {
    const row = Math.floor(index / width);
    for (const reason of reasons) notes[row].add(reason);
    if (!notes[row].size) return;
    noteRows[row].cells[0].replaceChildren(...[...notes[row]].map((reason) => el('p', {}, reason)));
    if (!noteRows[row].isConnected) rowNodes[row].after(noteRows[row]);
  }

  /** Shade each cell done from the worst (the panel) to the best so far (deep). */
  function shade() {
    const done = [...table.querySelectorAll('.heat-cell')];
    const values = done.map((button) => Number(button.dataset.value));
    const low = Math.min(...values);
    const span = Math.max(...values) - low || 1;
    for (const [at, button] of done.entries()) {
      // A CSSOM property, which the page's style-src 'self' allows (an attribute it would not).
      button.style.setProperty('--heat', String((values[at] - low) / span));
    }
  }

  return {
    /** Cell `index` run: its figure `value` (0 to 1) reads `text`; `settings` are what a
     * click applies; `reasons` say why they make no sense, when they do not (the cell is
     * flagged "!"). */
    done(index, { value, text, settings, reasons }) {
      const button = el('button', { type: 'button', className: 'heat-cell',
        dataset: { value: String(value), settings: JSON.stringify(settings) } },
      text + (reasons.length ? ' !' : ''));
      button.addEventListener('click', () => apply(settings));
      cellAt(index).replaceChildren(button);
      note(index, reasons);
      shade();
    },
    /** Cell `index` not run, for `reasons`. */
    refused(index, reasons) {
      cellAt(index).replaceChildren(el('span', { className: 'heat-refused' }, '—',
        el('span', { className: 'visually-hidden' }, ' not run: why is under the row')));
      note(index, reasons);
    },
    /** Star cell `index`, the best of the sweep. */
    markBest(index) {
      const button = cellAt(index).querySelector('.heat-cell');
      button.classList.add('best');
      button.setAttribute('aria-label', `${button.textContent}, the best`);
      button.append(' ★');
    },
  };
}
