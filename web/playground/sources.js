// The texts the page can show: the user's own, each file they opened, and the samples. Each
// keeps its own edits, so switching modes or samples and back restores exactly what was there.

const SAMPLES = [
  { id: 'guide', kind: 'document', name: 'indexer-guide.md',
    label: 'Sample: technical guide (Markdown, code, tables)' },
  { id: 'handbook', kind: 'document', name: 'handbook.md',
    label: 'Sample: refunds and shipping handbook' },
  { id: 'meeting', kind: 'transcript', name: 'meeting.json', label: 'Sample: meeting transcript' },
];

/** Documents are chunked as text; transcripts are a JSON list of turns. */
function kindOfFile(name) {
  return /\.json$/i.test(name) ? 'transcript' : 'document';
}

// What the user typed also survives a reload: sessionStorage keeps it for this tab only, and
// forgets it when the tab closes. Files can be opened again, so they are not kept.
const KEPT = new Set(['own-document', 'own-transcript']);
const storageKey = (id) => `chunker-playground:${id}`;

function stored(id) {
  try {
    return sessionStorage.getItem(storageKey(id)) ?? '';
  } catch {
    return '';  // storage refused (a sandboxed frame, a privacy setting): memory only
  }
}

export function createSources() {
  const sources = new Map();
  const add = (source) => { sources.set(source.id, source); return source.id; };
  add({ id: 'own-document', kind: 'document', label: 'Your text', name: 'document.md',
    text: stored('own-document') });
  add({ id: 'own-transcript', kind: 'transcript', label: 'Your transcript',
    name: 'transcript.json', text: stored('own-transcript') });
  for (const sample of SAMPLES) add({ ...sample, text: null, sample: true });
  let files = 0;

  return {
    get: (id) => sources.get(id),
    has: (id) => sources.has(id),
    list: () => [...sources.values()],

    /** Keep an opened file as a source of its own, so it never replaces typed text. */
    addFile(name, text) {
      files += 1;
      return add({ id: `file-${files}`, kind: kindOfFile(name), label: `File: ${name}`, name, text });
    },

    /** Keep a typed text for a reload of the tab (the others need no keeping). */
    keep(source) {
      if (!KEPT.has(source.id)) return;
      try {
        sessionStorage.setItem(storageKey(source.id), source.text);
      } catch {
        // Over the quota (a few MB): the text stays in memory for as long as the page does.
      }
    },

    /** The source with its text, fetching a sample the first time it is shown. */
    async load(id) {
      const source = sources.get(id);
      if (source.text === null) {
        const response = await fetch(`samples/${source.name}`);
        if (!response.ok) throw new Error(`sample ${source.name}: HTTP ${response.status}`);
        // Another load of the same sample may have finished first; keep its (maybe edited) text.
        const text = await response.text();
        if (source.text === null) source.text = text;
      }
      return source;
    },
  };
}
