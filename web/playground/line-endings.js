// A text box holds line feeds only: the browser turns each CR LF pair and each lone CR into
// LF as a text goes in (HTML's "normalize newlines"), and gives that back. So every text the
// page shows is turned so first, where it comes in (sources.js): what is chunked, exported
// and copied is then what the box holds, and its offsets are the box's.

const BREAK_RE = /\r\n?/g;

/**
 * `text` as a text box holds it: `{text, windows, mac}`, the counts of CR LF pairs and of
 * lone CRs that became LF. A text without CR is answered as it is, not copied.
 */
export function asTextBoxHolds(text) {
  if (!text.includes('\r')) return { text, windows: 0, mac: 0 };
  let windows = 0;
  let mac = 0;
  const held = text.replace(BREAK_RE, (found) => {
    if (found.length === 2) windows += 1;
    else mac += 1;
    return '\n';
  });
  return { text: held, windows, mac };
}

const plural = (n, one, many) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What the page says of an opened file whose line endings it changed (`source.windows` and
 * `source.mac`, as counted by asTextBoxHolds), or '' when it changed none. */
export function lineEndingsNote({ name, windows = 0, mac = 0 }) {
  if (!windows && !mac) return '';
  const changed = [windows && plural(windows, 'Windows line ending (CR LF)',
    'Windows line endings (CR LF)'), mac && plural(mac, 'old Mac line ending (CR)',
    'old Mac line endings (CR)')].filter(Boolean).join(' and ');
  return `${name}: its ${changed} became line feeds (LF) on opening, as a text box holds `
    + 'no other: the chunks, their offsets, the downloads and the copied code are of the text '
    + 'as shown here.';
}
