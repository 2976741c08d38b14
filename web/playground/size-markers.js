// The size settings a histogram of chunk lengths marks, as lines: the page's and the Compare
// view's histograms mark them alike.

/** The markers of `mode`'s sizes in `values` ([{label, value}]), those set to a length. */
export function sizeMarkers(mode, values) {
  const wanted = {
    semantic: [['target', values.targetSize], ['max', values.maxSize]],
    engine: [['chunk size', values.chunkSize]],
    turns: [['max', values.maxChars]],
  }[mode];
  return wanted.filter(([, value]) => Number.isFinite(value) && value > 0)
    .map(([label, value]) => ({ label, value }));
}
