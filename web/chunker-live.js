// chunker.js's LiveDocument (over chunker/bridge/live.py): a text and its chunks, kept in the
// worker under an id, each edit re-cut there only where it can change the chunks
// (docs/live.md). This page keeps the text and the chunks too: an edit sends its place and
// its replacement, and its reply carries only the chunks removed and added; the kept ones are
// the page's own, moved by the edit's length as they are read (chunker-runs.js: an edit costs
// the page a few steps, not one object a chunk it keeps; `kept` and `chunks()` make every
// chunk, `keptAt` one), and the text is held in blocks, of which an edit copies one or two
// (chunker-blocks.js). Indices are JavaScript's (UTF-16), turned into Python's from where
// the text's characters outside the BMP are, which this module keeps up to date edit by
// edit rather than search 5 MB at each key.

import { BlockText } from './chunker-blocks.js';
import { unpackChunks, unpackDocumentChunks } from './chunker-replies.js';
import { ChunkRuns } from './chunker-runs.js';
import { astralEdited, astralOf, toCodePointsIn } from './chunker-utf16.js';

const NONE = new Int32Array(0);
// Texts are compared in blocks of this many units before one block unit by unit: comparing
// two slices is one memcmp in V8.
const BLOCK = 4096;

const isHigh = (unit) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * The LiveDocument class of an API whose calls go through `call`.
 *
 * @param {Function} call startWorker's
 * @param {(options: object) => boolean} counts whether options count tokens
 */
export function liveDocumentClass(call, counts) {
  // The page names each document (ids count up), as LexicalIndex does: an edit need not wait
  // for the document to be made.
  let lastDocument = 0;

  return class LiveDocument {
    #document = ++lastDocument;
    #text; // a BlockText, or what was given when it is no string
    #astral = NONE; // where the text's characters outside the BMP are, in code points
    #chunks; // as the last reply left them, a ChunkRuns
    #semantic;
    #spans;
    #made;
    #last; // the latest call: chunks() answers once it has
    #failed = null; // an edit the worker refused after this page took it: the text differs
    #disposed = null; // dispose()'s promise, once called

    /**
     * @param {string} text
     * @param {object} [options] strategy ('semantic', the default, or 'fixed',
     *   'hierarchical', 'layout') and that chunker's options, as SemanticChunker's config or
     *   ChunkingEngine.chunk's options take them (no embedFn); spans: true adds the spans
     */
    constructor(text, options) {
      const given = options !== null && typeof options === 'object' ? { ...options } : options;
      this.#semantic = (given?.strategy ?? 'semantic') === 'semantic';
      this.#spans = given?.spans === true;
      this.#text = typeof text === 'string' ? BlockText.of(text) : text;
      if (typeof text === 'string') this.#astral = astralOf(text);
      const finish = (packed, ints, ascii) => {
        this.#chunks = ChunkRuns.of(this.#unpack(text, packed, ints, ascii), this.#semantic);
      };
      const args = { document: this.#document, text, options: given };
      this.#made = call('LiveDocument.create', args, { textKey: 'text', finish, tokens: counts(given) });
      this.#made.catch(() => {}); // reported by each call instead, not as unhandled
      this.#last = this.#made;
    }

    /** The chunks of the text as edited: what a fresh chunking of it answers, a plain array
     * of the caller's own (sorting it changes no later answer); its chunks are made at the
     * first call after an edit, and the same objects answer again until the next. */
    async chunks() {
      this.#usable('chunks');
      await this.#settled(this.#last);
      return this.#chunks.array().slice();
    }

    /** The text as edited. */
    get text() {
      return this.#text instanceof BlockText ? String(this.#text) : this.#text;
    }

    /**
     * Replace `text.slice(start, end)` with `replacement` (JavaScript string indices); answers
     * `{kept, removed, added}`: the chunks carried over (at their new indices and offsets;
     * an array made when first read), the old ones gone, the new ones; and `keptCount` and
     * `keptAt(number)`, which read a few kept chunks without making them all. A
     * bad index rejects with a RangeError or TypeError whose `.field` names it ('start',
     * 'end', 'replacement'), and changes nothing.
     */
    edit(start, end, replacement) {
      let edit;
      try {
        this.#usable('edit');
        edit = this.#placed(start, end, replacement);
      } catch (error) {
        return Promise.reject(error);
      }
      if (!edit) return this.#settled(this.#made).then(() => this.edit(start, end, replacement));
      const { from, to, inserted } = edit;
      const [startCp, endCp] = toCodePointsIn([from, to], this.#astral, 'start', 'LiveDocument.edit');
      const text = this.#text.replaced(from, to, inserted);
      const astral = astralEdited(this.#astral, startCp, endCp, inserted);
      this.#text = text;
      this.#astral = astral;
      const by = inserted.length - (to - from);
      const finish = (packed, ints, ascii) => {
        // The texts of an edit's chunks cross as text, none a slice of the text.
        const added = this.#unpack('', packed, ints, ascii, astral);
        added.forEach((chunk, number) => (chunk.index = packed.indices[number]));
        const { list, change } = this.#chunks.edited(packed.removed, added, packed.unmoved, by);
        this.#chunks = list;
        return change;
      };
      const args = { document: this.#document, start: startCp, end: endCp, replacement: inserted };
      const answer = call('LiveDocument.edit', args, { finish });
      this.#last = answer;
      return this.#settled(answer);
    }

    /** Make the text `newText`: the edit is what lies between the part both texts start
     * with and the part both end with. Answers as edit does. */
    replaceText(newText) {
      if (typeof newText !== 'string' || !(this.#text instanceof BlockText)) {
        if (!(this.#text instanceof BlockText)) return this.edit(0, 0, '');
        const error = new TypeError(
          `LiveDocument.replaceText: newText must be a string, got ${typeof newText}`,
        );
        return Promise.reject(Object.assign(error, { field: 'new_text' }));
      }
      const old = String(this.#text);
      let start = commonPrefix(old, newText);
      // Not between the two units of a pair: an edit starts and ends at characters.
      if (start > 0 && isHigh(old.charCodeAt(start - 1))) start--;
      let back = commonSuffix(old, newText, Math.min(old.length, newText.length) - start);
      if (back > 0 && isLow(old.charCodeAt(old.length - back))) back--;
      return this.edit(start, old.length - back, newText.slice(start, newText.length - back));
    }

    /** Free the document in the worker; later calls on it reject. */
    dispose() {
      this.#disposed ??= call('LiveDocument.dispose', { document: this.#document });
      return this.#disposed;
    }

    #usable(method) {
      if (this.#disposed) throw new Error(`LiveDocument.${method}: this document was disposed`);
      if (this.#failed) throw this.#failed;
    }

    /** The edit as sent: its place and replacement, checked, widened to whole characters
     * where it joins two halves of a pair; null while the text is not known to be one. */
    #placed(start, end, replacement) {
      const text = this.#text;
      if (!(text instanceof BlockText)) return null; // the document was not made: its reason
      const length = text.length;
      checkIndex('start', start, 0, length, text);
      checkIndex('end', end, start, length, text);
      if (typeof replacement !== 'string') {
        const message = `LiveDocument.edit: replacement must be a string, got ${typeof replacement}`;
        throw Object.assign(new TypeError(message), { field: 'replacement' });
      }
      let from = start, to = end, inserted = replacement;
      // A lone half that the edit completes into a pair is one character in Python after it,
      // as a fresh text would be: the edit takes it in.
      const first = inserted.length ? inserted.charCodeAt(0) : text.charCodeAt(to);
      if (from > 0 && isHigh(text.charCodeAt(from - 1)) && isLow(first)) {
        inserted = String.fromCharCode(text.charCodeAt(--from)) + inserted;
      }
      const last = inserted.length ? inserted.charCodeAt(inserted.length - 1) : text.charCodeAt(from - 1);
      if (to < length && isLow(text.charCodeAt(to)) && isHigh(last)) {
        inserted += String.fromCharCode(text.charCodeAt(to++));
      }
      return { from, to, inserted };
    }

    #unpack(text, packed, ints, ascii, known) {
      return this.#semantic
        ? unpackChunks(text, packed, ints, ascii, undefined, this.#spans, known)
        : unpackDocumentChunks(text, packed, ints, ascii, this.#spans, known);
    }

    /** `answer`, or the reason the document was not made; an edit the worker refused leaves
     * this page's text unlike the worker's, so every later call rejects with its error. */
    async #settled(answer) {
      await this.#made.catch((error) => {
        answer.catch(() => {});
        throw error;
      });
      try {
        return await answer;
      } catch (error) {
        if (answer !== this.#made) this.#failed ??= error;
        throw error;
      }
    }
  };
}

/** A RangeError or TypeError naming `field` unless `index` is a whole number from `low` to
 * `high`, not between the two units of a character of `text` outside the BMP. */
function checkIndex(field, index, low, high, text) {
  if (!Number.isInteger(index)) {
    const message = `LiveDocument.edit: ${field} must be an integer, got ${String(index).slice(0, 40)}`;
    throw Object.assign(new TypeError(message), { field });
  }
  if (index < low || index > high) {
    const message =
      `LiveDocument.edit: invalid ${field} ${index} (must be from ${low} to the text's ` +
      `length, ${high})`;
    throw Object.assign(new RangeError(message), { field });
  }
  if (isHigh(text.charCodeAt(index - 1)) && isLow(text.charCodeAt(index))) {
    const message =
      `LiveDocument.edit: ${field} ${index} falls between the two UTF-16 units of a ` +
      'character outside the BMP';
    throw Object.assign(new RangeError(message), { field });
  }
}

/** How many units `a` and `b` start with alike. */
function commonPrefix(a, b) {
  const most = Math.min(a.length, b.length);
  let at = 0;
  while (at < most && a.slice(at, at + BLOCK) === b.slice(at, at + BLOCK)) at += BLOCK;
  at = Math.min(at, most);
  while (at < most && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/** How many units, at most `most`, `a` and `b` end with alike. */
function commonSuffix(a, b, most) {
  let back = 0;
  while (
    back + BLOCK <= most &&
    a.slice(a.length - back - BLOCK, a.length - back) === b.slice(b.length - back - BLOCK, b.length - back)
  ) {
    back += BLOCK;
  }
  while (back < most && a.charCodeAt(a.length - back - 1) === b.charCodeAt(b.length - back - 1)) back++;
  return back;
}
