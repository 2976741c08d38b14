// The Compare view's second settings, B, in the page's address and its share link: each of
// B's query parameters is the one the page writes for its own settings (settings.js,
// tokens.js), after `b.`: `?mode=semantic&targetSize=1000&b.mode=engine&b.chunkSize=800`.

import { readQuery, writeQuery } from './settings.js';
import { readTokenQuery, writeTokenQuery } from './tokens.js';

const PREFIX = 'b.';

/** B's parameters of `search` (a query), without their prefix. */
function ownParameters(search) {
  const own = new URLSearchParams();
  for (const [key, value] of new URLSearchParams(search)) {
    if (key.startsWith(PREFIX)) own.append(key.slice(PREFIX.length), value);
  }
  return own;
}

/**
 * The comparison a query holds, `{mode, values, tokens}` as the page holds its own settings
 * (values read, not judged), or null when it holds none.
 */
export function readComparison(search) {
  const own = ownParameters(search);
  if (!own.has('mode')) return null;
  const { mode, values } = readQuery(own);
  return { mode, values, tokens: readTokenQuery(own) };
}

/** Add the comparison `side` (`{mode, values, tokens}`) to `params`, a URLSearchParams. */
export function writeComparison(params, { mode, values, tokens }) {
  const own = new URLSearchParams(writeQuery({ mode, values, sample: null }));
  writeTokenQuery(own, tokens);
  for (const [key, value] of own) params.set(`${PREFIX}${key}`, value);
}
