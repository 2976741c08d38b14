// A LiveDocument's text as blocks (chunker-live.js), as chunker/live/blocks.py holds it in
// Python: an edit copies a block or two, not the text. A string edited as slices joined
// (`text.slice(0, from) + inserted + text.slice(to)`) is copied whole by the next read of
// any of its characters, when V8 flattens it: 10 MB at each key typed into 5 MB of text.

// The UTF-16 units a block holds, about.
const BLOCK = 1 << 16;

/** A text as blocks: its `length`, `charCodeAt` as a string's, `String()` joins it once. */
export class BlockText {
  #blocks;
  #starts; // where each block starts
  #length;
  #whole; // the text, once joined (or as given)

  constructor(blocks, whole = null) {
    this.#blocks = blocks;
    this.#starts = new Array(blocks.length);
    let at = 0;
    blocks.forEach((block, number) => {
      this.#starts[number] = at;
      at += block.length;
    });
    this.#length = at;
    this.#whole = whole;
  }

  /** `text` in blocks. */
  static of(text) {
    return new BlockText(blocksOf(text), text);
  }

  get length() {
    return this.#length;
  }

  toString() {
    this.#whole ??= this.#blocks.join('');
    return this.#whole;
  }

  /** The unit at `at`, NaN outside the text, as `String.prototype.charCodeAt` answers. */
  charCodeAt(at) {
    if (this.#whole !== null) return this.#whole.charCodeAt(at);
    if (!(at >= 0 && at < this.#length)) return NaN;
    const number = this.#block(at);
    return this.#blocks[number].charCodeAt(at - this.#starts[number]);
  }

  /** This text with `[start, end)` replaced by `replacement`: the blocks it touches made
   * again, the others shared. */
  replaced(start, end, replacement) {
    if (!this.#blocks.length) return BlockText.of(replacement);
    const first = this.#block(start), last = this.#block(end);
    const middle = this.#blocks[first].slice(0, start - this.#starts[first]) + replacement
      + this.#blocks[last].slice(end - this.#starts[last]);
    return new BlockText([...this.#blocks.slice(0, first), ...blocksOf(middle),
      ...this.#blocks.slice(last + 1)]);
  }

  /** The block that holds the unit at `at` (the last for the end). */
  #block(at) {
    let lo = 0, hi = this.#starts.length;
    while (lo < hi) {
      const middle = (lo + hi) >>> 1;
      if (this.#starts[middle] <= at) lo = middle + 1;
      else hi = middle;
    }
    return Math.max(lo - 1, 0);
  }
}

function blocksOf(text) {
  const blocks = [];
  for (let at = 0; at < text.length; at += BLOCK) blocks.push(text.slice(at, at + BLOCK));
  return blocks;
}
