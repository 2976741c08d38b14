// chunker.js's evaluation of a chunking: `evaluate` and `sweep`, over the worker's
// `EvaluationSet` operations (chunker/bridge/evaluations.py). A set crosses once a call
// (once a sweep) and lives in the worker under an id until the call ends; a sweep runs one
// cell a call, so the page can stop it between cells and stays free while each runs.
// Offsets cross in Python's units (code points): converted here (chunker-utf16.js).

import { astralOf, toCodePoints, toUtf16 } from './chunker-utf16.js';

// The report's figures a sweep can rank its cells by (chunker.evaluation.METRICS).
const METRICS = ['recall', 'precision', 'iou', 'precisionOmega'];

/**
 * `{evaluate, sweep}` over the worker's `call`.
 *
 * @param {Function} call chunker-messages.js's `call`
 * @param {(options: object) => boolean} counts whether options ask for tokens (chunker.js)
 */
export function evaluationApi(call, counts) {
  let lastSet = 0; // the page names each set (ids count up), as it names its indexes

  /** Run `use(id, inUtf16)` with `set` kept in the worker under `id`, and free it after;
   * `inUtf16(report)` gives a report's spans in JavaScript indices of the set's corpora. */
  async function withSet(set, use) {
    const id = ++lastSet;
    const made = call('EvaluationSet.create', { set: id, data: inCodePoints(set) });
    try {
      await made;
      return await use(id, reportInUtf16(set));
    } finally {
      // Not made: nothing to free (the worker answers false).
      call('EvaluationSet.dispose', { set: id }).catch(() => {});
    }
  }

  // With a token budget, the worker loads its tokenizer first (chunker.js's `counts`).
  const evaluateIn = (id, options) =>
    call('EvaluationSet.evaluate', { set: id, options }, { tokens: counts(options) });

  /**
   * Cut every corpus of `set` as `options` say (`strategy`, `k`, and the chunker's own
   * options by the original's names), retrieve the top `k` chunks of each question with
   * BM25 and score them: Python's `EvaluationReport`, camelCase, spans as JavaScript indices.
   *
   * @param {{corpora: Object<string, string>, questions: {question: string, corpusId: string,
   *   references: [number, number][]}[]}} set
   * @param {object} [options]
   */
  function evaluate(set, options) {
    return withSet(set, async (id, inUtf16) => inUtf16((await evaluateIn(id, options)).report));
  }

  /**
   * `evaluate` on every cell of `grid` (an object of option name to values; the cells are
   * their product, the first name varying slowest), with `options`' other settings:
   * `{cells: [{settings, report, error, field, warning}], metric, best}`, as Python's
   * `sweep`. A cell the chunker refuses has its `error` (and `field`); settings that make
   * no sense are run and carry a `warning`. `onProgress({done, total, cell})` after each cell;
   * `signal` (an AbortSignal) stops the sweep between cells, rejecting with its reason.
   *
   * @param {object} set as for `evaluate`
   * @param {Object<string, any[]>} grid
   * @param {{metric?: string, onProgress?: Function, signal?: AbortSignal}} [options]
   */
  async function sweep(set, grid, options = {}) {
    const { metric = 'iou', onProgress, signal, ...fixed } = options ?? {};
    if (!METRICS.includes(metric)) {
      const known = METRICS.join(', ');
      const message = `unknown metric ${JSON.stringify(metric)} (must be one of ${known})`;
      throw Object.assign(new RangeError(message), { field: 'metric' });
    }
    const cellsSettings = product(grid);
    signal?.throwIfAborted();
    return withSet(set, async (id, inUtf16) => {
      const cells = [];
      for (const settings of cellsSettings) {
        signal?.throwIfAborted();
        const done = await cell(id, settings, fixed, inUtf16);
        cells.push(done);
        onProgress?.({ done: cells.length, total: cellsSettings.length, cell: done });
      }
      let best = null;
      cells.forEach((cell, index) => {
        if (cell.report && (best === null || cell.report[metric] > cells[best].report[metric])) {
          best = index;
        }
      });
      return { cells, metric, best };
    });
  }

  async function cell(id, settings, fixed, inUtf16) {
    try {
      const { report, warning } = await evaluateIn(id, { ...fixed, ...settings });
      const field = warning?.field ?? null;
      const message = warning?.message ?? null;
      return { settings, report: inUtf16(report), error: null, field, warning: message };
    } catch (error) {
      // Bad settings are the cell's answer; anything else (a closed worker) ends the sweep.
      if (!(error instanceof RangeError || error instanceof TypeError)) throw error;
      const field = error.field ?? null;
      return { settings, report: null, error: error.message, field, warning: null };
    }
  }

  return { evaluate, sweep };
}

/** The cells of `grid`: every combination of its values, the first name varying slowest. */
function product(grid) {
  if (grid === null || typeof grid !== 'object' || Array.isArray(grid)) {
    const message = `grid must be an object of option names to values, got ${String(grid)}`;
    throw Object.assign(new TypeError(message), { field: 'grid' });
  }
  let cells = [{}];
  for (const [name, values] of Object.entries(grid)) {
    if (!Array.isArray(values) || values.length === 0) {
      const message = `grid.${name} must be a non-empty array of values`;
      throw Object.assign(new TypeError(message), { field: 'grid' });
    }
    cells = cells.flatMap((cell) => values.map((value) => ({ ...cell, [name]: value })));
  }
  return cells;
}

/**
 * `set` with its questions' references in code points, as Python reads them. What is not
 * a pair of ints into a corpus text goes as it is, for Python to name what is wrong with it.
 */
function inCodePoints(set) {
  const corpora = set?.corpora;
  if (!Array.isArray(set?.questions) || corpora === null || typeof corpora !== 'object') {
    return set;
  }
  const questions = set.questions.map((question, row) => {
    const text = corpora[question?.corpusId];
    const references = question?.references;
    const pairs = Array.isArray(references) && references.every(isPair);
    if (typeof text !== 'string' || !pairs || !astralOf(text).length) return question;
    const where = `questions[${row}].references`;
    const offsets = toCodePoints(references.flat(), text, 'questions', where);
    return { ...question, references: references.map((_, k) => [offsets[2 * k], offsets[2 * k + 1]]) };
  });
  return { ...set, questions };
}

const isPair = (span) => Array.isArray(span) && span.length === 2 && span.every(Number.isInteger);

/** A function giving a report's retrieved spans in JavaScript indices of `set`'s corpora
 * (each corpus's characters outside the BMP found once a set: a sweep's cells share them). */
function reportInUtf16(set) {
  const astral = new Map();
  return (report) => {
    for (const question of report.questions) {
      for (const hit of question.retrieved) {
        const { corpusId } = hit;
        if (!astral.has(corpusId)) astral.set(corpusId, astralOf(set.corpora[corpusId]));
        [hit.start, hit.end] = toUtf16([hit.start, hit.end], astral.get(corpusId));
      }
    }
    return report;
  };
}
