// Every setting of every mode, in one table: the controls, the URL and the code snippets all
// read it, so a setting added here appears in each of them with the same name and default.

import { formatCount } from './format.js';

/** The three chunkers the page can run, in the order of the mode switch. */
export const MODES = ['semantic', 'engine', 'turns'];

/** Which kind of text each mode reads: a document, or a transcript as JSON turns. */
export const MODE_INPUT = { semantic: 'document', engine: 'document', turns: 'transcript' };

const STRATEGIES = ['fixed', 'semantic', 'hierarchical', 'layout'];

// `sliderMax` only bounds the slider; the number field beside it takes any value, so a size
// outside the slider's range can still be tried (and an invalid one is reported at the field).
const SETTINGS = [
  { mode: 'semantic', name: 'targetSize', python: 'target_size', kind: 'int', def: 1000,
    min: 1, sliderMax: 4000, label: 'Target size',
    help: 'Characters a chunk gathers before a blank line ends it; the splits pack to it.' },
  { mode: 'semantic', name: 'maxSize', python: 'max_size', kind: 'int', def: 2000,
    min: 1, sliderMax: 8000, label: 'Max size',
    help: 'A chunk longer than this is split again: paragraphs, sentences, then fixed.' },
  { mode: 'semantic', name: 'minSize', python: 'min_size', kind: 'int', def: 200,
    min: 0, sliderMax: 2000, label: 'Min size',
    help: 'A shorter chunk joins the one before it (not a heading or code block).' },
  { mode: 'semantic', name: 'overlap', python: 'overlap', kind: 'int', def: 100,
    min: 0, sliderMax: 1000, label: 'Overlap',
    help: 'Characters of the chunk before that each chunk starts with.' },
  { mode: 'semantic', name: 'preserveCodeBlocks', python: 'preserve_code_blocks', kind: 'bool',
    def: true, label: 'Preserve code blocks',
    help: 'Keep each fenced code block as one chunk, up to the max size.' },
  { mode: 'semantic', name: 'respectHeadings', python: 'respect_headings', kind: 'bool',
    def: true, label: 'Respect headings', help: 'Start a chunk at each Markdown heading.' },
  { mode: 'engine', name: 'strategy', python: 'strategy', kind: 'choice', choices: STRATEGIES,
    def: 'fixed', label: 'Strategy',
    help: 'fixed: windows of chunk size; semantic: cut where neighbouring sentences differ; '
      + 'hierarchical: at headings; layout: code blocks and tables whole.' },
  { mode: 'engine', name: 'chunkSize', python: 'chunk_size', kind: 'int', def: 512,
    min: 1, sliderMax: 4000, label: 'Chunk size', help: 'Characters a chunk holds at most.' },
  { mode: 'engine', name: 'chunkOverlap', python: 'chunk_overlap', kind: 'int', def: 64,
    min: 0, sliderMax: 1000, label: 'Chunk overlap',
    help: 'Characters each fixed window starts before the end of the last.' },
  { mode: 'turns', name: 'maxChars', python: 'max_chars', kind: 'int', def: 1200,
    min: 1, sliderMax: 6000, label: 'Max characters',
    help: 'A passage holds whole turns up to this many characters (one long turn may pass it).' },
  { mode: 'turns', name: 'overlapTurns', python: 'overlap_turns', kind: 'int', def: 1,
    min: 0, sliderMax: 10, label: 'Overlap turns',
    help: 'Turns from the end of each passage that the next one opens with.' },
];

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

// Combinations SemanticChunker takes but that defeat the settings they pair with, each the
// reason a person would want to hear. A chunk's own text is at most max size (short ones
// joined aside), and the overlap is cut from the chunk before: an overlap that long repeats
// the whole chunk before. Short chunks join the one before whatever its size, so a min size
// above the max grows chunks past the max; and parts are gathered and cut to the target, so a
// target above the max cuts parts longer than the max.
const NO_SENSE = {
  semantic: [
    { name: 'overlap', other: 'maxSize', holds: (overlap, max) => overlap < max,
      rule: 'must be less than', why: 'or each chunk repeats the whole chunk before it' },
    { name: 'minSize', other: 'maxSize', holds: (min, max) => min <= max,
      rule: 'must not be more than', why: 'or short chunks join into ones past the max' },
    { name: 'targetSize', other: 'maxSize', holds: (target, max) => target <= max,
      rule: 'must not be more than', why: 'or parts are cut longer than the max' },
  ],
  engine: [],
  turns: [],
};

/**
 * A number of `values` in `mode` that JavaScript cannot hold exactly, which the page refuses
 * to send (it would reach Python as another number), as `{name, message}`, or null.
 */
export function refusal(mode, values) {
  for (const setting of settingsOf(mode)) {
    const value = values[setting.name];
    if (setting.kind === 'int' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
      return { name: setting.name, message: `${setting.label} is too large: JavaScript holds `
        + `whole numbers exactly only up to ${formatCount(Number.MAX_SAFE_INTEGER)}.` };
    }
  }
  return null;
}

/**
 * Why `values` in `mode` make no sense (NO_SENSE), at the setting to change, as `{name,
 * message}`, or null. The chunker takes them, so the page still runs them and says why at
 * the field: a person changes one field at a time, and may pass through such values on the
 * way. Values the chunker itself refuses are left to its own message (see `inPageWords`).
 */
export function noSense(mode, values) {
  for (const { name, other, holds, rule, why } of NO_SENSE[mode]) {
    const [value, bound] = [values[name], values[other]];
    const taken = (setting, v) => Number.isSafeInteger(v) && v >= setting.min;
    if (!taken(settingOf(mode, name), value) || !taken(settingOf(mode, other), bound)) continue;
    if (holds(value, bound)) continue;
    return { name, message: `${labelOf(mode, name)} ${formatCount(value)} ${rule} `
      + `${lower(labelOf(mode, other))} ${formatCount(bound)}, ${why}.` };
  }
  return null;
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
  return Object.fromEntries(SETTINGS.map((setting) => [setting.name, setting.def]));
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
