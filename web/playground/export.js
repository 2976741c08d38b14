// Take the chunks away: as JSON or as JSON Lines (one chunk a line, as vector stores ingest
// them). Each chunk is the facade's answer with its spans (what the page colours by, in
// JavaScript's string indices), and the file says what was cut, and how: the source's name and
// the settings, by the names the facade and the copied JavaScript take.

/**
 * Save `chunks` of the text named `source`, cut with `settings` (`{mode, ...options}`), as
 * `<name>.json`: `{source, settings, chunks}`, or, when `lines` is true, `<name>.jsonl`: a
 * chunk a line, each `{source, ...chunk, settings}` (the command line's records, `chunker
 * chunk`, and the settings).
 */
export function download({ chunks, source, settings }, name, lines) {
  const body = lines
    ? chunks.map((chunk) => JSON.stringify({ source, ...chunk, settings })).join('\n')
      + (chunks.length ? '\n' : '')
    : `${JSON.stringify({ source, settings, chunks }, null, 2)}\n`;
  const type = lines ? 'application/jsonl' : 'application/json';
  const url = URL.createObjectURL(new Blob([body], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name}.${lines ? 'jsonl' : 'json'}`;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once started; the URL only holds the blob in memory.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The file name for the chunks of `sourceName`: `guide.md` -> `guide-chunks`. */
export function exportName(sourceName, mode) {
  const base = sourceName.replace(/\.[^.]*$/, '') || 'document';
  return `${base}-${mode === 'turns' ? 'passages' : 'chunks'}`;
}
