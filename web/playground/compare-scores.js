// The Compare view's scores: both settings scored on the Tune view's questions, each as the
// Tune view scores its own (`api.evaluate` in the worker, Chroma's figures), drawn as a table
// of each figure for A and B and the change from A to B.

import { el } from './dom.js';
import { optionsOf } from './settings.js';
import { EVALUATED, FIGURES, percent } from './tune.js';

/**
 * The facade's evaluation options for a side's settings (`mode`, `values`, and `tokens`, the
 * facade's token options) with `k`, or a sentence saying why that side is not scored. An
 * applied token budget cuts the chunks scored; counting alone changes none.
 */
export function scoredOptions({ mode, values, tokens }, k) {
  const budget = tokens.maxTokens === undefined ? {} : tokens;
  if (mode === 'semantic') return { strategy: 'semantic', ...optionsOf(mode, values), k, ...budget };
  if (mode === 'engine' && EVALUATED.includes(values.strategy)) {
    return { ...optionsOf(mode, values), k, ...budget };
  }
  return mode === 'engine'
    ? 'Not scored: the engine\u2019s semantic strategy embeds with the page\u2019s demonstration function.'
    : 'Not scored: the questions are on documents, not transcripts.';
}

/**
 * Score sides `a` and `b` (each `{mode, values, tokens}`) on `set` with `k`: `{count, k, a,
 * b}`, each side its report, or `{problem}` saying why there is none.
 */
export async function scoreBoth(api, { set, k }, sides) {
  if (!(Number.isSafeInteger(k) && k >= 1)) {
    throw new Error('Chunks retrieved (k), in the Tune view, must be a whole number, at least 1.');
  }
  const scores = { count: set.questions.length, k };
  for (const name of ['a', 'b']) {
    const options = scoredOptions(sides[name], k);
    if (typeof options === 'string') {
      scores[name] = { problem: options };
      continue;
    }
    try {
      scores[name] = await api.evaluate(set, options);
    } catch (failure) {
      scores[name] = { problem: `Not scored: ${failure.message}` };
    }
  }
  return scores;
}

// A change in percentage points, signed: "+2.8", "−1.0" (a minus sign), "0.0".
function change(from, to) {
  const points = (100 * (to - from)).toFixed(1);
  if (Number(points) === 0) return '0.0';
  return points.startsWith('-') ? `\u2212${points.slice(1)}` : `+${points}`;
}

/** Draw `scores` (from `scoreBoth`) into `table`, and why a side has none into `notes`. */
export function drawScores(table, notes, { count, k, a, b }) {
  const figure = (report, key) => (report.problem ? '\u2014' : percent(report[key]));
  const rows = FIGURES.map(([key, label]) => el('tr', { dataset: { figure: key } },
    el('th', { scope: 'row' }, label),
    el('td', { dataset: { side: 'a' } }, figure(a, key)),
    el('td', { dataset: { side: 'b' } }, figure(b, key)),
    el('td', { dataset: { side: 'change' } },
      a.problem || b.problem ? '\u2014' : change(a[key], b[key]))));
  table.replaceChildren(
    el('caption', {}, `On ${count} question${count === 1 ? '' : 's'}, the ${k} best chunks `
      + 'each (the Tune view\u2019s); B \u2212 A in percentage points'),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Figure'),
      el('th', { scope: 'col' }, 'A'), el('th', { scope: 'col' }, 'B'),
      el('th', { scope: 'col' }, 'B \u2212 A'))),
    el('tbody', {}, ...rows));
  table.hidden = false;
  notes.replaceChildren(...[['A', a], ['B', b]].filter(([, report]) => report.problem)
    .map(([side, report]) => el('p', {}, `${side}: ${report.problem}`)));
}
