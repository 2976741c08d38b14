// A link that carries the user's text: the settings in the query, the text compressed after
// `#text=`. Browsers never send what follows `#` to the server, and the page takes it out of
// its address as soon as it has read it, so the text stays out of logs and of the history.

const KEY = '#text=';

// Browsers open links of megabytes (Chromium: 2 MB), but mail, chat and forms cut or refuse
// long ones; 32,000 characters of link hold some 60 KB of Markdown, compressed.
export const LINK_LIMIT = 32_000;

// Deflate then base64url (A-Z a-z 0-9 - _), which a URL carries as it is.
async function packed(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = '';
  // A piece at a time: a spread of the whole array would pass too many arguments.
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

// Fatal: a link whose bytes are not UTF-8 was damaged, and is refused rather than shown.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

async function unpacked(base64) {
  const binary = atob(base64.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return UTF8.decode(await new Response(stream).arrayBuffer());
}

/**
 * `url` with `text` after its `#`: `{href, fits: true}`, or, when that would be longer than
 * LINK_LIMIT, `{href: url, fits: false, length}` with the length it would have had.
 */
export async function linkWithText(url, text) {
  const href = `${url}${KEY}${await packed(text)}`;
  return href.length <= LINK_LIMIT ? { href, fits: true }
    : { href: url, fits: false, length: href.length };
}

/** Whether a link's `hash` carries a text. */
export const carriesText = (hash) => hash.startsWith(KEY);

/**
 * The text a link's `hash` carries (see carriesText). Rejects, saying so in the page's words,
 * when it cannot be read: a link cut short or changed on its way (the browser's own words,
 * "Failed to execute 'atob'…", say nothing a person can act on).
 */
export async function textOfLink(hash) {
  try {
    return await unpacked(hash.slice(KEY.length));
  } catch {
    throw new Error('The text in the link could not be read: the link was cut short or changed '
      + 'on its way. Ask for the link again, or for the text itself.');
  }
}
