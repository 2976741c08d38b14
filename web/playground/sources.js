// The texts the page can show: the user's own, each file they opened, a text that came in a
// link, and the samples. Each keeps its own edits, so switching modes or samples and back
// restores exactly what was there. A sample edited is the user's text (its label says so),
// until it is the sample's text again.

const SAMPLES = [
  { id: 'guide', kind: 'document', name: 'indexer-guide.md',
    label: 'Sample: technical guide (Markdown, code, tables)',
    editedLabel: 'Your text: the technical guide, edited' },
  { id: 'handbook', kind: 'document', name: 'handbook.md',
    label: 'Sample: refunds and shipping handbook',
    editedLabel: 'Your text: the handbook, edited' },
  { id: 'meeting', kind: 'transcript', name: 'meeting.json', label: 'Sample: meeting transcript',
    editedLabel: 'Your transcript: the meeting, edited' },
];

// The text of a link (see link.js), by kind: one of each, the last link's.
const LINKED = {
  document: { id: 'link-document', name: 'document.md', label: 'Text from a link' },
  transcript: { id: 'link-transcript', name: 'transcript.json',
    label: 'Transcript from a link' },
};

/** Whether `source` is a sample with the sample's own text (unknown until it is fetched). */
export function isSample(source) {
  return Boolean(source.sample) && source.text === source.original;
}

/** The source's name in the menu. */
export function labelOf(source) {
  return source.sample && source.text !== null && !isSample(source)
    ? source.editedLabel : source.label;
}

/** Documents are chunked as text; transcripts are a JSON list of turns. */
function kindOfFile(name) {
  return /\.json$/i.test(name) ? 'transcript' : 'document';
}

// Everything the user typed survives a reload: sessionStorage keeps each edited text (a
// sample's edits too, and opened files with their edits) for this tab only, and forgets them
// when the tab closes.
const storageKey = (id) => `chunker-playground:${id}`;
const FILES_KEY = 'files';  // the opened files, [{id, name}], to list them again after a reload

/** The kept value under `id`, or null: none kept, or storage refused (a sandboxed frame, a
 * privacy setting), in which case texts live in memory only. */
function stored(id) {
  try {
    return sessionStorage.getItem(storageKey(id));
  } catch {
    return null;
  }
}

/**
 * Keep `value` under `id`: 'kept', or why not: 'full' (over the tab's quota of a few MB) or
 * 'refused' (no storage here: a sandboxed frame, a privacy setting). When not kept, an older
 * value is dropped too, so that a reload never brings back a stale text.
 */
function store(id, value) {
  try {
    sessionStorage.setItem(storageKey(id), value);
    return 'kept';
  } catch (error) {
    forget(id);
    return error?.name === 'QuotaExceededError' ? 'full' : 'refused';
  }
}

function forget(id) {
  try {
    sessionStorage.removeItem(storageKey(id));
  } catch {
    // no storage at all: nothing was kept
  }
}

/** The opened files kept before a reload, each `{id: 'file-N', name, text}`; their texts
 * are read once (they may be megabytes, read as the page first paints). */
function keptFiles() {
  let files;
  try {
    files = JSON.parse(stored(FILES_KEY) ?? '[]');
  } catch {
    return [];  // written by another version of the page
  }
  if (!Array.isArray(files)) return [];
  return files
    .filter((file) => /^file-[0-9]+$/.test(file?.id) && typeof file.name === 'string')
    .map(({ id, name }) => ({ id, name, text: stored(id) }))
    .filter(({ text }) => text !== null);
}

export function createSources() {
  const sources = new Map();
  const add = (source) => { sources.set(source.id, source); return source.id; };
  add({ id: 'own-document', kind: 'document', label: 'Your text', name: 'document.md',
    text: stored('own-document') ?? '' });
  add({ id: 'own-transcript', kind: 'transcript', label: 'Your transcript',
    name: 'transcript.json', text: stored('own-transcript') ?? '' });
  // A sample's text is fetched when first shown, unless it was edited and kept; its
  // `original`, to tell an edit from the sample, is fetched then too.
  for (const sample of SAMPLES) add({ ...sample, text: stored(sample.id), sample: true });
  for (const [kind, link] of Object.entries(LINKED)) {
    const text = stored(link.id);
    if (text !== null) add({ ...link, kind, text });
  }
  const files = [];  // the kept list, {id, name} each
  for (const { id, name, text } of keptFiles()) {
    add({ id, kind: kindOfFile(name), label: `File: ${name}`, name, text });
    files.push({ id, name });
  }
  let lastFile = Math.max(0, ...files.map(({ id }) => Number(id.slice('file-'.length))));
  const isFile = (id) => id.startsWith('file-');
  const listFile = (source) => {
    if (!isFile(source.id) || files.some(({ id }) => id === source.id)) return 'kept';
    const entry = { id: source.id, name: source.name };
    const listed = store(FILES_KEY, JSON.stringify([...files, entry]));
    if (listed === 'kept') files.push(entry);
    else store(FILES_KEY, JSON.stringify(files));  // the list as it was
    return listed;
  };
  // A file's text is only of use listed: if the list cannot be kept, neither is the text.
  const keep = (source) => {
    let outcome = store(source.id, source.text);
    if (outcome === 'kept') outcome = listFile(source);
    if (outcome !== 'kept') forget(source.id);
    source.kept = outcome;
    return outcome;
  };

  return {
    get: (id) => sources.get(id),
    has: (id) => sources.has(id),
    list: () => [...sources.values()],

    /** Keep an opened file as a source of its own, so it never replaces typed text. */
    addFile(name, text) {
      lastFile += 1;
      return add({ id: `file-${lastFile}`, kind: kindOfFile(name), label: `File: ${name}`,
        name, text });
    },

    /** The text of a link as a source, replacing the text of any link before it. */
    addLinked(kind, text) {
      return add({ ...LINKED[kind], kind, text });
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
      if (source.sample && source.original === undefined) {
        let text;
        try {
          const response = await fetch(`samples/${source.name}`);
          if (!response.ok) throw new Error(`sample ${source.name}: HTTP ${response.status}`);
          text = await response.text();
        } catch (error) {
          if (source.text === null) throw error;
          return source;  // its edits kept, shown as the user's text; fetched at a later show
        }
        // Another load of the same sample may have finished first; keep its (maybe edited) text.
        source.original ??= text;
        source.text ??= text;
      }
      return source;
    },
  };
}
