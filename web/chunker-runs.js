// A LiveDocument's chunks as runs (chunker-live.js): each run a range of an earlier list of
// chunks, moved by a number of UTF-16 units, each chunk made, moved and at its index, only
// when it is read. An edit keeps most chunks, moved by its length after it: making a list of
// them as runs costs a few steps a run the edit touches, however many chunks there are,
// where a list made of moved chunks costs one object a chunk (docs/live.md). What users get
// is plain arrays, made when asked for (they post, clone and store as any); `keptAt` reads a
// few chunks without making all.
//
// The runs are the nodes of a balanced tree (a treap: each node's priority at least its
// children's, drawn at random, so that the depth is logarithmic in the number of runs),
// each node moved by its `shift` relative to its parent: moving every run after an edit is
// moving one subtree. A list is never changed once made (a change's `kept` still reads the
// list its edit made): an edit makes new nodes along the paths it cuts, and shares the rest.
// So edits do not slow down as they pile up: an edit's cost, and a chunk's read, grow with
// the logarithm of the number of runs, never with the edits made before; and a list read
// whole becomes one run of the chunks read, the runs before forgotten.

/** A run of `chunks[lo:hi]` moved `shift` units from its parent, between the runs under
 * `left` and `right`; `size`, the chunks under it. */
class Run {
  constructor(chunks, lo, hi, shift, priority, left, right) {
    this.chunks = chunks;
    this.lo = lo;
    this.hi = hi;
    this.shift = shift;
    this.priority = priority;
    this.left = left;
    this.right = right;
    this.size = sizeOf(left) + hi - lo + sizeOf(right);
  }
}

const sizeOf = (run) => (run === null ? 0 : run.size);

/** `run` moved `by` more units (the same node when by is 0). */
function shifted(run, by) {
  if (run === null || by === 0) return run;
  return new Run(run.chunks, run.lo, run.hi, run.shift + by, run.priority, run.left, run.right);
}

/** The runs of `a` then those of `b`, both moved from the same place. */
function joined(a, b) {
  if (a === null) return b;
  if (b === null) return a;
  if (a.priority >= b.priority) {
    const right = joined(a.right, shifted(b, -a.shift));
    return new Run(a.chunks, a.lo, a.hi, a.shift, a.priority, a.left, right);
  }
  const left = joined(shifted(a, -b.shift), b.left);
  return new Run(b.chunks, b.lo, b.hi, b.shift, b.priority, left, b.right);
}

/** `[the first count chunks of run, the others]`, each moved from where `run` is;
 * `fresh()`, a priority for a run cut in two. */
function split(run, count, fresh) {
  if (count <= 0) return [null, run];
  if (count >= sizeOf(run)) return [run, null];
  const left = sizeOf(run.left);
  const own = run.hi - run.lo;
  if (count <= left) {
    const [first, rest] = split(run.left, count, fresh);
    return [shifted(first, run.shift),
      new Run(run.chunks, run.lo, run.hi, run.shift, run.priority, rest, run.right)];
  }
  if (count >= left + own) {
    const [first, rest] = split(run.right, count - left - own, fresh);
    return [new Run(run.chunks, run.lo, run.hi, run.shift, run.priority, run.left, first),
      shifted(rest, run.shift)];
  }
  const middle = run.lo + count - left;
  const head = new Run(run.chunks, run.lo, middle, run.shift, run.priority, run.left, null);
  const tail = new Run(run.chunks, middle, run.hi, run.shift, fresh(), null, null);
  return [head, joined(tail, shifted(run.right, run.shift))];
}

/** A 32-bit number from `seed`, its bits mixed (MurmurHash3's finalizer): the priorities,
 * drawn from a count the lists carry on, so that a document's trees are the same at every
 * run, and no state is the module's. */
function mixed(seed) {
  let x = seed | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * A list of chunks held as runs; `at(position)` makes a chunk when it is first read.
 * `semantic`: the chunks are `SemanticChunker`'s (their offsets move too), else the engine's.
 */
export class ChunkRuns {
  #root;
  #semantic;
  #drawn; // how many priorities were drawn: the next is drawn from it
  #made = new Map(); // position -> the chunk read there, once read
  #whole = null; // every chunk, once all were read: then the runs are forgotten
  #near = null; // the run last read from: reading in order finds the next chunk there
  #array = null; // array()'s answer, once asked

  constructor(root, semantic, drawn) {
    this.#root = root;
    this.#semantic = semantic;
    this.#drawn = drawn;
  }

  /** The list of `chunks`, each at its index, as they are. */
  static of(chunks, semantic) {
    return new ChunkRuns(chunks.length ? new Run(chunks, 0, chunks.length, 0, mixed(0), null, null)
      : null, semantic, 1);
  }

  get length() {
    return sizeOf(this.#root);
  }

  /** The runs: the tree's root, a node `{chunks, lo, hi, shift, priority, left, right, size}`
   * (null for none), which the tests walk to count what an edit made. */
  get root() {
    return this.#root;
  }

  /** The chunk at `position` (from 0 to length - 1): the same object at each read. */
  at(position) {
    if (this.#whole !== null) return this.#whole[position];
    let chunk = this.#made.get(position);
    if (chunk !== undefined) return chunk;
    let near = this.#near;
    if (near === null || position < near.from || position >= near.to) {
      near = this.#near = this.#find(position);
    }
    const old = near.chunks[near.lo + position - near.from];
    chunk = moved(old, near.shift, position, this.#semantic);
    this.#made.set(position, chunk);
    if (this.#made.size === this.length) {
      // Read whole: one run of the chunks read, which the next edit cuts from.
      this.#whole = Array.from({ length: this.length }, (_, at) => this.#made.get(at));
      this.#root = new Run(this.#whole, 0, this.#whole.length, 0, this.#root.priority, null, null);
      this.#made = new Map();
      this.#near = null;
    }
    return chunk;
  }

  /** The run that holds `position`: its chunks, `from` and `to` (where it starts and ends in
   * the list), `lo` (where in its chunks it starts) and `shift` (how far they move). */
  #find(position) {
    let run = this.#root;
    let start = 0;
    let shift = 0;
    for (;;) {
      shift += run.shift;
      const from = start + sizeOf(run.left);
      const to = from + run.hi - run.lo;
      if (position < from) {
        run = run.left;
      } else if (position >= to) {
        start = to;
        run = run.right;
      } else {
        return { chunks: run.chunks, lo: run.lo, from, to, shift };
      }
    }
  }

  /**
   * The list after an edit: these chunks less those at `gone` (positions, ascending), with
   * `added` at their indices (ascending); of the others (the kept), the first `unmoved`
   * stay, the rest move `by` units. Answers `{list, change}`: the new list and the edit's
   * answer (liveChange's), its removed chunks read from this list.
   */
  edited(gone, added, unmoved, by) {
    let drawn = this.#drawn;
    const fresh = () => mixed(drawn++);
    const oldLength = this.length;
    const length = oldLength - gone.length + added.length;
    let rest = this.#root; // this list's runs from position `taken` on
    let root = null;
    let taken = 0, kept = 0, next = 0, going = 0, coming = 0;
    while (next < length) {
      if (coming < added.length && added[coming].index === next) {
        let end = coming + 1;
        while (end < added.length && added[end].index === next + end - coming) end++;
        root = joined(root, new Run(added, coming, end, 0, fresh(), null, null));
        next += end - coming;
        coming = end;
        continue;
      }
      const first = going;
      while (going < gone.length && gone[going] === taken + going - first) going++;
      if (going > first) {
        rest = split(rest, going - first, fresh)[1];
        taken += going - first;
      }
      // Kept from `taken` to the next chunk removed, the next added, or the first that moves.
      let count = (going < gone.length ? gone[going] : oldLength) - taken;
      if (coming < added.length) count = Math.min(count, added[coming].index - next);
      if (kept < unmoved) count = Math.min(count, unmoved - kept);
      if (!(count > 0)) throw new Error('LiveDocument: an edit\'s reply does not fit the chunks');
      const [piece, after] = split(rest, count, fresh);
      root = joined(root, shifted(piece, kept < unmoved ? 0 : by));
      rest = after;
      taken += count;
      kept += count;
      next += count;
    }
    const list = new ChunkRuns(root, this.#semantic, drawn);
    const removed = gone.map((position) => this.at(position));
    const keptAt = (number) => {
      // The kept chunk `number` is at `number` plus the added ones before it in the list.
      let lo = 0, hi = added.length;
      while (lo < hi) {
        const middle = (lo + hi) >>> 1;
        if (added[middle].index - middle <= number) lo = middle + 1;
        else hi = middle;
      }
      return list.at(number + lo);
    };
    return { list, change: liveChange(length - added.length, keptAt, removed, added) };
  }

  /** The chunks as a plain array, made at the first call (every chunk read) and answered
   * again at the next: this list never changes. */
  array() {
    this.#array ??= Array.from({ length: this.length }, (_, position) => this.at(position));
    return this.#array;
  }
}

/**
 * An edit's answer, `{kept, removed, added}`: `kept` a plain array of the `count` kept
 * chunks, made when first read (`keptAt(number)` each) and kept on the change, so that an
 * edit makes none and the array posts, clones and stores as any. Besides, not enumerable
 * (a clone, a copy or the JSON of the change holds the three arrays only): `keptCount` and
 * `keptAt(number)`, which reads one kept chunk without making the others.
 */
function liveChange(count, keptAt, removed, added) {
  let kept = null;
  const change = {
    get kept() {
      kept ??= Array.from({ length: count }, (_, number) => keptAt(number));
      return kept;
    },
    removed,
    added,
  };
  return Object.defineProperties(change, {
    keptCount: { value: count },
    keptAt: { value: (number) => keptAt(checkedNumber(number, count)) },
  });
}

/** `number` when it is a kept chunk's (a whole number below `count`), else a RangeError or
 * TypeError naming it. */
function checkedNumber(number, count) {
  if (!Number.isInteger(number)) {
    const message =
      `LiveChange.keptAt: number must be an integer, got ${String(number).slice(0, 40)}`;
    throw Object.assign(new TypeError(message), { field: 'number' });
  }
  if (number < 0 || number >= count) {
    const message =
      `LiveChange.keptAt: invalid number ${number} (must be from 0 to keptCount - 1, ${count - 1})`;
    throw Object.assign(new RangeError(message), { field: 'number' });
  }
  return number;
}

/** `chunk` at `index`, its offsets and spans `by` units on: the chunk itself where nothing
 * changes, else a new object (the old one stays as it was: a caller may hold it). */
function moved(chunk, by, index, semantic) {
  if (!by && chunk.index === index) return chunk;
  const next = { ...chunk, index };
  if (!by) return next;
  if (chunk.span) next.span = { start: chunk.span.start + by, end: chunk.span.end + by };
  if (!semantic) return next;
  next.startOffset += by;
  next.endOffset += by;
  if (chunk.overlapSpan) {
    next.overlapSpan = { start: chunk.overlapSpan.start + by, end: chunk.overlapSpan.end + by };
  }
  return next;
}
