// Typing into a document re-cuts only what each edit can change: the text lives in the
// worker as a LiveDocument (the facade's, docs/live.md), which answers the chunks an edit
// removed and added; the chunks it kept keep their views (their lengths are not counted
// again) and their keys, so the search's index and the views change only where the text did.
// Of the kept chunks, a few are read (`keptAt`): the others are not made, nor all the
// chunks, until a download asks for them.

import { changedViews, editedViews, liveOptions } from './chunkers.js';

// Texts are compared in blocks of this many units before one block unit by unit: comparing
// two slices is one memcmp in V8, where a loop over 5 MB would cost milliseconds.
const BLOCK = 4096;

/**
 * What the page's LiveDocument makes of each new text. `apply` answers the chunks of `text`:
 * `{raw, chunks}` (the views, as `runChunker` answers them; `raw`, a function answering the
 * facade's chunks, made when called: a download's), and the edit
 * that made them, `edit: {from, to, length}` (`text` is the text before with `[from:to]`
 * replaced by `length` units), with the views `removed` and `added`,
 * the indices `changed` (`{from, to}`) of the views that may stand out of order
 * (`changedViews`), and the milliseconds it `waited` for the worker.
 */
export function createLiveText() {
  let live = null; // {doc, signature, text, views}

  return {
    /** Whether `mode` with `values` can cut through a LiveDocument. */
    can: (mode, values) => liveOptions(mode, values) !== null,

    /** Forget the document: the next text makes a new one. */
    drop() {
      live?.doc.dispose().catch(() => {});
      live = null;
    },

    /** The chunks of `text`, cut as `mode` with `values` and `tokens` cut; `shown`, the
     * result on screen (`{text, chunks}`, its views), cut with the same settings. */
    async apply(api, mode, values, tokens, text, shown) {
      const options = liveOptions(mode, values, tokens);
      const signature = JSON.stringify([mode, options]);
      // Made again when the settings changed, or a run drew another text since.
      if (live?.signature !== signature || live.text !== shown.text) {
        this.drop();
        // The first edit under these settings makes the document of the text shown (a cut
        // of the whole text in the worker), and is then an edit of it like the others: the
        // views change where the text did, and the chunks shown keep their keys.
        live = { doc: new api.LiveDocument(shown.text, options), signature, text: shown.text,
          views: shown.chunks };
      }
      const edit = editBetween(live.text, text);
      const { doc, views: old } = live;
      // How long the page waited for the worker (and for its own thread, which the browser's
      // edit of the text box may hold): the rest of a key's time is the page's own work.
      let waited = performance.now();
      const change = await doc.edit(edit.from, edit.to, text.slice(edit.from, edit.from + edit.length));
      waited = performance.now() - waited;
      const views = editedViews(mode, values, old, change);
      live.text = text;
      live.views = views;
      return { raw: () => chunksAfter(change), chunks: views, edit,
        changed: changedViews(old, change),
        removed: change.removed.map((chunk) => old[chunk.index]),
        added: change.added.map((chunk) => views[chunk.index]), waited };
    },
  };
}

/** The chunks after an edit: `change`'s kept ones with its added ones at their indices. */
function chunksAfter({ kept, added }) {
  const chunks = [];
  let number = 0;
  for (const chunk of added) {
    while (chunks.length < chunk.index) chunks.push(kept[number++]);
    chunks.push(chunk);
  }
  while (number < kept.length) chunks.push(kept[number++]);
  return chunks;
}

/** The edit that makes `after` of `before`: `before[from:to]` replaced by `after`'s `length`
 * units there, found as what lies between their common start and end, never between the two
 * units of a character outside the BMP. */
export function editBetween(before, after) {
  const most = Math.min(before.length, after.length);
  let from = 0;
  while (from < most && before.slice(from, from + BLOCK) === after.slice(from, from + BLOCK)) {
    from += BLOCK;
  }
  from = Math.min(from, most);
  while (from < most && before.charCodeAt(from) === after.charCodeAt(from)) from += 1;
  if (from > 0 && isHigh(before.charCodeAt(from - 1))) from -= 1;
  const left = most - from;
  let back = 0;
  while (back + BLOCK <= left && before.slice(before.length - back - BLOCK, before.length - back)
    === after.slice(after.length - back - BLOCK, after.length - back)) {
    back += BLOCK;
  }
  while (back < left && before.charCodeAt(before.length - back - 1)
    === after.charCodeAt(after.length - back - 1)) back += 1;
  if (back > 0 && isLow(before.charCodeAt(before.length - back))) back -= 1;
  return { from, to: before.length - back, length: after.length - back - from };
}

const isHigh = (unit) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit) => unit >= 0xdc00 && unit <= 0xdfff;
