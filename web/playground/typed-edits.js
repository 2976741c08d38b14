// What the text box's own events say of each edit: where it was (the selection when
// `beforeinput` came, the caret after `input`) and how much it put there. With that, the
// edit between two texts is found by comparing them around it alone (live-text.js), where a
// comparison of the whole texts would cost milliseconds a key in 5 MB. What the events do not
// say for sure (an IME's composition, undo and redo, a drop, a spelling fix) leaves the edit
// unknown, and the whole texts are compared.

// Those that replace the selection with what they insert, and the caret after it.
const INSERTS = new Set(['insertText', 'insertLineBreak', 'insertParagraph', 'insertFromPaste']);
// Those that delete the selection, or (none selected) what lies before or after the caret,
// leaving the caret where the deleted text began.
const DELETES = new Set(['deleteContentBackward', 'deleteContentForward', 'deleteWordBackward',
  'deleteWordForward', 'deleteSoftLineBackward', 'deleteSoftLineForward',
  'deleteHardLineBackward', 'deleteHardLineForward', 'deleteByCut', 'deleteContent']);

/**
 * Watch `textarea`'s edits. `take()` answers those since the last `take` (or `forget`), in
 * order, each `{from, to, length, caret}`: `text[from:to]` replaced by `length` units, the
 * caret at `caret` after it (`to` or `length` null where the event does not tell: a delete
 * after the caret, a paste; the texts' lengths tell, for one such edit), or null when an edit
 * was one the events do not say. Its listeners must come before any that read the text.
 */
export function watchEdits(textarea) {
  let edits = [];
  let coming = null; // what `beforeinput` saw, until its `input`
  textarea.addEventListener('beforeinput', (event) => {
    const seen = { type: event.inputType, data: event.data, start: textarea.selectionStart,
      end: textarea.selectionEnd };
    coming = seen;
    // The browser fires the edit's `input` in the same task, if it makes the edit at all: a
    // later `input` (the page's own, say) is not this edit's.
    setTimeout(() => {
      if (coming === seen) coming = null;
    });
  });
  textarea.addEventListener('input', (event) => {
    const seen = coming;
    coming = null;
    if (edits === null) return;
    const edit = seen && event.inputType === seen.type && !event.isComposing
      ? editOf(seen, textarea.selectionStart) : null;
    if (edit) edits.push(edit);
    else edits = null;
  });
  return {
    take() {
      const taken = edits;
      edits = [];
      return taken;
    },
    /** The text was set by the page: the edits before are of another text. */
    forget() {
      edits = [];
      coming = null;
    },
  };
}

function editOf({ type, data, start, end }, caret) {
  if (INSERTS.has(type)) {
    const length = type === 'insertText' ? data?.length ?? null
      : type === 'insertFromPaste' ? null : 1; // a line break: '\n'
    if (type === 'insertText' && length === null) return null;
    return { from: start, to: end, length, caret };
  }
  if (!DELETES.has(type)) return null;
  if (start !== end) return { from: start, to: end, length: 0, caret };
  if (type.endsWith('Backward')) return { from: caret, to: start, length: 0, caret };
  return { from: start, to: null, length: 0, caret };
}

/**
 * What `edits` (as `take` answers them) make of a text of `before` units, one of `after`
 * units: `{from, to, end}` (the text after is the one before with `[from:to]` replaced by
 * what the text after holds at `[from:end]`), or null when they do not add up, or say nothing.
 */
export function editsTogether(edits, before, after) {
  if (!edits?.length) return null;
  // The one edit of a size untold (at most one) takes the difference the others leave.
  let told = 0;
  let untold = 0;
  for (const { from, to, length } of edits) {
    if (to === null || length === null) untold += 1;
    else told += length - (to - from);
  }
  if (untold > 1) return null;
  const missing = after - before - told;
  let length = before;
  let from = Infinity, to = 0, end = 0; // before[:from] and before[to:] are now [:from], [end:]
  for (const edit of edits) {
    const f = edit.from;
    const t = edit.to ?? f - missing;
    const l = edit.length ?? missing + (t - f);
    if (!(f >= 0 && t >= f && t <= length && l >= 0 && edit.caret === f + l)) return null;
    if (from === Infinity) {
      [from, to, end] = [f, t, f + l];
    } else {
      const past = Math.max(t, end);
      to += past - end;
      end = past + l - (t - f);
      from = Math.min(from, f);
    }
    length += l - (t - f);
  }
  return length === after ? { from, to, end } : null;
}
