// The spec's word: a letter or a digit, then letters, digits and combining marks, in any script.
// The chunker (in Python) is the authority on words; the page uses this same rule only for
// presentation: marking the matched words of a snippet, and the demonstration embedding.
// "Q3's" -> "Q3", "s"; "Re\u0301sume\u0301" is one word.
export const WORD_RE = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

/** A text as the lexical functions compare it: NFC, then lower case. */
export function fold(text) {
  return text.normalize('NFC').toLowerCase();
}

/** The length of `text` in characters (code points), as the chunker's sizes count them. */
export function codePointLength(text) {
  let length = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character in two JavaScript units.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) { length -= 1; i += 1; }
    }
  }
  return length;
}
