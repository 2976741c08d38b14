// Take the chunks away: as a JSON array or as JSON Lines (one chunk a line, as vector stores
// ingest them), in the original's shape and key names, exactly as the facade answered them.

/** Save `raw` (the facade's answer) as `<name>.json`, or `.jsonl` when `lines` is true. */
export function download(raw, name, lines) {
  const body = lines
    ? raw.map((record) => JSON.stringify(record)).join('\n') + (raw.length ? '\n' : '')
    : `${JSON.stringify(raw, null, 2)}\n`;
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
