// Every setting of every mode, in one table: the controls, the URL and the code snippets all
// read it, so a setting appears in each of them with the same name and default. The options
// themselves are Python's (options.js, written by the build); this module adds their words.

import { formatCount } from './format.js';
import { AT_ODDS, OPTIONS } from './options.js';
import { wholeNumberProblem } from './whole-number.js';

/** The three chunkers the page can run, in the order of the mode switch. */
export const MODES = ['semantic', 'engine', 'turns'];

/** Which kind of text each mode reads: a document, or a transcript as JSON turns. */
export const MODE_INPUT = { semantic: 'document', engine: 'document', turns: 'transcript' };

// What the page adds to Python's options (options.js, written by the build from chunker:
// names, kinds, defaults, least values, choices): a label, help, and for a number the top of
// its slider. `sliderMax` only bounds the slider; the number field beside it takes any value,
// so a size outside the slider's range can still be tried (and an invalid one is reported at
// the field).
const PAGE = {
  semantic: {
    targetSize: { label: 'Target size', sliderMax: 4000,
      help: 'Characters a chunk gathers before a blank line ends it; the splits pack to it.' },
    maxSize: { label: 'Max size', sliderMax: 8000,
      help: 'A chunk longer than this is split again: paragraphs, sentences, then fixed.' },
    minSize: { label: 'Min size', sliderMax: 2000,
      help: 'A shorter chunk joins the one before it (not a heading or code block).' },
    overlap: { label: 'Overlap', sliderMax: 1000,
      help: 'Characters of the chunk before that each chunk starts with.' },
    preserveCodeBlocks: { label: 'Preserve code blocks',
      help: 'Keep each fenced code block as one chunk, up to the max size.' },
    respectHeadings: { label: 'Respect headings', help: 'Start a chunk at each Markdown heading.' },
    overlapBoundary: { label: 'Overlap boundary',
      help: 'Where the overlap starts: chars, anywhere (the original); word or sentence, at the '
        + 'first word or sentence start in it (no overlap when there is none).' },
  },
  engine: {
    strategy: { label: 'Strategy',
      help: 'fixed: windows of chunk size; semantic: cut where neighbouring sentences differ; '
        + 'hierarchical: at headings; layout: code blocks and tables whole.' },
    chunkSize: { label: 'Chunk size', sliderMax: 4000, help: 'Characters a chunk holds at most.' },
    chunkOverlap: { label: 'Chunk overlap', sliderMax: 1000,
      help: 'Characters each fixed window starts before the end of the last.' },
    boundaries: { label: 'Boundaries',
      help: 'Where fixed windows end: position, every chunk size (the original); content, at '
        + 'words the text chooses, so an edit moves only the windows next to it (fixed only).' },
  },
  turns: {
    maxChars: { label: 'Max characters', sliderMax: 6000,
      help: 'A passage holds whole turns up to this many characters (one long turn may pass it).' },
    overlapTurns: { label: 'Overlap turns', sliderMax: 10,
      help: 'Turns from the end of each passage that the next one opens with.' },
  },
};

// Python's options the page offers no field for, each with why.
const NOT_SHOWN = {
  engine: { embedFn: 'a function: the page passes its demonstration embedding (chunkers.js)' },
};

// Pairs of settings the chunker takes but that defeat each other (AT_ODDS, Python's, each
// with the reason a person would want to hear): how each relation holds, and reads.
const RELATIONS = {
  '<': { holds: (value, bound) => value < bound, rule: 'must be less than' },
  '<=': { holds: (value, bound) => value <= bound, rule: 'must not be more than' },
};

/**
 * The settings of `mode`: each of Python's options (`OPTIONS[mode]`) with the page's words
 * (`PAGE[mode]`). An option with no words, or words for no option, stops the page here with
 * the name to add or remove: a new option in Python is never left out without a trace.
 */
function settingsFrom(mode) {
  if (!OPTIONS[mode]) throw new Error(`settings.js: options.js has no mode ${mode}.`);
  const words = PAGE[mode] ?? {};
  const notShown = NOT_SHOWN[mode] ?? {};
  const settings = [];
  for (const option of OPTIONS[mode]) {
    if (Object.hasOwn(notShown, option.name)) continue;
    const where = `settings.js: ${mode} option ${option.name} (Python's ${option.python})`;
    const page = words[option.name];
    if (!page) {
      throw new Error(`${where} has no label: add its label and help (and sliderMax for a `
        + 'number) to PAGE, or the option to NOT_SHOWN with why.');
    }
    if (option.kind === null) throw new Error(`${where} is of no kind the page can show.`);
    if (option.kind === 'int' && !(page.sliderMax > option.min)) {
      throw new Error(`${where} needs a sliderMax above its least value, ${option.min}.`);
    }
    settings.push({ mode, ...option, ...page });
  }
  for (const name of Object.keys(words)) {
    if (!settings.some((setting) => setting.name === name)) {
      throw new Error(`settings.js: PAGE.${mode}.${name} is no option of Python's (options.js).`);
    }
  }
  for (const { name, relation } of AT_ODDS[mode] ?? []) {
    if (!RELATIONS[relation]) throw new Error(`settings.js: ${name} ${relation}: no relation.`);
  }
  return settings;
}

// Every setting of every mode, in the modes' order and each mode's options' (Python's).
const SETTINGS = MODES.flatMap(settingsFrom);

// More chunks than this would take the worker seconds to minutes and the page a long pause
// to draw (a 1 MB text cut every character makes 800,000): the page refuses such settings.
export const MAX_CHUNKS = 100_000;

/**
 * Why `values` could cut a text of `length` characters into more than MAX_CHUNKS chunks, at
 * the setting to change, or null. The size settings bound the count: two windows of the
 * engine move on by more than chunk size less overlap, and two parts SemanticChunker cuts
 * from an oversized piece by more than target size (its other cuts follow the text's own
 * headings and paragraphs, which no setting bounds). Values the chunker itself refuses are
 * left to its own message.
 */
export function tooManyChunks(mode, values, length) {
  let name;
  let step;
  if (mode === 'engine') {
    const { chunkSize, chunkOverlap } = values;
    if (![chunkSize, chunkOverlap].every(Number.isInteger) || chunkOverlap < 0) return null;
    name = 'chunkSize';
    step = chunkSize - chunkOverlap;
  } else if (mode === 'semantic') {
    if (!Number.isInteger(values.targetSize)) return null;
    name = 'targetSize';
    step = values.targetSize;
  } else {
    return null;  // a passage holds at least one whole turn
  }
  const most = Math.ceil((2 * length) / step);
  if (step < 1 || most <= MAX_CHUNKS) return null;
  const setting = SETTINGS.find((s) => s.mode === mode && s.name === name);
  const overlap = mode === 'engine' ? values.chunkOverlap : 0;
  const least = Math.ceil((2 * length) / MAX_CHUNKS) + overlap;
  return {
    name,
    message: `${setting.label} ${values[name]} could cut this ${length.toLocaleString('en')}-`
      + `character text into as many as ${most.toLocaleString('en')} chunks, more than the `
      + `page shows (${MAX_CHUNKS.toLocaleString('en')}): make it at least `
      + `${least.toLocaleString('en')}, or the text shorter.`,
  };
}

const settingOf = (mode, name) => SETTINGS.find((s) => s.mode === mode && s.name === name);
const labelOf = (mode, name) => settingOf(mode, name).label;
const lower = (label) => label[0].toLowerCase() + label.slice(1);

/**
 * Each number of `values` in `mode` that its field refuses (`wholeNumberProblem`), as
 * `{name, message}`: none of them is sent. Settings at odds are another matter (`noSense`).
 */
export function refusals(mode, values) {
  return settingsOf(mode).filter((setting) => setting.kind === 'int').map((setting) => ({
    name: setting.name,
    message: wholeNumberProblem(setting.label, values[setting.name], setting.min),
  })).filter(({ message }) => message);
}

/**
 * Why `values` in `mode` make no sense (AT_ODDS), at the settings to change: a list of `{name,
 * message}`, one a setting (two reasons at one setting are said together), empty when they
 * do. The chunker takes them, so the page still runs them and says why at the field: a person
 * changes one field at a time, and may pass through such values on the way. Values a field
 * refuses (`refusals`) are left to its own message.
 */
export function noSense(mode, values) {
  const said = new Map();
  for (const { name, relation, other, why } of AT_ODDS[mode] ?? []) {
    const { holds, rule } = RELATIONS[relation];
    const [value, bound] = [values[name], values[other]];
    const taken = (setting, v) => Number.isSafeInteger(v) && v >= setting.min;
    if (!taken(settingOf(mode, name), value) || !taken(settingOf(mode, other), bound)) continue;
    if (holds(value, bound)) continue;
    const message = `${labelOf(mode, name)} ${formatCount(value)} ${rule} `
      + `${lower(labelOf(mode, other))} ${formatCount(bound)}, ${why}.`;
    said.set(name, said.has(name) ? `${said.get(name)} ${message}` : message);
  }
  return [...said].map(([name, message]) => ({ name, message }));
}

/** The setting of `mode` a chunker's error is about, from its `field` (a Python name). */
export function settingOfField(mode, field) {
  return settingsOf(mode).find((setting) => setting.python === field) ?? null;
}

/**
 * A chunker's `message` in the page's words: each Python name of `mode`'s settings becomes
 * its label (`chunk_overlap` -> "chunk overlap"), and the message starts with a capital.
 */
export function inPageWords(mode, message) {
  const names = settingsOf(mode).sort((a, b) => b.python.length - a.python.length);
  let words = message;
  for (const setting of names) {
    words = words.replace(new RegExp(`\\b${setting.python}\\b`, 'g'), lower(setting.label));
  }
  return words[0].toUpperCase() + words.slice(1);
}

/** The settings of one mode, in table order. */
export function settingsOf(mode) {
  return SETTINGS.filter((setting) => setting.mode === mode);
}

/** The options object of `mode` for the facade, from `values`: `{targetSize: 1000, …}`. */
export function optionsOf(mode, values) {
  return Object.fromEntries(settingsOf(mode).map((setting) => [setting.name, values[setting.name]]));
}

/** Every setting at its default, keyed by name. */
function defaultValues() {
  return Object.fromEntries(SETTINGS.map((setting) => [setting.name, setting.default]));
}

/**
 * Read the mode, the settings and the sample from a URL's query. Values are only parsed, not
 * judged: `?targetSize=0` comes through so that the field can show the chunker's own message.
 */
export function readQuery(search) {
  const params = new URLSearchParams(search);
  const mode = MODES.includes(params.get('mode')) ? params.get('mode') : 'semantic';
  const values = defaultValues();
  for (const setting of SETTINGS) {
    const raw = params.get(setting.name);
    if (raw === null) continue;
    const value = parseValue(setting, raw);
    if (value !== undefined) values[setting.name] = value;
  }
  return { mode, values, sample: params.get('sample') };
}

function parseValue(setting, raw) {
  if (setting.kind === 'bool') return raw === 'true' ? true : raw === 'false' ? false : undefined;
  if (setting.kind === 'choice') return setting.choices.includes(raw) ? raw : undefined;
  const number = Number(raw);
  return raw.trim() !== '' && Number.isFinite(number) ? number : undefined;
}

/** The query that reproduces the current mode and its settings (and a sample, when shown). */
export function writeQuery({ mode, values, sample }) {
  const params = new URLSearchParams({ mode });
  for (const setting of settingsOf(mode)) params.set(setting.name, String(values[setting.name]));
  if (sample) params.set('sample', sample);
  return `?${params}`;
}
