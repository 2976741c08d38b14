// The Tune view: how well the current settings retrieve the passages that answer known
// questions (Chroma's recall, precision, IoU and precision Ω, computed exactly in the worker
// by `api.evaluate`), each question's retrieved chunks and its excerpt drawn covered or
// missed, and a sweep over a grid of two settings drawn as a heat map whose cells apply
// their settings. Sweeps run in the worker a cell at a time: the page stays free, and Stop
// ends one between cells, keeping the cells done.

import { el } from './dom.js';
import { formatCount } from './format.js';
import { createOwnQuestions, sampleSet, setFromFiles } from './tune-set.js';

const $ = (id) => document.getElementById(id);

// The figures of a report, in the order shown, with their words.
export const FIGURES = [['recall', 'recall'], ['precision', 'precision'], ['iou', 'IoU'],
  ['precisionOmega', 'precision Ω']];

// What a sweep's grid varies for each mode: rows, then columns.
const GRID = {
  semantic: [['targetSize', 'Target size', '200, 400, 800, 1600'], ['overlap', 'Overlap', '0, 100, 200']],
  engine: [['chunkSize', 'Chunk size', '200, 400, 800, 1600'], ['chunkOverlap', 'Chunk overlap', '0, 100, 200']],
};

// The engine's strategies the worker evaluates (its own semantic one needs an embedFn).
export const EVALUATED = ['fixed', 'hierarchical', 'layout'];

export const percent = (value) => `${(100 * value).toFixed(1)}%`;

/**
 * Wire the Tune view. `settings()` answers `{mode, values}`; `document()` the shown
 * document's `{name, text}`; `textarea` is where the user selects passages; `apply(values)`
 * sets the settings a heat map cell stands for.
 */
export function createTune({ settings, document: shownDocument, textarea, apply }) {
  let api = null;
  let chosen = 'sample'; // which set: 'sample', 'own' or 'files'
  let fromFiles = null; // the set opened from files, once one is
  let sweeping = null; // the AbortController of the sweep running
  const own = createOwnQuestions();

  const error = (message) => { $('tune-error').textContent = message; };
  const status = (message) => { $('tune-status').textContent = message; };

  $('tune-set').addEventListener('change', () => {
    chosen = $('tune-set').value;
    $('tune-own').hidden = chosen !== 'own';
    error('');
  });
  $('tune-files').addEventListener('change', async () => {
    const files = [...$('tune-files').files];
    $('tune-files').value = '';
    if (!files.length) return;
    try {
      fromFiles = await setFromFiles(files);
    } catch (failure) {
      return error(failure.message); // the set chosen before stays
    }
    const option = $('tune-set').querySelector('option[value="files"]');
    option.disabled = false;
    option.textContent = `From files: ${formatCount(fromFiles.questions.length)} questions on `
      + `${formatCount(Object.keys(fromFiles.corpora).length)} corpora`;
    $('tune-set').value = chosen = 'files';
    $('tune-own').hidden = true;
    error('');
  });
  $('tune-add').addEventListener('click', () => {
    try {
      own.add($('tune-question').value, textarea.value, textarea.selectionStart, textarea.selectionEnd);
    } catch (failure) {
      return error(failure.message);
    }
    $('tune-question').value = '';
    error('');
    drawOwn();
  });
  $('tune-evaluate').addEventListener('click', evaluateNow);
  $('tune-sweep').addEventListener('click', sweepNow);
  $('tune-stop').addEventListener('click', () => sweeping?.abort());

  function drawOwn() {
    $('tune-own-list').replaceChildren(...own.list().map(({ question, excerpt }, index) => {
      const remove = el('button', { type: 'button', className: 'link-button' }, 'Remove');
      remove.addEventListener('click', () => { own.remove(index); drawOwn(); });
      return el('li', {}, el('strong', {}, question), ' — ',
        el('span', { className: 'muted' }, excerptPreview(excerpt)), ' ', remove);
    }));
  }

  async function currentSet() {
    if (chosen === 'sample') return sampleSet();
    if (chosen === 'files') return fromFiles;
    const { name, text } = shownDocument();
    return own.set(name, text);
  }

  /** The facade's options for the current settings, or a message saying why there are none.
   * A token budget applied in the Tokens panel cuts the chunks scored too (counting alone
   * changes no chunk, so it is left out). */
  function evaluatedOptions() {
    const { mode, values, tokens } = settings();
    const k = Number($('tune-k').value);
    const budget = tokens.maxTokens === undefined ? {} : tokens;
    if (mode === 'semantic') {
      const { targetSize, maxSize, minSize, overlap, preserveCodeBlocks, respectHeadings } = values;
      return { strategy: 'semantic', k, targetSize, maxSize, minSize, overlap, preserveCodeBlocks,
        respectHeadings, ...budget };
    }
    if (mode === 'engine' && EVALUATED.includes(values.strategy)) {
      return { strategy: values.strategy, k, chunkSize: values.chunkSize,
        chunkOverlap: values.chunkOverlap, ...budget };
    }
    return mode === 'engine'
      ? 'Tune scores the engine\'s fixed, hierarchical and layout strategies: its semantic one embeds with the page\'s demonstration function.'
      : 'Tune scores documents: pick the semantic chunker or the chunking engine.';
  }

  async function evaluateNow() {
    const options = evaluatedOptions();
    if (typeof options === 'string') return error(options);
    let set;
    try {
      set = await currentSet();
    } catch (failure) {
      return error(failure.message);
    }
    error('');
    status('Evaluating…');
    try {
      const report = await api.evaluate(set, options);
      drawReport(report, set);
      status(`${formatCount(set.questions.length)} questions, ${formatCount(report.chunkCount)} chunks, `
        + `in ${formatCount(Math.round(report.seconds * 1000))} ms`);
    } catch (failure) {
      // The last good figures stay; the message says what was wrong.
      status('');
      error(failure.field ? `${failure.field}: ${failure.message}` : failure.message);
    }
  }

  function drawReport(report, set) {
    $('tune-figures').replaceChildren(...FIGURES.map(([key, label]) => el('div', {
      className: 'stat', dataset: { figure: key } },
    el('dt', {}, label), el('dd', {}, percent(report[key]), el('span', { className: 'muted' },
      ` ±${percent(report[`${key}Std`])}`)))));
    $('tune-questions').replaceChildren(...report.questions.map((figures, index) =>
      questionItem(set.questions[index], figures, set.corpora)));
  }

  function questionItem(question, figures, corpora) {
    const said = FIGURES.slice(0, 3).map(([key, label]) => `${label} ${percent(figures[key])}`).join(' · ');
    const retrieved = el('ol', { className: 'tune-retrieved' }, ...figures.retrieved.map((hit) =>
      el('li', {}, `${hit.corpusId} ${formatCount(hit.start)}–${formatCount(hit.end)}`,
        el('span', { className: 'muted' }, ` · score ${hit.score.toFixed(2)}`))));
    return el('li', { className: 'tune-question' },
      el('p', {}, el('strong', {}, question.question), ' ', el('span', { className: 'muted' }, said)),
      paintedExcerpts(question, figures.retrieved, corpora[question.corpusId]), retrieved);
  }

  async function sweepNow() {
    const options = evaluatedOptions();
    if (typeof options === 'string') return error(options);
    const { mode } = settings();
    const [[rowName, rowLabel], [columnName, columnLabel]] = GRID[mode];
    let rows;
    let columns;
    let set;
    try {
      rows = numbers($('tune-rows').value, rowLabel);
      columns = numbers($('tune-columns').value, columnLabel);
      set = await currentSet();
    } catch (failure) {
      return error(failure.message);
    }
    error('');
    const { [rowName]: _row, [columnName]: _column, ...fixed } = options;
    const metric = $('tune-metric').value;
    const table = heatMap(rows, columns, rowLabel, columnLabel);
    sweeping = new AbortController();
    $('tune-stop').disabled = false;
    $('tune-sweep').disabled = true;
    const progress = $('tune-progress');
    progress.value = 0;
    progress.hidden = false;
    const cells = [];
    try {
      await api.sweep(set, { [rowName]: rows, [columnName]: columns }, {
        ...fixed, metric, signal: sweeping.signal,
        onProgress: ({ done, total, cell }) => {
          progress.value = done / total;
          cells.push(cell);
          fillCell(table, cells.length - 1, cell, metric, columns.length);
          shade(table);
          status(`Sweep: ${done} of ${total} cells`);
        },
      });
      status(`Sweep done: ${cells.length} cells. Click a cell to use its settings.`);
    } catch (failure) {
      if (failure.name !== 'AbortError') error(failure.message);
      else status(`Stopped after ${cells.length} of ${rows.length * columns.length} cells.`);
    } finally {
      sweeping = null;
      $('tune-stop').disabled = true;
      $('tune-sweep').disabled = false;
      progress.hidden = true;
    }
    markBest(table, cells, metric);
  }

  function heatMap(rows, columns, rowLabel, columnLabel) {
    const table = el('table', { className: 'heat-map' },
      el('caption', {}, `${$('tune-metric').selectedOptions[0].textContent} by ${rowLabel} (rows) and ${columnLabel} (columns)`),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, `${rowLabel} \\ ${columnLabel}`),
        ...columns.map((value) => el('th', { scope: 'col' }, formatCount(value))))),
      el('tbody', {}, ...rows.map((value) => el('tr', {}, el('th', { scope: 'row' }, formatCount(value)),
        ...columns.map(() => el('td', {}, el('button', { type: 'button', className: 'heat-cell', disabled: true }, '…')))))));
    $('tune-heat').replaceChildren(table);
    return table;
  }

  function fillCell(table, index, cell, metric, width) {
    const button = table.tBodies[0].rows[Math.floor(index / width)].cells[1 + (index % width)].firstChild;
    const settingsSaid = Object.entries(cell.settings).map(([name, value]) => `${name} ${value}`).join(', ');
    if (!cell.report) {
      button.textContent = '—';
      button.title = `${settingsSaid}: ${cell.error}`;
      button.classList.add('refused');
      return;
    }
    const value = cell.report[metric];
    button.textContent = percent(value) + (cell.warning ? ' !' : '');
    button.title = `${settingsSaid}: ${percent(value)}${cell.warning ? ` (${cell.warning})` : ''}`;
    button.dataset.value = String(value);
    button.disabled = false;
    button.dataset.settings = JSON.stringify(cell.settings);
    button.addEventListener('click', () => apply(cell.settings));
  }

  /** Shade each cell done from the worst (pale) to the best so far (deep). */
  function shade(table) {
    const done = [...table.querySelectorAll('.heat-cell[data-value]')];
    const values = done.map((button) => Number(button.dataset.value));
    const low = Math.min(...values);
    const span = Math.max(...values) - low || 1;
    for (const [at, button] of done.entries()) {
      // A CSSOM property, which the page's style-src 'self' allows (an attribute it would not).
      button.style.setProperty('--heat', String((values[at] - low) / span));
    }
  }

  function markBest(table, cells, metric) {
    let best = -1;
    cells.forEach((cell, index) => {
      if (cell.report && (best < 0 || cell.report[metric] > cells[best].report[metric])) best = index;
    });
    if (best < 0) return;
    const width = table.tHead.rows[0].cells.length - 1;
    const button = table.tBodies[0].rows[Math.floor(best / width)].cells[1 + (best % width)].firstChild;
    button.classList.add('best');
    button.setAttribute('aria-label', `best: ${button.title}`);
    button.append(' ★');
  }

  return {
    setApi(ready) { api = ready; },
    /** The questions this view scores on and its k, `{set, k}` (the Compare view scores both
     * its settings on them); rejects, saying why, when there are none yet. */
    async questions() { return { set: await currentSet(), k: Number($('tune-k').value) }; },
    /** The sweep's grid fields follow the mode's settings. */
    showMode(mode) {
      const grid = GRID[mode] ?? GRID.semantic;
      $('tune-rows-label').textContent = `Rows: ${grid[0][1]}`;
      $('tune-columns-label').textContent = `Columns: ${grid[1][1]}`;
      if ($('tune-rows').dataset.mode !== mode) {
        $('tune-rows').value = grid[0][2];
        $('tune-columns').value = grid[1][2];
        $('tune-rows').dataset.mode = mode;
      }
    },
  };
}

/** The numbers of a comma list, or an Error naming the field and the bad entry. */
function numbers(list, label) {
  const entries = list.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (!entries.length) throw new Error(`${label}: give at least one value, commas between.`);
  return entries.map((entry) => {
    const value = Number(entry);
    if (!Number.isInteger(value)) throw new Error(`${label}: ${JSON.stringify(entry)} is not a whole number.`);
    return value;
  });
}

function excerptPreview(text, limit = 80) {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/**
 * A question's excerpts, each with a little context, their characters marked covered (in a
 * retrieved chunk of the same corpus) or missed: built as text nodes, never markup.
 */
function paintedExcerpts(question, retrieved, text) {
  const own = retrieved.filter((hit) => hit.corpusId === question.corpusId);
  return el('div', { className: 'tune-excerpts' }, ...question.references.map(([start, end]) => {
    const pieces = [];
    const context = 40;
    const before = Math.max(0, start - context);
    if (before < start) pieces.push(el('span', { className: 'muted' }, (before > 0 ? '…' : '') + text.slice(before, start)));
    for (const [from, to, covered] of coverage(start, end, own)) {
      pieces.push(el('mark', { className: covered ? 'tune-covered' : 'tune-missed' }, text.slice(from, to)));
    }
    const after = Math.min(text.length, end + context);
    if (end < after) pieces.push(el('span', { className: 'muted' }, text.slice(end, after) + (after < text.length ? '…' : '')));
    return el('p', { className: 'tune-excerpt' }, ...pieces);
  }));
}

/** `[from, to, covered]` pieces of `start..end`, covered where a span of `hits` lies. */
function coverage(start, end, hits) {
  const cuts = new Set([start, end]);
  for (const { start: s, end: e } of hits) {
    if (s > start && s < end) cuts.add(s);
    if (e > start && e < end) cuts.add(e);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const pieces = [];
  for (let at = 0; at + 1 < points.length; at++) {
    const [from, to] = [points[at], points[at + 1]];
    const covered = hits.some(({ start: s, end: e }) => s <= from && to <= e);
    const last = pieces[pieces.length - 1];
    if (last && last[2] === covered) last[1] = to;
    else pieces.push([from, to, covered]);
  }
  return pieces;
}
