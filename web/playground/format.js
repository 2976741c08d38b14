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

// A high surrogate followed by a low one: one character in two JavaScript units.
const SURROGATE_PAIR = /[\ud800-\udbff][\udc00-\udfff]/g;

/** The length of `text` in characters (code points), as the chunker's sizes count them. */
export function codePointLength(text) {
  // The regex engine counts the pairs several times faster than a loop over the units.
  return text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
}

/** What a count of tokens reads as: "1 token", "1,234 tokens". */
export const tokensText = (tokens) => countOf(tokens, 'token');

/** What a chunk's badge says: its index and type, and its tokens when counted (with the flag
 * of a chunk over the token budget: main.js sets `over`). */
export function badgeOf(chunk) {
  const head = `${chunk.index} · ${chunk.type}`;
  if (chunk.tokens == null) return head;
  return `${head} · ${tokensText(chunk.tokens)}${chunk.over ? ' · over budget' : ''}`;
}
