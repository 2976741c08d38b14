// The one place where offsets change units. Python counts a string's characters (code points),
// JavaScript its UTF-16 code units, and a character outside the BMP (an emoji) is one of the
// first and two of the second. The worker answers Python's offsets, with where the characters
// outside the BMP are when only it holds the text (the packed chunks' `astral` section, a
// search hit's `astralBefore`); chunker.js converts them here, and converts the offsets it
// sends (the evaluation set's references, the joined documents' lengths) before they go.
// JavaScript converts: a loop over plain ints costs it far less than the same loop costs
// Python in Pyodide (tests/bench/browser.py; tests/bench/NOTES.md, "UTF-16 in one language").

// Half of a pair: a high surrogate, which a low one completes.
const HIGH_SURROGATE_RE = /[\uD800-\uDBFF]/;
// A pair: one character outside the BMP. A lone surrogate is one unit, one character, as the
// worker hands it to Python.
const PAIR_RE = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;
const NONE = new Int32Array(0);

/**
 * Where the characters outside the BMP are in `text`, in code points, in order: what
 * chunker/bridge/utf16.py's `astral_positions` finds in Python.
 *
 * @param {string} text
 * @returns {Int32Array} empty for most texts, found by one search
 */
export function astralOf(text) {
  if (!HIGH_SURROGATE_RE.test(text)) return NONE;
  const positions = [];
  for (const pair of text.matchAll(PAIR_RE)) positions.push(pair.index - positions.length);
  return Int32Array.from(positions);
}

/**
 * The JavaScript (UTF-16) indices of code-point `offsets`: each character outside the BMP
 * before an offset adds one unit (past the end too: a chunk's end may count the line feed the
 * chunker adds after the last line); a negative offset, which means "none", stays.
 *
 * @param {ArrayLike<number>} offsets
 * @param {ArrayLike<number>} astral where the characters outside the BMP are (`astralOf`)
 * @returns {ArrayLike<number>} `offsets` itself when the text has none (most texts)
 */
export function toUtf16(offsets, astral) {
  if (!astral.length) return offsets;
  const indices = new Int32Array(offsets.length);
  for (let at = 0; at < offsets.length; at++) {
    const offset = offsets[at];
    indices[at] = offset < 0 ? offset : offset + countBefore(astral, offset);
  }
  return indices;
}

/**
 * The JavaScript index of code-point `offset` into a text that only the worker holds, which
 * has `astralBefore` characters outside the BMP before it (`toUtf16`'s rule, for one offset).
 */
export function offsetToUtf16(offset, astralBefore) {
  return offset < 0 ? offset : offset + astralBefore;
}

/**
 * The code-point offsets of JavaScript `offsets` into `text`: `toUtf16`'s inverse. One between
 * the two units of a character outside the BMP has no code-point offset: a RangeError with
 * `.field` = `field` (the Python name of the argument), its message naming `where`.
 *
 * @param {ArrayLike<number>} offsets
 * @param {string} text
 * @param {string} field
 * @param {string} where
 * @returns {ArrayLike<number>}
 */
export function toCodePoints(offsets, text, field, where) {
  return toCodePointsIn(offsets, astralOf(text), field, where);
}

/** `toCodePoints` where the characters outside the BMP are known (`astralOf` the text): a
 * LiveDocument keeps them for the text it edits, which a search would cost at each key. */
export function toCodePointsIn(offsets, astral, field, where) {
  if (!astral.length) return offsets;
  const units = astral.map((position, number) => position + number); // where each pair starts
  return Array.from(offsets, (offset) => {
    const before = countBefore(units, offset);
    if (before && units[before - 1] + 1 === offset) {
      const message =
        `${where}: offset ${offset} falls between the two UTF-16 units of a character ` +
        'outside the BMP';
      throw Object.assign(new RangeError(message), { field });
    }
    return offset - before;
  });
}

/**
 * `astral` (`astralOf` a text) once the code points `start` to `end` of the text are replaced
 * by `replacement`: those before stay, those replaced go, `replacement`'s come in, those after
 * move by the edit's length. No search of the text: a LiveDocument's edit costs what it
 * changes.
 *
 * @param {Int32Array} astral
 * @param {number} start
 * @param {number} end
 * @param {string} replacement
 * @returns {Int32Array}
 */
export function astralEdited(astral, start, end, replacement) {
  const before = countBefore(astral, start), after = countBefore(astral, end);
  const inserted = astralOf(replacement);
  if (!inserted.length && before === after && !astral.length) return astral;
  const by = codePointLength(replacement) - (end - start);
  const edited = new Int32Array(before + inserted.length + astral.length - after);
  edited.set(astral.subarray(0, before));
  for (let at = 0; at < inserted.length; at++) edited[before + at] = inserted[at] + start;
  const moved = before + inserted.length;
  for (let at = after; at < astral.length; at++) edited[moved + at - after] = astral[at] + by;
  return edited;
}

/** `text`'s length in code points, as Python's `len` counts it. */
export function codePointLength(text) {
  if (!HIGH_SURROGATE_RE.test(text)) return text.length;
  return text.length - (text.match(PAIR_RE)?.length ?? 0);
}

/** How many of the sorted `positions` lie before `offset`: a bisection. */
function countBefore(positions, offset) {
  let before = 0;
  for (let high = positions.length; before < high; ) {
    const middle = (before + high) >> 1;
    if (positions[middle] < offset) before = middle + 1;
    else high = middle;
  }
  return before;
}
