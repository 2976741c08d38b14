// A transcript typed or opened: a JSON list of turns `[{seq, itemId, text, startMs, endMs}]`,
// or JSON Lines (a turn a line), read as the command line reads one (`chunker turns`).
// Syntax errors say where they are and what is wrong, by line and column, so they can be
// found in a long file.

import { codePointLength } from './format.js';

/** An error in the transcript's JSON: what is wrong, at a 1-based line and column. `form` is
 * what the text was read as: 'JSON' or 'JSON Lines'. */
export class TranscriptJsonError extends SyntaxError {
  constructor(problem, line, column, form = 'JSON') {
    super(`The transcript is not valid ${form}: at line ${line}, column ${column}: ${problem}.`);
    this.name = 'TranscriptJsonError';
    this.problem = problem;
    this.line = line;
    this.column = column;
    this.form = form;
  }

  /** The message, naming the file `name` the transcript came from. */
  about(name) {
    return `${name} is not valid ${this.form}: at line ${this.line}, column ${this.column}: `
      + `${this.problem}.`;
  }
}

const MORE = 'more after the end of the JSON';
// What to do when a text is one JSON value and more: the two forms a transcript takes.
const HINT = ' (a transcript is one JSON list of turns, or JSON Lines: one turn a line)';

// A line of JSON Lines with nothing to read: white space as Python's str.strip() sees it, as
// the command line and the copied Python skip such lines.
const BLANK_LINE_RE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/**
 * Read `text` as the command line reads a transcript: `{turns, form}`. A JSON list is the
 * turns (`form` 'list'); another JSON value alone, a list of that one turn ('one'); a text
 * that is one JSON value and more, JSON Lines ('lines'): each line a turn, blank lines
 * skipped. An empty text is no turns. Checking each turn is left to chunkTurns, whose
 * messages name the turn (`turns[3] has no 'text'`).
 */
export function readTranscript(text) {
  if (text.trim() === '') return { turns: [], form: 'list' };
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const found = located(text, error);
    if (found.problem !== MORE) throw found.error();
    // One value and more: JSON Lines, when its first line (not blank) is a value of its own;
    // else the error as it is, with what a transcript may be.
    const lines = text.split('\n');
    const first = lines.find((line) => !BLANK_LINE_RE.test(line));
    if (firstError(first) !== null) throw located(text, error, HINT).error();
    return { turns: jsonLines(lines), form: 'lines' };
  }
  return Array.isArray(value) ? { turns: value, form: 'list' } : { turns: [value], form: 'one' };
}

/** The turns of `text`; see readTranscript. */
export const parseTurns = (text) => readTranscript(text).turns;

/** Each line of `lines` that is not blank, parsed; a line that is not JSON throws. */
function jsonLines(lines) {
  const turns = [];
  lines.forEach((line, at) => {
    if (BLANK_LINE_RE.test(line)) return;
    try {
      turns.push(JSON.parse(line));
    } catch (error) {
      const { problem, column } = located(line, error);
      throw new TranscriptJsonError(problem, at + 1, column, 'JSON Lines');
    }
  });
  return turns;
}

/**
 * Where `text`, which JSON.parse refused with `error`, breaks JSON's grammar, and what is
 * wrong (`suffix` added): `{problem, line, column, error()}`. The browser's message gives no
 * position for an unexpected token, a position in UTF-16 units for the rest, and can quote
 * the text: where and what are found here instead.
 */
function located(text, error, suffix = '') {
  const { at, problem } = firstError(text) ?? { at: text.length, problem: error.message };
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  const line = before.split('\n').length;
  const column = codePointLength(before.slice(lineStart)) + 1;
  return { problem, line, column,
    error: () => new TranscriptJsonError(problem + suffix, line, column) };
}

// What the scan of firstError expects next.
const VALUE = 'value';
const FIRST_VALUE = 'first value';  // just after '[': a value or ']'
const KEY = 'key';
const FIRST_KEY = 'first key';  // just after '{': a key or '}'
const COLON = 'colon';
const AFTER = 'after';  // a value inside a list or an object
const END = 'end';  // the whole value

// Sticky patterns, each tried at one position: white space, -12.5e3, a literal.
const SPACE_RE = /[ \t\n\r]*/y;
const NUMBER_RE = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERAL_RE = /true|false|null/y;

/**
 * Where `text`, which JSON.parse refused, first breaks JSON's grammar: `{at, problem}`, `at`
 * an index into `text`, or null if it breaks none. Run on a refusal only; linear, with the
 * open lists and objects on a stack of its own (nesting deep enough to overflow the call
 * stack is still valid JSON).
 */
function firstError(text) {
  const open = [];  // what ends each open list or object: ']' or '}'
  let expect = VALUE;
  let i = 0;
  const sticky = (re) => {
    re.lastIndex = i;
    return re.test(text) ? re.lastIndex : -1;
  };
  const closed = () => {
    open.pop();
    i += 1;
    return open.length ? AFTER : END;
  };
  for (;;) {
    i = sticky(SPACE_RE);
    if (i >= text.length) {
      return expect === END ? null : { at: i, problem: 'the text ends before the JSON does' };
    }
    const c = text[i];
    if (expect === END) return { at: i, problem: 'more after the end of the JSON' };
    if (expect === AFTER) {
      if (c === open.at(-1)) expect = closed();
      else if (c === ',') [i, expect] = [i + 1, open.at(-1) === ']' ? VALUE : KEY];
      else return { at: i, problem: `expected ',' or '${open.at(-1)}', not ${shown(text, i)}` };
    } else if (expect === COLON) {
      if (c !== ':') return { at: i, problem: `expected ':' after the key, not ${shown(text, i)}` };
      [i, expect] = [i + 1, VALUE];
    } else if (expect === KEY || expect === FIRST_KEY) {
      if (c === '}' && expect === FIRST_KEY) {
        expect = closed();
      } else if (c === '"') {
        const end = stringEnd(text, i);
        if (end.problem) return end;
        [i, expect] = [end.at, COLON];
      } else {
        return { at: i, problem: c === '}' ? "a ',' before '}' (JSON allows none there)"
          : `expected a key in double quotes, not ${shown(text, i)}` };
      }
    } else if (c === ']' && expect === FIRST_VALUE) {
      expect = closed();
    } else if (c === '[' || c === '{') {
      open.push(c === '[' ? ']' : '}');
      [i, expect] = [i + 1, c === '[' ? FIRST_VALUE : FIRST_KEY];
    } else if (c === '"') {
      const end = stringEnd(text, i);
      if (end.problem) return end;
      [i, expect] = [end.at, open.length ? AFTER : END];
    } else {
      const end = Math.max(sticky(NUMBER_RE), sticky(LITERAL_RE));
      if (end < 0) {
        return { at: i, problem: c === ']' && open.at(-1) === ']'
          ? "a ',' before ']' (JSON allows none there)"
          : `expected a value, not ${shown(text, i)}` };
      }
      [i, expect] = [end, open.length ? AFTER : END];
    }
  }
}

// What may follow a backslash in a JSON string (\u is checked on its own).
const ESCAPES = '"\\/bfnrt';
const HEX_RE = /[0-9a-fA-F]{4}/y;

/** The end of the string that opens at `start` (just past its closing quote), or where and
 * why it breaks: `{at}` or `{at, problem}`. */
function stringEnd(text, start) {
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') return { at: i + 1 };
    if (c < ' ') {
      return { at: i, problem: c === '\n' ? 'a line break inside a string (write it \\n)'
        : `a control character inside a string (${shown(text, i)})` };
    }
    if (c === '\\') {
      HEX_RE.lastIndex = i + 2;
      const escaped = text[i + 1];
      if (escaped === 'u' && HEX_RE.test(text)) i += 5;
      else if (escaped !== undefined && escaped !== 'u' && ESCAPES.includes(escaped)) i += 1;
      else return { at: i, problem: 'a backslash that starts no escape JSON knows' };
    }
  }
  return { at: start, problem: 'a string that opens here and is never closed' };
}

// A character a message cannot show as itself: a control, a format mark (a byte order
// mark, U+FEFF), white space other than the plain space.
const UNSEEN_RE = /^[\p{C}\p{Z}]$/u;

/** The character at `i` as a message shows it: 'x', or U+FEFF when it is not seen. */
function shown(text, i) {
  const point = text.codePointAt(i);
  const char = String.fromCodePoint(point);
  return UNSEEN_RE.test(char) ? `U+${point.toString(16).toUpperCase().padStart(4, '0')}`
    : `'${char}'`;
}
