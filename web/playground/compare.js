// The Compare view: the shown document chunked with a second setting, B, beside the page's
// own, A. Both show as columns of the same text that scroll together, each with its cuts
// marked and the cuts only one side makes marked as such, with their counts and histograms
// and, on the Tune view's questions, both scores. B's form is the page's own settings form
// (controls.js, tokens.js) made a second time. A is the result the page has drawn; B runs in
// the worker through a scheduler of its own, the newest request winning, so a slider dragged
// on either side never queues up runs.

import { onTokenizerProgress } from './boot.js';
import { runChunker } from './chunkers.js';
import { readComparison, writeComparison } from './compare-link.js';
import { drawScores, scoreBoth } from './compare-scores.js';
import { createControls } from './controls.js';
import { compareCuts, cutsOf } from './cuts.js';
import { createDocumentView } from './document-view.js';
import { el } from './dom.js';
import { countOf, formatCount } from './format.js';
import { createHistogram } from './histogram.js';
import { createScheduler } from './scheduler.js';
import { inPageWords, noSense, refusals, settingOfField, settingsOf, tooManyChunks }
  from './settings.js';
import { sizeMarkers } from './size-markers.js';
import { renderStats, summarize } from './stats.js';
import { createTokenPanel, isTokenField, tokenOptions } from './tokens.js';

const $ = (id) => document.getElementById(id);

// The modes whose chunks have spans in a text, which is what is compared (a transcript's
// passages are placed by turn, not by offset).
const COMPARED = ['semantic', 'engine'];
const MODE_NAMES = { semantic: 'Semantic chunker', engine: 'Chunking engine',
  turns: 'Transcripts' };
const NARROW = matchMedia('(max-width: 959px)');

/**
 * Wire the Compare view, in `#compare`. `search` is the page's query (a comparison in it is
 * opened at once); `first()` answers the page's settings `{mode, values, tokens}` (the token
 * panel's values), which B starts as a copy of; `questions()` the Tune view's `{set, k}`;
 * `onChange()` is called when B changes, for the page's address.
 */
export function createCompare({ search, first, questions, onChange }) {
  const root = $('compare');
  const toggle = $('compare-toggle');
  const body = $('compare-body');
  const linked = readComparison(search);
  // B: its mode, its settings by name and its token panel's values, as the page holds its own.
  const b = linked ?? { mode: 'semantic', values: {}, tokens: {} };
  if (!COMPARED.includes(b.mode)) b.mode = 'semantic'; // a link's `b.mode=turns`
  let api = null;
  let on = false;
  let form = null; // B's settings form, made when first shown
  let shownA = null; // A as the page last drew it: {text, mode, values, tokens, chunks}
  let differences = [];
  let current = -1; // the difference gone to last
  let runs = 0;

  const modeBox = el('div', { className: 'modes', attrs: { role: 'radiogroup',
    'aria-labelledby': 'compare-b-settings-heading' } });
  const controlsBox = el('div');
  const tokensBox = el('div');
  const bError = el('p', { className: 'field-error', id: 'compare-error',
    attrs: { role: 'alert' } });
  const unavailable = el('p', { className: 'note', id: 'compare-unavailable', hidden: true });
  const sides = { a: createSide('a', 'A: the page\u2019s settings'),
    b: createSide('b', 'B: the second settings') };
  const previous = el('button', { type: 'button', id: 'compare-previous', disabled: true },
    'Previous difference');
  const next = el('button', { type: 'button', id: 'compare-next', disabled: true },
    'Next difference');
  const at = el('p', { className: 'compare-at', id: 'compare-at',
    attrs: { role: 'status', 'aria-live': 'polite' } });
  const scoreBox = el('input', { type: 'checkbox', id: 'compare-score',
    attrs: { 'aria-describedby': 'compare-score-help' } });
  const scoreTable = el('table', { className: 'compare-scores', id: 'compare-scores',
    hidden: true });
  const scoreNotes = el('div', { className: 'compare-score-notes', id: 'compare-score-notes',
    attrs: { 'aria-live': 'polite' } });
  const results = el('div', { className: 'compare-results' },
    el('div', { className: 'compare-nav' }, previous, next, at),
    el('p', { className: 'help legend' },
      el('span', {}, el('span', { className: 'swatch swatch-cut', attrs: { 'aria-hidden': 'true' } }),
        'a cut both make'),
      el('span', {}, el('span', { className: 'swatch swatch-cut-only',
        attrs: { 'aria-hidden': 'true' } }), 'a cut only this side makes'),
      el('span', {}, 'The columns scroll together; click a chunk for its place.')),
    el('div', { className: 'compare-sides' }, sides.a.node, sides.b.node),
    el('div', { className: 'compare-scoring' },
      el('label', {}, scoreBox, ' Score both on the Tune view\u2019s questions'),
      el('p', { className: 'help', id: 'compare-score-help' }, 'Each side scored as the Tune '
        + 'view scores its settings, on its questions and k, again with every change.'),
      scoreTable, scoreNotes));
  body.append(
    el('section', { className: 'compare-settings settings',
      attrs: { 'aria-labelledby': 'compare-b-settings-heading' } },
    el('h3', { id: 'compare-b-settings-heading' }, 'B\u2019s settings'),
    el('p', { className: 'help' }, 'The page\u2019s own settings (their help is by A\u2019s '
      + 'fields), starting as a copy of A\u2019s: change one to see what it changes.'),
    modeBox, controlsBox, tokensBox, bError),
    el('div', { className: 'compare-main' }, unavailable, results));

  const scheduler = createScheduler(work, { onResult: drawPair, onError: showError,
    onBusy: (busy) => { root.dataset.busy = busy; } });
  root.dataset.busy = 'false';

  toggle.addEventListener('click', () => setOn(!on));
  previous.addEventListener('click', () => goTo(current - 1));
  next.addEventListener('click', () => goTo(current + 1));
  scoreBox.addEventListener('change', () => {
    if (!scoreBox.checked) {
      scoreTable.hidden = true;
      scoreNotes.replaceChildren();
    }
    request();
  });
  keepScrolledTogether(sides.a.documentBox, sides.b.documentBox);
  if (linked) show(true); // the page's address holds it already

  function setOn(value) {
    show(value);
    onChange();
    if (on) request();
    else scheduler.cancel();
  }

  function show(value) {
    on = value;
    toggle.setAttribute('aria-expanded', String(on));
    toggle.textContent = on ? 'Stop comparing' : 'Compare with a second setting';
    body.hidden = !on;
    if (on && !form) form = makeForm();
  }

  /** B's form, from B's values: a copy of A's unless a link gave them. */
  function makeForm() {
    if (!linked) {
      const a = first();
      b.mode = COMPARED.includes(a.mode) ? a.mode : 'semantic';
      Object.assign(b.values, a.values);
      Object.assign(b.tokens, a.tokens);
    }
    modeBox.append(...COMPARED.map((mode) => {
      const radio = el('input', { type: 'radio', name: 'compare-mode', value: mode,
        checked: mode === b.mode });
      radio.addEventListener('change', () => {
        b.mode = mode;
        controls.showMode(mode);
        changed();
      });
      return el('label', {}, radio, ` ${MODE_NAMES[mode]}`);
    }));
    const controls = createControls(controlsBox, { values: b.values, onChange: changed,
      prefix: 'compare-' });
    controls.showMode(b.mode);
    const tokens = createTokenPanel(tokensBox, { values: b.tokens, unitSelect: null,
      prefix: 'compare-', onChange: (what) => (what === 'run' ? changed() : onChange()) });
    onTokenizerProgress(tokens.loading);
    return { controls, tokens };
  }

  function changed() {
    onChange();
    request();
  }

  /** Ask for B to be chunked again, on A's text, when the settings can run. */
  function request() {
    if (!on || !api || !shownA) return;
    const comparable = COMPARED.includes(shownA.mode);
    unavailable.hidden = comparable;
    results.hidden = !comparable;
    if (!comparable) {
      unavailable.textContent = 'Compare cuts a document: choose the Semantic chunker or the '
        + 'Chunking engine for A, the page\u2019s settings (Transcripts place passages by turn).';
      scheduler.cancel();
      return;
    }
    const { refused, warnings } = check(shownA.text.length);
    if (refused) {
      // A run still going for B's settings before must not come back as if it were for these.
      scheduler.cancel();
      markStale();
      return;
    }
    scheduler.request({ a: shownA, text: shownA.text, warnings, score: scoreBox.checked,
      b: { mode: b.mode, values: { ...b.values }, tokens: tokenOptions(b.tokens) } });
  }

  /** What the page says of B's values before they are sent, at B's fields, as for A's. */
  function check(length) {
    const { controls, tokens } = form;
    controls.clearErrors();
    const refused = refusals(b.mode, b.values);
    const tooMany = refused.length ? null : tooManyChunks(b.mode, b.values, length);
    if (tooMany) refused.push(tooMany);
    const warnings = refused.length ? [] : noSense(b.mode, b.values);
    for (const { name, message } of [...refused, ...warnings]) controls.setError(name, message);
    const noBudget = tokens.check();
    return { refused: refused.length > 0 || Boolean(noBudget), warnings };
  }

  async function work(job) {
    const result = await runChunker(api, job.b.mode, job.b.values, job.text, job.b.tokens);
    let scores = null;
    if (job.score) {
      try {
        scores = await scoreBoth(api, await questions(), { a: job.a, b: job.b });
      } catch (failure) {
        scores = { failure: failure.message };
      }
    }
    return { result, scores };
  }

  function clearErrors(job) {
    form.controls.clearErrors();
    for (const { name, message } of job.warnings) form.controls.setError(name, message);
    form.tokens.clearErrors();
    form.tokens.check();
    bError.textContent = '';
  }

  function drawPair({ result, scores }, job) {
    clearErrors(job);
    root.classList.remove('stale');
    const compared = compareCuts(cutsOf(job.a.chunks), cutsOf(result.chunks));
    sides.a.show(job.text, job.a, job.a.chunks, compared.a, job.b);
    sides.b.show(job.text, job.b, result.chunks, compared.b, job.a);
    differences = compared.differences;
    current = -1;
    sides.a.view.goToCut(-1);
    sides.b.view.goToCut(-1);
    showPlace();
    const only = (side) => differences.filter((difference) => difference.side === side).length;
    const both = compared.a.size - only('a');
    $('compare-status').textContent = `A: ${countOf(job.a.chunks.length, 'chunk')}, `
      + `B: ${countOf(result.chunks.length, 'chunk')}. Cuts: ${formatCount(both)} in both, `
      + `${formatCount(only('a'))} only in A, ${formatCount(only('b'))} only in B.`;
    if (scores?.failure) {
      scoreTable.hidden = true;
      scoreNotes.replaceChildren(el('p', { className: 'field-error' }, scores.failure));
    } else if (scores) {
      drawScores(scoreTable, scoreNotes, scores);
    }
    runs += 1;
    root.dataset.runs = runs;
    // A link that holds a comparison opens on it: a wide screen shows it below the rest.
    if (linked && runs === 1 && !NARROW.matches) root.scrollIntoView({ block: 'start' });
  }

  /** Report a failed run of B at B's field it is about; the last good pair stays. */
  function showError(error, job) {
    clearErrors(job);
    const setting = settingOfField(job.b.mode, error.field);
    if (isTokenField(error.field)) {
      form.tokens.setError(error.field, form.tokens.inPageWords(error.field, error.message));
    } else if (setting) {
      form.controls.setError(setting.name, inPageWords(job.b.mode, error.message));
    } else {
      bError.textContent = `B could not be chunked: ${error.message}`;
    }
    markStale();
  }

  function markStale() {
    if (!runs) return;
    root.classList.add('stale');
    $('compare-status').textContent = 'Showing the last good comparison: see the message by '
      + 'the field.';
  }

  /** Go to difference `index`: the side that makes the cut shows it, the other follows. */
  function goTo(index) {
    if (index < 0 || index >= differences.length) return;
    current = index;
    const { at: offset, side } = differences[index];
    const other = side === 'a' ? 'b' : 'a';
    sides[other].view.goToCut(-1);
    sides[side].view.goToCut(offset);
    sides[side].documentBox.scrollIntoView({ block: 'nearest' });
    showPlace();
  }

  function showPlace() {
    previous.disabled = current <= 0;
    next.disabled = current >= differences.length - 1;
    if (!differences.length) {
      at.textContent = 'A and B cut this text at the same places.';
    } else if (current < 0) {
      at.textContent = `${countOf(differences.length, 'cut')} only one side makes: `
        + 'Next difference goes to the first.';
    } else {
      const { at: offset, side } = differences[current];
      at.textContent = `Difference ${formatCount(current + 1)} of `
        + `${formatCount(differences.length)}: at character ${formatCount(offset)}, a cut `
        + `only ${side.toUpperCase()} makes.`;
    }
  }

  return {
    /** Whether the page opened on a comparison (its link held one). */
    fromLink: Boolean(linked),
    setApi(ready) {
      api = ready;
      request();
    },
    /** A, as the page has drawn it: `{text, mode, values, tokens, chunks}`, `tokens` the
     * facade's token options it ran with. */
    showFirst(a) {
      shownA = a;
      sides.a.stale(false);
      request();
    },
    /** The page's settings were changed to ones it refuses: A's last result stays. */
    firstStale() {
      sides.a.stale(true);
    },
    /** Add the comparison, when one is shown, to `params` (the page's query). */
    writeQuery(params) {
      if (on) writeComparison(params, b);
    },
  };
}

/**
 * One side's column: its settings in words, its statistics and histogram, the text with its
 * chunks and cuts, and what a click on a chunk picked.
 */
function createSide(name, title) {
  const id = (part) => `compare-${name}-${part}`;
  const heading = el('h3', { id: id('heading') }, title);
  const said = el('p', { className: 'compare-said', id: id('settings') });
  const note = el('p', { className: 'field-note', id: id('note') });
  const stats = el('dl', { className: 'stats', id: id('stats') });
  const chart = el('div', { id: id('histogram') });
  const documentBox = el('div', { className: 'document compare-document', id: id('document'),
    tabIndex: 0, attrs: { 'aria-labelledby': id('heading') } });
  const picked = el('p', { className: 'compare-picked', id: id('picked'),
    attrs: { 'aria-live': 'polite' } });
  const node = el('section', { className: 'compare-side', dataset: { side: name },
    attrs: { 'aria-labelledby': id('heading') } },
  heading, said, note,
  el('div', { className: 'summary' }, stats,
    el('figure', { className: 'histogram' }, chart,
      el('figcaption', { className: 'muted' }, 'Chunk lengths in characters'))),
  documentBox, picked);
  const histogram = createHistogram(chart);
  let chunks = [];
  const view = createDocumentView(documentBox, { onSelect: (index) => {
    view.select(index);
    const chunk = chunks[index];
    picked.textContent = `${name.toUpperCase()}: chunk ${chunk.index} \u00b7 ${chunk.type} \u00b7 `
      + `${formatCount(chunk.length)} characters \u00b7 `
      + `${formatCount(chunk.start)}\u2013${formatCount(chunk.end)}`;
  } });

  return {
    node,
    documentBox,
    view,
    /** Show `sideChunks` of `text`, cut at `cuts`, for `settings`, beside `other`'s. */
    show(text, settings, sideChunks, cuts, other) {
      chunks = sideChunks;
      said.replaceChildren(...settingsInWords(settings, other));
      const lengths = chunks.map((chunk) => chunk.length);
      const summary = summarize(lengths);
      renderStats(stats, summary, 'chunks');
      histogram.render(lengths, summary, sizeMarkers(settings.mode, settings.values));
      view.show(text, chunks, cuts);
      picked.textContent = '';
    },
    stale(isStale) {
      note.textContent = isStale ? 'The page\u2019s settings are ones it refuses: A shows '
        + 'their last good result.' : '';
    },
  };
}

/**
 * A side's settings in words, `settings` being `{mode, values, tokens}` (the facade's token
 * options): its chunker, each setting, its tokenizer and budget; what differs from `other`'s
 * in bold.
 */
function settingsInWords(settings, other) {
  const words = [[MODE_NAMES[settings.mode], settings.mode !== other.mode]];
  for (const setting of settingsOf(settings.mode)) {
    const value = settings.values[setting.name];
    const shown = setting.kind === 'bool' ? (value ? 'yes' : 'no')
      : setting.kind === 'int' ? formatCount(value) : value;
    words.push([`${setting.label.toLowerCase()} ${shown}`,
      other.mode === settings.mode && other.values[setting.name] !== value]);
  }
  const { tokenizer, maxTokens } = settings.tokens;
  const tokens = tokenizer === undefined ? 'no tokenizer'
    : maxTokens === undefined ? `tokens counted with ${tokenizer}`
      : `a budget of ${formatCount(maxTokens)} ${tokenizer} tokens applied`;
  words.push([tokens, JSON.stringify(settings.tokens) !== JSON.stringify(other.tokens)]);
  return words.flatMap(([text, differs], index) => [index ? ' \u00b7 ' : '',
    differs ? el('strong', {}, text) : text]).filter(Boolean);
}

/**
 * Keep two scrolling boxes of the same text, laid out alike, at the same place: a scroll of
 * either scrolls the other, whose own scroll event then finds nothing left to do.
 */
function keepScrolledTogether(one, other) {
  for (const [from, to] of [[one, other], [other, one]]) {
    from.addEventListener('scroll', () => {
      if (Math.abs(to.scrollTop - from.scrollTop) >= 1) to.scrollTop = from.scrollTop;
    }, { passive: true });
  }
}
