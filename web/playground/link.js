// A link that carries what the user typed: the settings in the query; after the `#`, the text
// (`text=`) and the rest of their work (`work=`: the search and the Tune view, see work.js),
// each compressed. Browsers never send what follows `#` to the server, and the page takes it
// out of its address as soon as it has read it, so both stay out of logs and of the history.

// Browsers open links of megabytes (Chromium: 2 MB), but mail, chat and forms cut or refuse
// long ones; compressed, a link of this many characters holds more Markdown than that.
export const LINK_LIMIT = 32_000;

// Each part of the `#`: `name=` then its value packed. Base64url has no `&` or `=`.
const PART_RE = /^(text|work)=([A-Za-z0-9_-]*)$/;

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
 * `url` with `text` (a string, or null for none) and `work` (a JSON value, or null) after its
 * `#`, as many of the two as fit in LINK_LIMIT, the text first: `{href, text, work, length}`,
 * `text` and `work` each 'carried', 'left' (too long) or 'none', and `length` the length the
 * link with the text would have had.
 */
export async function linkWith(url, { text, work }) {
  const textPart = text === null ? null : `text=${await packed(text)}`;
  const workPart = work === null ? null : `work=${await packed(JSON.stringify(work))}`;
  const withParts = (...parts) => {
    const given = parts.filter(Boolean);
    return given.length ? `${url}#${given.join('&')}` : url;
  };
  const said = (part, carried) => (part === null ? 'none' : carried ? 'carried' : 'left');
  const withText = withParts(textPart);
  const both = withParts(textPart, workPart);
  const textFits = withText.length <= LINK_LIMIT;
  const workFits = (textFits ? both : withParts(workPart)).length <= LINK_LIMIT;
  const href = withParts(textFits && textPart, workFits && workPart);
  return { href, text: said(textPart, textFits), work: said(workPart, workFits),
    length: withText.length };
}

/** Whether a link's `hash` carries a text or work (see linkWith), whole or damaged. */
export const carriesWork = (hash) => /^#(?:text|work)=/.test(hash);

/**
 * What a link's `hash` carries: `{text, work}`, each null when not carried. Rejects, saying
 * so in the page's words, when a part cannot be read: a link cut short or changed on its way
 * (the browser's own words, "Failed to execute 'atob'…", say nothing a person can act on).
 */
export async function readLink(hash) {
  const read = { text: null, work: null };
  try {
    for (const part of hash.slice(1).split('&')) {
      const [, name, value] = PART_RE.exec(part) ?? [];
      if (!name) throw new Error('no part of a link');
      const unpackedValue = await unpacked(value);
      read[name] = name === 'work' ? JSON.parse(unpackedValue) : unpackedValue;
    }
  } catch {
    throw new Error('The text in the link could not be read: the link was cut short or changed '
      + 'on its way. Ask for the link again, or for the text itself.');
  }
  return read;
}
