// How sizes, offsets and times read on the page.

// One formatter for the page: `toLocaleString` builds a new one on every call, which showed
// in profiles of a redraw with thousands of rows.
const COUNT = new Intl.NumberFormat('en-US');

/** A count with thousands separators: 12,345. */
export function formatCount(n) {
  return COUNT.format(n);
}

/** A count and its noun, singular for one: "1 chunk", "12,345 chunks". */
export function countOf(n, noun) {
  return `${formatCount(n)} ${n === 1 ? noun : `${noun}s`}`;
}

/** Milliseconds as m:ss.s (or h:mm:ss.s), '?' when unknown. */
export function formatMs(ms) {
  if (ms == null || !Number.isFinite(ms)) return '?';
  const tenths = Math.round(ms / 100);
  const seconds = Math.floor(tenths / 10) % 60;
  const minutes = Math.floor(tenths / 600) % 60;
  const hours = Math.floor(tenths / 36000);
  const ss = `${String(seconds).padStart(2, '0')}.${tenths % 10}`;
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${ss}` : `${minutes}:${ss}`;
}

/** The first words of `text`, white space collapsed, at most `limit` characters. */
export function firstWords(text, limit = 90) {
  const head = text.slice(0, limit * 2).replace(/\s+/g, ' ').trim();
  return head.length > limit ? `${head.slice(0, limit - 1)}…` : head;
}

/** The length of `text` in characters (code points), as the chunker's sizes count them. */
export function codePointLength(text) {
  let length = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character in two JavaScript units.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) { length -= 1; i += 1; }
    }
  }
  return length;
}
