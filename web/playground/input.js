// The text being chunked: the source menu and the text area. Every edit goes into the
// source's own buffer, which is what lets a switch of sample or mode come back to it intact.

import { el } from './dom.js';

const KIND = {
  document: { group: 'Documents', label: 'Document' },
  transcript: { group: 'Transcripts', label: 'Transcript: a JSON list of turns, or JSON Lines' },
};

export function createInput({ select, textarea, label, sources, onPick, onEdit }) {
  let shown = null;
  // Reading a text area's value after an edit copies its whole text out of the editor: on
  // every key of a 1 MB text, that cost more than the browser's own edit. So an edit only
  // marks the text unread, and it is read when it is needed (`read`).
  let unread = false;
  const read = () => {
    if (unread) shown.text = textarea.value;
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
          .map((source) => el('option', { value: source.id }, source.label))));
      select.replaceChildren(...groups);
      if (shown) select.value = shown.id;
    },

    /** Bring the shown source's text (and its name in the menu) up to date with the text
     * area. */
    read,

    /** The text box's text, edited but not read yet, is `source`'s from now on (an edit of
     * a sample becomes the user's own text): shown in the menu, the box left as it is. */
    adopt(source) {
      shown = source;
      select.value = source.id;
    },

    show(source) {
      if (shown) read();
      shown = source;
      select.value = source.id;
      label.textContent = KIND[source.kind].label;
      if (textarea.value !== source.text) textarea.value = source.text;
      textarea.placeholder = source.kind === 'transcript'
        ? '[{"seq": 1, "itemId": "a", "text": "Hello.", "startMs": 0, "endMs": 900}, …]'
        : 'Paste or type a document: Markdown or plain text.';
    },
  };
}
