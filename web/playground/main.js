// The playground: loads the facade, and wires the input, the settings and the views together.
// Each piece lives in its own module; this one holds the page's state and the order of events.

import { loading, onTokenizerProgress } from './boot.js';
import { createChunkList } from './chunk-list.js';
import { runChunker } from './chunkers.js';
import { createCompare } from './compare.js';
import { sizeMarkers } from './size-markers.js';
import { createControls } from './controls.js';
import { createDocumentView } from './document-view.js';
import { download, exportName } from './export.js';
import { acceptFiles } from './files.js';
import { countOf, firstWords, formatCount, formatMs, tokensText } from './format.js';
import { createHistogram } from './histogram.js';
import { createInput } from './input.js';
import { lineEndingsNote } from './line-endings.js';
import { createLiveText } from './live-text.js';
import { LINK_LIMIT, carriesWork, linkWith, readLink } from './link.js';
import { createScheduler } from './scheduler.js';
import { createSearch } from './search.js';
import { MODE_INPUT, inPageWords, noSense, optionsOf, readQuery, refusals, settingOfField,
  tooManyChunks, writeQuery } from './settings.js';
import { javascriptSnippet, pythonSnippet, textFrom } from './snippets.js';
import { createSources, isSample } from './sources.js';
import { renderStats, summarize } from './stats.js';
import { createTokenPanel, flaggedBudget, isBudget, isTokenField, readTokenQuery, tokenOptions,
  writeTokenQuery } from './tokens.js';
import { createTranscriptView } from './transcript-view.js';
import { createTune } from './tune.js';
import { createViewTabs } from './view-tabs.js';
import { TranscriptJsonError } from './turns-json.js';
import { keepWork, takeWork, workOfPage } from './work.js';

const $ = (id) => document.getElementById(id);

const initial = readQuery(location.search);
const sources = createSources();
const state = {
  api: null,
  mode: initial.mode,
  values: initial.values,
  // The token panel's: tokenizer, budget, whether it is applied, the histogram's unit.
  tokens: readTokenQuery(location.search),
  // The source shown for each kind of input, so that a mode switch comes back to it.
  // After a reload, what was shown before (a sample in the link still wins, below).
  shown: { document: sources.shownBefore('document') ?? 'guide',
    transcript: sources.shownBefore('transcript') ?? 'meeting' },
  documentMode: initial.mode === 'turns' ? 'semantic' : initial.mode,
  result: null,
  selected: -1,
  runs: 0,
};
if (initial.sample && sources.has(initial.sample) && sources.get(initial.sample).sample) {
  state.shown[sources.get(initial.sample).kind] = initial.sample;
}
// A link's text (see link.js) is shown as a source of its own, and its work (the search, the
// Tune view) as if typed here; both are taken out of the address.
let linkProblem = '';
if (carriesWork(location.hash)) {
  try {
    const { text, work } = await readLink(location.hash);
    const kind = MODE_INPUT[initial.mode];
    if (text !== null) {
      state.shown[kind] = sources.addLinked(kind, text);
      sources.keep(sources.get(state.shown[kind]));
    }
    takeWork(work);
  } catch (error) {
    linkProblem = error.message;  // link.js says it in the page's words
  }
  history.replaceState(null, '', location.pathname + location.search);
}
const current = () => sources.get(state.shown[MODE_INPUT[state.mode]]);
// An edit waits for a pause in typing before it is kept for a reload (see textEdited).
let editTimer = 0;
let unkept = null;  // the source edited since its text was last kept

const controls = createControls($('settings'), { values: state.values, onChange: rerun });
const tokenPanel = createTokenPanel($('tokens'), { values: state.tokens,
  unitSelect: $('histogram-unit'), onChange: tokensChanged });
onTokenizerProgress(tokenPanel.loading);
const input = createInput({ select: $('source'), textarea: $('text'), label: $('text-label'),
  sources, onPick: showSource, onEdit: textEdited });
const documentView = createDocumentView($('document'), { onSelect: (i) => select(i, 'document') });
const transcriptView = createTranscriptView($('transcript'), {
  onSelect: (i) => select(i, 'document') });
const list = createChunkList($('chunk-list'), { onSelect: (i) => select(i, 'list') });
const histogram = createHistogram($('histogram'));
const search = createSearch({ input: $('query'), matchAll: $('query-all'),
  prefix: $('query-prefix'), tokensOut: $('query-tokens'), countOut: $('search-count'),
  resultsOut: $('search-results'), onSelect: showHit });
const tune = createTune({
  settings: () => ({ mode: state.mode, values: state.values, tokens: tokenOptions(state.tokens) }),
  document: () => ({ name: current().name, text: current().text }),
  textarea: $('text'),
  apply: applySettings,
});
const compare = createCompare({
  search: location.search,
  first: () => ({ mode: state.mode, values: state.values, tokens: state.tokens }),
  questions: () => tune.questions(),
  onChange: updateUrl,
});
const scheduler = createScheduler(
  async (job) => {
    const result = await runChunker(state.api, job.mode, job.values, job.text, job.tokens);
    job.answered = performance.now();  // the rest of the run is the redraw's
    return result;
  },
  { onResult: draw, onError: showError, onBusy: (busy) => { document.body.dataset.busy = busy; } },
);

const viewTabs = createViewTabs(document.querySelector('.view-tabs [role="tablist"]'));
input.refresh();
for (const radio of document.querySelectorAll('input[name="mode"]')) {
  radio.addEventListener('change', () => setMode(radio.value));
}
acceptFiles({ picker: $('file-input'), page: document.documentElement,
  onFile: openFile, onError: (message) => { $('file-error').textContent = message; } });
wireExport();
showMode();
keepWork();  // the search and the Tune view as they were before a reload, or in the link
// Said under the text (the text's errors go when a result comes), until the text is edited.
showSource(current().id).then(() => {
  if (linkProblem) $('text-kept').textContent = linkProblem;
});

window.chunkerReady.then((api) => {
  state.api = api;
  search.setApi(api);
  tune.setApi(api);
  compare.setApi(api);
  // Milliseconds from navigation to ready, for the benchmark to read.
  document.body.dataset.readyMs = Math.round(loading.ready());
  $('app').disabled = false;
  rerun();
}, (error) => {
  loading.failed(error);
  console.error(error);
});
// A link that holds a comparison opens on it (on a narrow screen, its tab).
if (compare.fromLink) $('tab-compare').click();

// --- input -------------------------------------------------------------------------------

function setMode(mode) {
  state.mode = mode;
  if (MODE_INPUT[mode] === 'document') state.documentMode = mode;
  showMode();
  showSource(current().id);
}

function showMode() {
  for (const radio of document.querySelectorAll('input[name="mode"]')) {
    radio.checked = radio.value === state.mode;
  }
  controls.showMode(state.mode);
  tune.showMode(state.mode);
  $('document').hidden = state.mode === 'turns';
  $('transcript').hidden = state.mode !== 'turns';
}

/** Show source `id`, switching to a mode that reads its kind of text if need be. */
async function showSource(id) {
  // An edit not kept yet is kept now: its pause would end with another text shown.
  if (unkept) {
    clearTimeout(editTimer);
    keepEdits();
  }
  const kind = sources.get(id).kind;
  state.shown[kind] = id;
  sources.remember(id);
  if (MODE_INPUT[state.mode] !== kind) {
    state.mode = kind === 'transcript' ? 'turns' : state.documentMode;
    showMode();
  }
  let source;
  try {
    source = await sources.load(id);
  } catch (error) {
    $('text-error').textContent = `The sample could not be loaded: ${error.message}`;
    return;
  }
  if (state.shown[kind] !== id || MODE_INPUT[state.mode] !== kind) return;  // overtaken
  input.show(source);
  $('text-converted').textContent = lineEndingsNote(source);
  $('text-kept').textContent = NOT_KEPT[source.kept ?? 'kept'];
  $('text-error').textContent = '';
  rerun();
}

function openFile(name, text) {
  const id = sources.addFile(name, text);
  keepText(sources.get(id));
  input.refresh();
  showSource(id);
}

// What the page says under a text it could not keep for a reload, by why.
const NOT_KEPT = {
  kept: '',
  full: 'The browser has no room left to keep this text across a reload (a few MB a tab); '
    + 'it stays here while the page is open.',
  refused: 'This browser does not let the page keep text across a reload; it stays here '
    + 'while the page is open.',
};

/** Keep `source`'s text for a reload, and say so on the page when the browser refuses. */
function keepText(source) {
  $('text-kept').textContent = NOT_KEPT[sources.keep(source)];
}

// An edit of a document, once a result is shown, is chunked at once through the page's
// LiveDocument (live-text.js): the worker re-cuts only what the edit reaches, and the views
// and the search's index change only there. Otherwise (a transcript, the engine's `semantic`,
// no result yet) it is read and chunked whole after a pause in typing: each copies the whole
// text, and a redraw of a large one holds the page longer than a key may wait. The bigger the
// text, the longer the pause it waits for (a person types a key every 100 to 300 ms); the
// length is the one last read, as reading it would cost what the pause saves. Either way the
// text is kept for a reload after the pause.
const pauseBefore = (length) => (length > 5e5 ? 700 : length > 1e5 ? 300 : 50);
function textEdited(edited) {
  const source = edited.sample ? yoursInstead(edited) : edited;
  unkept = source;
  clearTimeout(editTimer);
  if (goesLive()) {
    liveEdit();
    editTimer = setTimeout(keepEdits, pauseBefore(source.text.length));
    return;
  }
  editTimer = setTimeout(() => {
    keepEdits();
    rerun();
  }, pauseBefore(source.text.length));
}

const liveText = createLiveText();
let liveBusy = false;
let liveAgain = false;  // edited while an edit was on its way: read the text again after it

/** Whether an edit now goes through the LiveDocument: a document's result on screen, for
 * settings the page takes and a chunker that one can keep. */
function goesLive() {
  const { result } = state;
  return Boolean(state.api && result && result.mode === state.mode
    && MODE_INPUT[state.mode] === 'document' && liveText.can(state.mode, state.values)
    && !$('results').classList.contains('stale')
    && JSON.stringify(result.values) === JSON.stringify(state.values)
    && JSON.stringify(result.tokens) === JSON.stringify(tokenOptions(state.tokens)));
}

async function liveEdit() {
  if (liveBusy) {
    liveAgain = true;
    return;
  }
  liveBusy = true;
  try {
    do {
      liveAgain = false;
      const started = performance.now();
      input.read();
      const source = current();
      // A run for the text or the settings before must not draw over this.
      scheduler.cancel();
      const job = { mode: state.mode, values: { ...state.values }, text: source.text,
        tokens: tokenOptions(state.tokens), source, warnings: noSense(state.mode, state.values),
        started };
      const result = await liveText.apply(state.api, job.mode, job.values, job.tokens, job.text,
        state.result);
      job.answered = performance.now();
      const { from, to, length } = result.edit;
      documentView.edit(from, to, length, job.text);
      draw({ mode: job.mode, raw: result.raw, chunks: result.chunks }, job, result);
      // The page's own work for the edit, the worker's time and the waits left out; the
      // benchmark reads it (tests/bench/live_page.py).
      document.body.dataset.lastLiveWorkMs = (performance.now() - started - result.waited)
        .toFixed(1);
    } while (liveAgain);
  } catch (error) {
    // Cut whole instead: the run says at its field what was wrong.
    liveText.drop();
    console.error(error);
    rerun();
  } finally {
    liveBusy = false;
  }
}

/**
 * A sample is never edited: the text box's text, the sample edited, becomes the user's own
 * text (see sources.yours), shown in the sample's place; the sample stays as it came.
 */
function yoursInstead(sample) {
  const yours = sources.yours(sample.kind);
  if (!document.querySelector(`#source option[value="${yours.id}"]`)) input.refresh();
  input.adopt(yours);
  state.shown[yours.kind] = yours.id;
  sources.remember(yours.id);
  return yours;
}

function keepEdits() {
  input.read();
  if (unkept) keepText(unkept);
  unkept = null;
}
// Nothing typed is lost to a reload or a closed tab that came before the pause.
addEventListener('pagehide', keepEdits);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') keepEdits();
});

// --- running -----------------------------------------------------------------------------

/** Use the settings of a Tune heat map cell (setting name to value), as if typed in. */
function applySettings(changed) {
  Object.assign(state.values, changed);
  controls.setValues(changed);
  rerun();
}

/** The query of a link that reproduces the settings (and the sample, when one is shown). */
function shareQuery() {
  const source = current();
  const params = new URLSearchParams(writeQuery({ mode: state.mode, values: state.values,
    sample: isSample(source) ? source.id : null }));
  writeTokenQuery(params, state.tokens);
  compare.writeQuery(params);
  return `?${params}`;
}

let urlTimer = 0;
function updateUrl() {
  // Chromium throttles history updates made on every slider step, so they wait for a pause.
  clearTimeout(urlTimer);
  urlTimer = setTimeout(() => history.replaceState(null, '', shareQuery()), 250);
}

/** The token panel changed: the chunks, or only their flags or the histogram's unit. */
function tokensChanged(what) {
  if (what === 'run') return rerun();
  updateUrl();
  updateCode(current());
  if (what === 'flags') tokenPanel.check();
  if (state.result) drawCounted();
  return undefined;
}

function rerun() {
  input.read();
  const source = current();
  updateCode(source);
  updateUrl();
  if (!state.api || source.text === null) return;
  // Each field's own check, then what the values would cut, then the settings at odds.
  controls.clearErrors();
  const refused = refusals(state.mode, state.values);
  const tooMany = refused.length ? null
    : tooManyChunks(state.mode, state.values, source.text.length);
  if (tooMany) refused.push(tooMany);
  const warnings = refused.length ? [] : noSense(state.mode, state.values);
  for (const { name, message } of [...refused, ...warnings]) controls.setError(name, message);
  const noBudget = tokenPanel.check();
  if (refused.length || noBudget) {
    // A run still going for the settings before must not come back as if it were for these.
    scheduler.cancel();
    return markStale();
  }
  scheduler.request({ mode: state.mode, values: { ...state.values }, text: source.text,
    tokens: tokenOptions(state.tokens), source, warnings, started: performance.now() });
}

/** Clear the errors at the fields, keeping the warnings of `job`'s settings. */
function clearErrors(job) {
  controls.clearErrors();
  for (const { name, message } of job.warnings) controls.setError(name, message);
  tokenPanel.clearErrors();
  tokenPanel.check(); // what the page itself says of the budget stays
}

/** Draw `result`, the chunks of `job`; `edited`, when a LiveDocument's edit made them, holds
 * the chunks it `removed` and `added`, which alone the search's index changes by. */
function draw(result, job, edited = null) {
  clearErrors(job);
  $('text-error').textContent = '';
  $('run-error').textContent = '';
  $('results').classList.remove('stale');
  const counted = job.tokens.tokenizer !== undefined;
  state.result = { ...result, source: job.source, text: job.text, values: job.values,
    tokens: job.tokens, counted };
  const { chunks } = result;
  const noun = result.mode === 'turns' ? 'passage' : 'chunk';
  drawCounted(edited?.changed);
  if (edited) search.editChunks(chunks, edited.removed, edited.added);
  else search.setChunks(chunks);
  select(state.selected < chunks.length ? state.selected : -1, 'run');
  // From the edit to the redrawn result, and the redraw's part of it (the rest is the
  // worker's call); tests and the benchmark read these.
  const now = performance.now();
  const took = Math.round(now - job.started);
  state.runs += 1;
  document.body.dataset.runs = state.runs;
  document.body.dataset.lastRunMs = took;
  document.body.dataset.lastDrawMs = (now - job.answered).toFixed(1);
  state.result.status = `${countOf(chunks.length, noun)} in ${formatCount(took)} ms`;
  showStatus();
  compare.showFirst({ text: job.text, mode: job.mode, values: job.values, tokens: job.tokens,
    chunks });
}

/**
 * Draw what follows from the chunks and the token panel: the flags of the chunks over the
 * budget (when it is shown and not applied), the statistics and the histogram in the unit
 * chosen, and the views. Called by a result, and by a change of the budget or the unit alone,
 * which needs no new run. `changed`: the indices of the chunks an edit made or moved out of
 * line (live-text.js), the others as they were or moved together; null for any other.
 */
function drawCounted(changed = null) {
  const { chunks, mode, text, turns, values, counted } = state.result;
  const budget = counted ? flaggedBudget(state.tokens) : null;
  let over = 0;
  for (const chunk of chunks) {
    chunk.over = budget !== null && chunk.tokens > budget;
    if (chunk.over) over += 1;
  }
  state.result.over = budget === null ? null : { count: over, budget };
  const inTokens = counted && state.tokens.unit === 'tokens';
  const lengths = chunks.map((chunk) => (inTokens ? chunk.tokens : chunk.length));
  const stats = summarize(lengths);
  const noun = mode === 'turns' ? 'passage' : 'chunk';
  renderStats($('stats'), stats, `${noun}s`,
    budget === null ? [] : [['over budget', over, 'over']]);
  const marked = inTokens ? tokenMarkers() : sizeMarkers(mode, values);
  histogram.render(lengths, stats, marked, inTokens ? 'tokens' : 'characters');
  if (mode === 'turns') transcriptView.show(turns, chunks);
  else documentView.show(text, chunks, null, changed);
  list.show(chunks, describe(mode, budget));
  if (state.result.status) showStatus();
}

/** The run's status, and how many chunks are over the budget shown. */
function showStatus() {
  const { status, over } = state.result;
  $('run-status').textContent = over
    ? `${status}; ${formatCount(over.count)} over the budget of ${tokensText(over.budget)}`
    : status;
}

function tokenMarkers() {
  const { budget } = state.tokens;
  return isBudget(budget) ? [{ label: 'budget', value: budget }] : [];
}

/** What a row says of a chunk's size: its characters, and its tokens when counted. */
const sizeOf = (length, tokens) => `${formatCount(length)} chars`
  + (tokens == null ? '' : ` · ${tokensText(tokens)}`);

function describe(mode, budget) {
  const flag = (over) => (over ? `over ${formatCount(budget)}` : '');
  if (mode === 'turns') {
    return ({ index, length, passage, tokens, over }) => ({
      title: `${index} · seq ${passage.firstSeq}–${passage.lastSeq}`,
      heading: '',
      size: sizeOf(length, tokens),
      flag: flag(over),
      range: passage.startMs != null || passage.endMs != null
        ? `${formatMs(passage.startMs)}–${formatMs(passage.endMs)}` : '',
      // Every turn's id, repeats kept, null for none: each distinct one, once.
      extra: [...new Set(passage.itemIds.filter((id) => id != null))].join(', '),
      preview: firstWords(passage.text),
    });
  }
  return ({ index, type, heading, length, start, end, text, overlap, tokens, over }) => ({
    title: `${index} · ${type}`,
    heading,
    size: sizeOf(length, tokens),
    flag: flag(over),
    range: start < 0 ? 'not found in the text' : `${formatCount(start)}–${formatCount(end)}`,
    extra: '',
    preview: firstWords(text.slice(overlap)),
  });
}

/** Report a failed run at the field it is about, and keep the last good result on screen. */
function showError(error, job) {
  clearErrors(job);
  $('text-error').textContent = '';
  $('run-error').textContent = '';
  // The facade names the argument a bad value is about: `error.field`, a Python name.
  const setting = settingOfField(job.mode, error.field);
  if (isTokenField(error.field)) {
    // A bad budget, or the tokenizer that did not load: at the token panel's field.
    tokenPanel.setError(error.field, tokenPanel.inPageWords(error.field, error.message));
  } else if (setting) {
    controls.setError(setting.name, inPageWords(job.mode, error.message));
  } else if (error instanceof TranscriptJsonError || job.mode === 'turns') {
    // A JSON error names the file the transcript came from (a text typed here has none).
    const named = error instanceof TranscriptJsonError && !job.source.id.startsWith('own-');
    $('text-error').textContent = named ? error.about(job.source.name) : error.message;
  } else {
    // Not a bad setting: the worker stopped, or a bug to look into, with its stack.
    const bug = !(error instanceof RangeError || error instanceof TypeError);
    $('run-error').textContent = `Chunking failed: ${error.message}`
      + (bug ? '. Reloading the page starts Python again.' : '');
    if (bug) console.error(error);
  }
  markStale();
}

function markStale() {
  if (!state.result) return;
  $('results').classList.add('stale');
  $('run-status').textContent = 'Showing the last good result: see the message by the field.';
  compare.firstStale();
}

// --- selection ---------------------------------------------------------------------------

/**
 * Select chunk `index` everywhere. The document scrolls to it unless the click came from it;
 * the list scrolls only as far as needed to show the row (arrow keys move past its edge).
 */
function select(index, origin) {
  state.selected = index;
  const scroll = origin !== 'run';
  documentView.select(index, { scroll: scroll && origin !== 'document' });
  transcriptView.select(index, { scroll: scroll && origin !== 'document' });
  list.select(index, { scroll });
}

/** A search hit chosen: its chunk, shown (a narrow screen shows it in the Chunks view). */
function showHit(index) {
  viewTabs.reveal('chunks', $(state.mode === 'turns' ? 'transcript' : 'document'));
  select(index, 'search');
}

// --- take it away ------------------------------------------------------------------------

/** What the code is written from: the shown source's name and text, and whether the text is
 * the sample's own. */
const codeSource = (source) => ({ name: source.name, text: source.text,
  sample: isSample(source) });

function updateCode(source) {
  const from = codeSource(source);
  const tokens = tokenOptions(state.tokens);
  $('code-python').textContent = pythonSnippet(state.mode, state.values, from, tokens);
  $('code-js').textContent = javascriptSnippet(state.mode, state.values, from, tokens);
}

/** What the status says of copied code, besides that it was copied: where its text is. */
function whereTheTextIs(what, source) {
  if (textFrom(codeSource(source)) !== 'file') return '';
  return what === 'Python'
    ? ` The text is too long to write into it: save the text as ${source.name} beside it.`
    : ' The text is too long to write into it: it reads this page\'s text box.';
}

/** The link to copy: the settings, the text unless it is a sample's, and the search and the
 * Tune view's work (see link.js), as much as fits. */
async function shareLink() {
  const source = current();
  const url = new URL(shareQuery(), location.href).href;
  const link = await linkWith(url, { text: isSample(source) ? null : source.text,
    work: workOfPage() });
  const work = { carried: ' It carries your search and Tune view too.',
    left: ' Your search and Tune view are too long to go with it.', none: '' }[link.work];
  if (link.text === 'none') return { href: link.href, note: work };
  if (link.text === 'carried') return { href: link.href, note: ` It carries the text too.${work}` };
  const holds = link.work === 'carried' ? 'the settings, your search and Tune view, not the '
    + 'text' : 'the settings only';
  return { href: link.href, note: ` It holds ${holds}: the text is too long for a link `
    + `(${formatCount(link.length)} characters compressed; a link holds `
    + `${formatCount(LINK_LIMIT)}). Send the text itself, or open it there as a file.`
    + (link.work === 'left' ? work : '') };
}

function wireExport() {
  const status = (message) => { $('export-status').textContent = message; };
  const save = (lines) => {
    if (!state.result) return status('Nothing to download yet.');
    const { source, mode, values, tokens } = state.result;
    // A live edit's are made when asked for (live-text.js).
    const raw = typeof state.result.raw === 'function' ? state.result.raw() : state.result.raw;
    const settings = { mode, ...optionsOf(mode, values), ...tokens };
    download({ chunks: raw, source: source.name, settings }, exportName(source.name, mode), lines);
    return status(`Downloaded ${formatCount(raw.length)} records.`);
  };
  const copy = async (what, text, note = '') => {
    try {
      await navigator.clipboard.writeText(text);
      status(`${what} copied.${note}`);
    } catch {
      // Without clipboard access, show the code so it can be selected by hand.
      showCode(true);
      status(`Could not copy: select the ${what.toLowerCase()} below instead.`);
    }
  };
  // The code of the text as it is now, edits not yet chunked included.
  const copyCode = (what, pre) => {
    input.read();
    updateCode(current());
    return copy(what, $(pre).textContent, whereTheTextIs(what, current()));
  };
  const showCode = (shown) => {
    $('show-code').setAttribute('aria-expanded', String(shown));
    $('code').hidden = !shown;
  };
  $('show-code').addEventListener('click', () => showCode($('code').hidden));
  $('download-json').addEventListener('click', () => save(false));
  $('download-jsonl').addEventListener('click', () => save(true));
  $('copy-python').addEventListener('click', () => copyCode('Python', 'code-python'));
  $('copy-js').addEventListener('click', () => copyCode('JavaScript', 'code-js'));
  $('copy-link').addEventListener('click', async () => {
    input.read();
    const { href, note } = await shareLink();
    return copy('Link', href, note);
  });
}
