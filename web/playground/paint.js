// Which chunks cover each piece of the text. The views draw from this: a piece inside a
// chunk's own span takes its colour; a piece the next chunk repeats as overlap is striped.
// Elements carry `data-c` (the chunks whose span holds them) and `data-l` (the chunks that
// repeat them as overlap), space-separated, which is what selection looks up.

/**
 * Cut [0, textLength) at every chunk and overlap edge. Answers `{bounds, owners, leads}`:
 * piece i runs from bounds[i] to bounds[i + 1]; owners[i] and leads[i] list chunk indexes
 * (null when none). Linear in the chunks apart from one sort of their edges.
 */
export function paintPieces(textLength, chunks) {
  return piecesBetween(0, textLength, chunks, 0, chunks.length);
}

/**
 * The pieces of [from, to) as `paintPieces` cuts them (each clipped to it), from the chunks
 * `chunks[first:last]`: those whose span or overlap may reach into it (any other chunk's
 * edges lie outside, and it covers no piece inside).
 */
export function piecesBetween(from, to, chunks, first, last) {
  const clamp = (x) => Math.max(from, Math.min(x, to));
  const edges = [from, to];
  for (let i = first; i < last; i += 1) {
    const chunk = chunks[i];
    if (chunk.start >= 0) edges.push(clamp(chunk.start), clamp(chunk.end));
    if (chunk.leadStart >= 0) edges.push(clamp(chunk.leadStart), clamp(chunk.leadEnd));
  }
  const sorted = Int32Array.from(edges).sort();
  let count = 0;
  for (let i = 0; i < sorted.length; i += 1) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[count++] = sorted[i];
  }
  const bounds = sorted.subarray(0, count);
  const owners = new Array(Math.max(count - 1, 0)).fill(null);
  const leads = new Array(Math.max(count - 1, 0)).fill(null);
  const cover = (into, index, start, end) => {
    start = clamp(start);
    end = clamp(end);
    for (let i = pieceAt(bounds, start); i < owners.length && bounds[i] < end; i += 1) {
      (into[i] ??= []).push(index);
    }
  };
  for (let i = first; i < last; i += 1) {
    const chunk = chunks[i];
    if (chunk.start >= 0) cover(owners, chunk.index, chunk.start, chunk.end);
    if (chunk.leadStart >= 0) cover(leads, chunk.index, chunk.leadStart, chunk.leadEnd);
  }
  return { bounds, owners, leads };
}

/** The piece that holds `position`: the last i with bounds[i] <= position. */
export function pieceAt(bounds, position) {
  let low = 0;
  let high = bounds.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (bounds[mid] <= position) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The colour classes of an element held by `owners` and repeated by `leads`. */
export function paintClasses(owners, leads) {
  const classes = ['chunk'];
  if (owners) classes.push(`c${owners[0] % 6}`);
  if (leads) classes.push('overlap', `l${leads[0] % 6}`);
  return classes;
}

/** Mark the elements of chunk `index` under `root` as selected (and unmark the rest). */
export function markSelection(root, index) {
  for (const node of root.querySelectorAll('.selected, .selected-lead')) {
    node.classList.remove('selected', 'selected-lead');
  }
  if (index < 0) return;
  for (const node of root.querySelectorAll(`[data-c~="${index}"]`)) node.classList.add('selected');
  for (const node of root.querySelectorAll(`[data-l~="${index}"]`)) {
    node.classList.add('selected-lead');
  }
}
