// Where a chunking cuts its text, and where two chunkings of one text cut differently. A cut
// is an offset where a chunk's span starts or ends (JavaScript indices, as the spans are):
// the Compare view marks each side's cuts, and those the other side does not make.

/**
 * The offsets where `chunks` (the view model of chunkers.js) start and end, in order, each
 * once. A span of no length (a chunk of white space alone) cuts nothing.
 */
export function cutsOf(chunks) {
  const offsets = new Set();
  for (const { start, end } of chunks) {
    if (start < 0 || end <= start) continue;
    offsets.add(start);
    offsets.add(end);
  }
  return Float64Array.from(offsets).sort();
}

/**
 * Two sides' cuts (each from `cutsOf`) compared: `{a, b, differences}`, `a` and `b` mapping
 * each of that side's cuts to 'both' (the other side makes it too) or 'only', and
 * `differences` the cuts one side alone makes, in order, as `{at, side}` ('a' or 'b').
 */
export function compareCuts(cutsA, cutsB) {
  const a = new Map();
  const b = new Map();
  const differences = [];
  let i = 0;
  let j = 0;
  while (i < cutsA.length || j < cutsB.length) {
    if (j >= cutsB.length || (i < cutsA.length && cutsA[i] < cutsB[j])) {
      a.set(cutsA[i], 'only');
      differences.push({ at: cutsA[i], side: 'a' });
      i += 1;
    } else if (i >= cutsA.length || cutsB[j] < cutsA[i]) {
      b.set(cutsB[j], 'only');
      differences.push({ at: cutsB[j], side: 'b' });
      j += 1;
    } else {
      a.set(cutsA[i], 'both');
      b.set(cutsB[j], 'both');
      i += 1;
      j += 1;
    }
  }
  return { a, b, differences };
}
