// The Tune view: how well the current settings retrieve the passages that answer known
// questions (Chroma's recall, precision, IoU and precision Ω, computed exactly in the worker
// by `api.evaluate`), each question's retrieved chunks and its excerpt drawn covered or
// missed, and a sweep over a grid of two settings drawn as a heat map whose cells apply
// their settings. Sweeps run in the worker a cell at a time: the page stays free, and Stop
// ends one between cells, keeping the cells done. Every number is checked as its field in
// the settings checks it, before anything is sent, and said beside that field.

import { el } from './dom.js';
import { formatCount } from './format.js';
import { createHeatMap } from './heat-map.js';
import { inPageWords, noSense, refusals, settingOfField, settingsOf } from './settings.js';
import { createOwnQuestions, sampleSet, setFromFiles } from './tune-set.js';
import { wholeNumberProblem } from './whole-number.js';

const $ = (id) => document.getElementById(id);

// The figures of a report, in the order shown, with their words.
export const FIGURES = [['recall', 'recall'], ['precision', 'precision'], ['iou', 'IoU'],
  ['precisionOmega', 'precision Ω']];

// The share of chunks kept under edits, shown when the Edits field asks for it.
const STABILITY = ['stability', 'kept under edits'];

/** The number typed in the field `id` (NaN when it is empty). */
function typedNumber(id) {
  const typed = $(id).value;
  return typed.trim() === '' ? NaN : Number(typed);
}

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
  /** Say `message` at the field `id` (an empty one clears it). */
  const fieldError = (id, message) => {
    $(`${id}-error`).textContent = message;
    if (message) $(id).setAttribute('aria-invalid', 'true');
    else $(id).removeAttribute('aria-invalid');
  };

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
  drawOwn(); // the questions kept from before a reload

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

  /** The facade's options for the current settings, or a message saying why there are none
   * (said at k when k is the cause). A token budget applied in the Tokens panel cuts the
   * chunks scored too (counting alone changes no chunk, so it is left out). */
  function evaluatedOptions() {
    const { mode, values, tokens } = settings();
    const k = typedNumber('tune-k');
    const kProblem = wholeNumberProblem('Chunks retrieved (k)', k, 1);
    fieldError('tune-k', kProblem);
    // Edits: the share of chunks kept under that many random one-paragraph edits of each
    // document (Python's `edits`, docs/evaluation.md); 0, not measured.
    const edits = typedNumber('tune-edits');
    const editsProblem = wholeNumberProblem('Edits for stability', edits, 0);
    fieldError('tune-edits', editsProblem);
    if (kProblem || editsProblem) return '';
    const measured = edits > 0 ? { edits } : {};
    const refused = refusals(mode, values);
    if (refused.length) {
      return `Put the settings right first: ${refused.map(({ message }) => message).join(' ')}`;
    }
    const budget = tokens.maxTokens === undefined ? {} : tokens;
    if (mode === 'semantic') {
      const { targetSize, maxSize, minSize, overlap, preserveCodeBlocks, respectHeadings,
        overlapBoundary } = values;
      return { strategy: 'semantic', k, targetSize, maxSize, minSize, overlap, preserveCodeBlocks,
        respectHeadings, overlapBoundary, ...budget, ...measured };
    }
    if (mode === 'engine' && EVALUATED.includes(values.strategy)) {
      return { strategy: values.strategy, k, chunkSize: values.chunkSize,
        chunkOverlap: values.chunkOverlap, boundaries: values.boundaries, ...budget, ...measured };
    }
    return mode === 'engine'
      ? 'Tune scores the engine\'s fixed, hierarchical and layout strategies: its semantic one embeds with the page\'s demonstration function.'
      : 'Tune scores documents: pick the semantic chunker or the chunking engine.';
  }

  /** A failure of the worker's in the page's words: a setting's by its label. */
  function inWords(failure) {
    const { mode } = settings();
    return settingOfField(mode, failure.field) ? inPageWords(mode, failure.message)
      : failure.message;
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
      error(inWords(failure));
    }
  }

  function drawReport(report, set) {
    // The stability figure beside the four when it was measured (not a sweep's metric).
    const shown = report.stability === null ? FIGURES : [...FIGURES, STABILITY];
    $('tune-figures').replaceChildren(...shown.map(([key, label]) => el('div', {
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
    const { mode, values } = settings();
    if (!GRID[mode]) return error(options); // transcripts: the message says why
    const [[rowName, rowLabel], [columnName, columnLabel]] = GRID[mode];
    // Each grid's values are checked as their field checks them, whatever else is wrong.
    const rows = grid('tune-rows', mode, rowName, rowLabel);
    const columns = grid('tune-columns', mode, columnName, columnLabel);
    if (typeof options === 'string') return error(options);
    if (!rows || !columns) return error('');
    let set;
    try {
      set = await currentSet();
    } catch (failure) {
      return error(failure.message);
    }
    error('');
    const { [rowName]: _row, [columnName]: _column, ...fixed } = options;
    const metric = $('tune-metric').value;
    const metricLabel = $('tune-metric').selectedOptions[0].textContent;
    const heat = createHeatMap($('tune-heat'), { rows, columns, rowLabel, columnLabel,
      caption: `${metricLabel} by ${rowLabel} (rows) and ${columnLabel} (columns)`, apply });
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
          if (cell.report) {
            // Why the settings make no sense, as their fields say it (all of it, in words).
            const reasons = noSense(mode, { ...values, ...cell.settings })
              .map(({ message }) => message);
            heat.done(cells.length - 1, { value: cell.report[metric],
              text: percent(cell.report[metric]), settings: cell.settings, reasons });
          } else {
            heat.refused(cells.length - 1, [inWords({ field: cell.field, message: cell.error })]);
          }
          status(`Sweep: ${done} of ${total} cells`);
        },
      });
      status(`Sweep done: ${cells.length} cells. Click a cell to use its settings.`);
    } catch (failure) {
      if (failure.name !== 'AbortError') error(inWords(failure));
      else status(`Stopped after ${cells.length} of ${rows.length * columns.length} cells.`);
    } finally {
      sweeping = null;
      $('tune-stop').disabled = true;
      $('tune-sweep').disabled = false;
      progress.hidden = true;
    }
    const best = bestCell(cells, metric);
    if (best >= 0) heat.markBest(best);
  }

  /** The values typed in the grid field `id` for setting `name` of `mode`, or null when its
   * field would refuse one of them (said at the grid field). */
  function grid(id, mode, name, label) {
    const least = settingsOf(mode).find((setting) => setting.name === name).min;
    const { values, problems } = gridValues($(id).value, label, least);
    fieldError(id, problems.join('\n'));
    return problems.length ? null : values;
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
        fieldError('tune-rows', '');
        fieldError('tune-columns', '');
        $('tune-rows').dataset.mode = mode;
      }
    },
  };
}

/**
 * The numbers of a comma list typed for `label`, a setting of at least `least`: `{values,
 * problems}`, each problem a sentence about one entry (as the setting's field says it), a
 * value given twice, or an empty list.
 */
function gridValues(list, label, least) {
  const entries = list.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (!entries.length) {
    return { values: [], problems: [`${label}: give at least one value, commas between.`] };
  }
  const problems = [];
  const given = new Set();
  const twice = new Set();
  const values = entries.map((entry) => {
    const value = Number(entry);
    const problem = Number.isNaN(value)
      ? `${label} must be a whole number, not ${JSON.stringify(entry)}.`
      : wholeNumberProblem(label, value, least);
    if (problem) problems.push(problem);
    else (given.has(value) ? twice : given).add(value);
    return value;
  });
  for (const value of twice) {
    problems.push(`${label} ${formatCount(value)} is given twice: each value is a row or column of its own.`);
  }
  return { values, problems };
}

/** The index of the cell best by `metric` (the first of equals), or -1 when none ran. */
function bestCell(cells, metric) {
  let best = -1;
  cells.forEach((cell, index) => {
    if (cell.report && (best < 0 || cell.report[metric] > cells[best].report[metric])) best = index;
  });
  return best;
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
