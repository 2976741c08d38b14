// The text being chunked: the source menu and the text area. Every edit goes into the
// source's own buffer, which is what lets a switch of sample or mode come back to it intact.

import { el } from './dom.js';
import { labelOf } from './sources.js';

const KIND = {
  document: { group: 'Documents', label: 'Document' },
  transcript: { group: 'Transcripts', label: 'Transcript: a JSON list of turns' },
};

export function createInput({ select, textarea, label, sources, onPick, onEdit }) {
  let shown = null;
  // Reading a text area's value after an edit copies its whole text out of the editor: on
  // every key of a 1 MB text, that cost more than the browser's own edit. So an edit only
  // marks the text unread, and it is read when it is needed (`read`).
  let unread = false;
  // The shown source's name in the menu, anew: a sample edited is the user's text.
  const relabel = () => {
    const option = [...select.options].find(({ value }) => value === shown.id);
    if (option && option.textContent !== labelOf(shown)) option.textContent = labelOf(shown);
  };
  const read = () => {
    if (unread) {
      shown.text = textarea.value;
      relabel();
    }
    unread = false;
  };
  textarea.addEventListener('input', () => {
    unread = true;
    onEdit(shown);
  });
  select.addEventListener('change', () => onPick(select.value));

  return {
    /** Rebuild the menu (a file was opened), keeping the choice. */
    refresh() {
      const groups = Object.entries(KIND).map(([kind, { group }]) => el('optgroup', { label: group },
        ...sources.list().filter((source) => source.kind === kind)
          .map((source) => el('option', { value: source.id }, labelOf(source)))));
      select.replaceChildren(...groups);
      if (shown) select.value = shown.id;
    },

    /** Bring the shown source's text (and its name in the menu) up to date with the text
     * area. */
    read,

    show(source) {
      if (shown) read();
      shown = source;
      select.value = source.id;
      relabel();
      label.textContent = KIND[source.kind].label;
      if (textarea.value !== source.text) textarea.value = source.text;
      textarea.placeholder = source.kind === 'transcript'
        ? '[{"seq": 1, "itemId": "a", "text": "Hello.", "startMs": 0, "endMs": 900}, …]'
        : 'Paste or type a document: Markdown or plain text.';
    },
  };
}
