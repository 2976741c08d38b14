// The texts the page can show: the user's own, each file they opened, a text that came in a
// link, and the samples. Each keeps its own edits, so switching modes or sources and back
// restores exactly what was there. A sample is never edited: an edit of one becomes the
// user's own text (`yours`), and the sample stays as it came.

import { asTextBoxHolds } from './line-endings.js';
import { forget, store, stored, storedJson } from './storage.js';

const SAMPLES = [
  { id: 'guide', kind: 'document', name: 'indexer-guide.md',
    label: 'Sample: technical guide (Markdown, code, tables)' },
  { id: 'handbook', kind: 'document', name: 'handbook.md',
    label: 'Sample: refunds and shipping handbook' },
  { id: 'meeting', kind: 'transcript', name: 'meeting.json', label: 'Sample: meeting transcript' },
];

// The user's own texts, by kind: the first is always there; more are added when a sample is
// edited while every one of them holds a text (`yours`).
const OWN = {
  document: { name: 'document.md', label: 'Your text' },
  transcript: { name: 'transcript.json', label: 'Your transcript' },
};

// The text of a link (see link.js), by kind: one of each, the last link's.
const LINKED = {
  document: { id: 'link-document', name: 'document.md', label: 'Text from a link' },
  transcript: { id: 'link-transcript', name: 'transcript.json',
    label: 'Transcript from a link' },
};

/** Whether `source` is a sample (whose text is the sample's own: samples are never edited). */
export function isSample(source) {
  return Boolean(source.sample);
}

/** Documents are chunked as text; transcripts are a JSON list of turns, or JSON Lines. */
export function kindOfFile(name) {
  return /\.jsonl?$/i.test(name) ? 'transcript' : 'document';
}

// Everything the user typed or opened survives a reload: storage.js keeps each text under its
// source's id, and the sources added (opened files, the user's texts after the first) in a
// list, to list them again after a reload.
const ADDED_KEY = 'files';  // [{id, name, windows?, mac?}]
const ADDED_ID_RE = /^(?:file|own-document|own-transcript)-[0-9]+$/;

/** The sources added before a reload, each `{id, name, text, windows, mac}`; their texts
 * are read once (they may be megabytes, read as the page first paints). */
function keptAdded() {
  const added = storedJson(ADDED_KEY);
  if (!Array.isArray(added)) return [];  // none, or written by another version of the page
  return added
    .filter((entry) => ADDED_ID_RE.test(entry?.id) && typeof entry.name === 'string')
    .map((entry) => ({ ...entry, text: stored(entry.id) }))
    .filter(({ text }) => text !== null);
}

/** The number at the end of an added source's id: `file-3` -> 3. */
const numberOf = (id) => Number(id.slice(id.lastIndexOf('-') + 1));

export function createSources() {
  const sources = new Map();
  // Every text is held as the text box holds it (see line-endings.js); a file's changed line
  // endings are counted, for the page to say so.
  const add = (source) => {
    if (typeof source.text === 'string') {
      const { text, windows, mac } = asTextBoxHolds(source.text);
      source.text = text;
      source.windows = (source.windows ?? 0) + windows;
      source.mac = (source.mac ?? 0) + mac;
    }
    sources.set(source.id, source);
    return source.id;
  };
  const list = () => [...sources.values()];
  const ownSource = (kind, id, number) => ({ id, kind, name: OWN[kind].name,
    label: number > 1 ? `${OWN[kind].label} ${number}` : OWN[kind].label });
  for (const kind of Object.keys(OWN)) {
    add({ ...ownSource(kind, `own-${kind}`, 1), text: stored(`own-${kind}`) ?? '' });
  }
  // A sample's text is fetched when first shown.
  for (const sample of SAMPLES) add({ ...sample, text: null, sample: true });
  for (const [kind, link] of Object.entries(LINKED)) {
    const text = stored(link.id);
    if (text !== null) add({ ...link, kind, text });
  }
  const added = [];  // the kept list, {id, name, windows, mac} each
  for (const { id, name, text, windows = 0, mac = 0 } of keptAdded()) {
    const kind = kindOfFile(name);
    add(id.startsWith('file-')
      ? { id, kind, label: `File: ${name}`, name, text, windows, mac }
      : { ...ownSource(kind, id, numberOf(id)), text });
    added.push({ id, name, windows, mac });
  }
  let lastFile = Math.max(0, ...added.filter(({ id }) => id.startsWith('file-'))
    .map(({ id }) => numberOf(id)));
  const yoursOf = (kind) => list().filter((source) => source.id.startsWith(`own-${kind}`));
  const listAdded = (source) => {
    if (!ADDED_ID_RE.test(source.id) || added.some(({ id }) => id === source.id)) return 'kept';
    const entry = { id: source.id, name: source.name, windows: source.windows, mac: source.mac };
    const listed = store(ADDED_KEY, JSON.stringify([...added, entry]));
    if (listed === 'kept') added.push(entry);
    else store(ADDED_KEY, JSON.stringify(added));  // the list as it was
    return listed;
  };
  // An added source's text is only of use listed: if the list cannot be kept, neither is it.
  const keep = (source) => {
    let outcome = store(source.id, source.text);
    if (outcome === 'kept') outcome = listAdded(source);
    if (outcome !== 'kept') forget(source.id);
    source.kept = outcome;
    return outcome;
  };

  return {
    get: (id) => sources.get(id),
    has: (id) => sources.has(id),
    list,

    /** Keep an opened file as a source of its own, so it never replaces typed text. Its
     * line endings become the text box's (the source's `windows` and `mac` count them). */
    addFile(name, text) {
      lastFile += 1;
      return add({ id: `file-${lastFile}`, kind: kindOfFile(name), label: `File: ${name}`,
        name, text });
    },

    /** The text of a link as a source, replacing the text of any link before it. */
    addLinked(kind, text) {
      return add({ ...LINKED[kind], kind, text });
    },

    /**
     * The user's own text of `kind` to take an edit of a sample: the first that is empty,
     * else a new one ("Your text 2", ...), so that no text typed before is written over.
     */
    yours(kind) {
      const empty = yoursOf(kind).find((source) => source.text === '');
      if (empty) return empty;
      const number = yoursOf(kind).length + 1;
      return sources.get(add({ ...ownSource(kind, `own-${kind}-${number}`, number), text: '' }));
    },

    /** Keep a source's text for a reload of the tab: 'kept', 'full' or 'refused'. */
    keep,

    /** The source last shown for `kind` ('document' or 'transcript') before a reload. */
    shownBefore(kind) {
      const id = stored(`shown-${kind}`);
      return id !== null && sources.has(id) ? id : null;
    },

    /** Remember that `id` is shown, for a reload. */
    remember(id) {
      store(`shown-${sources.get(id).kind}`, id);
    },

    /** The source with its text, fetching a sample the first time it is shown. */
    async load(id) {
      const source = sources.get(id);
      if (source.sample && source.text === null) {
        const response = await fetch(`samples/${source.name}`);
        if (!response.ok) throw new Error(`sample ${source.name}: HTTP ${response.status}`);
        const text = await response.text();
        // Another load of the same sample may have finished first: the same text.
        if (source.text === null) add(Object.assign(source, { text }));
      }
      return source;
    },
  };
}
