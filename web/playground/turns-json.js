// A transcript typed or opened as JSON: a list of turns `[{seq, itemId, text, startMs, endMs}]`.
// Syntax errors say where they are, by line and column, so they can be found in a long file.

/** An error in the transcript's JSON, with the 1-based line and column it was found at. */
export class TranscriptJsonError extends SyntaxError {
  constructor(message, line, column) {
    super(`JSON error at line ${line}, column ${column}: ${message}`);
    this.name = 'TranscriptJsonError';
    this.line = line;
    this.column = column;
  }
}

/**
 * Parse `text` into turns; an empty text is no turns. Checking each turn is left to
 * chunkTurns, whose messages name the turn (`turns[3] has no 'text'`).
 */
export function parseTurns(text) {
  if (text.trim() === '') return [];
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const { line, column } = whereIs(text, error.message);
    throw new TranscriptJsonError(plainMessage(error.message), line, column);
  }
  if (!Array.isArray(value)) {
    throw new TypeError('A transcript is a JSON list of turns, such as '
      + '[{"seq": 1, "text": "Hello."}, {"seq": 2, "text": "Hi."}]');
  }
  return value;
}

// V8 says "… in JSON at position 12 (line 1 column 13)"; older engines give the position
// alone, and "Unexpected end of JSON input" gives neither (the error is at the end).
const LINE_COLUMN_RE = /\(line (\d+) column (\d+)\)/;
const POSITION_RE = /at position (\d+)/;

function whereIs(text, message) {
  const lineColumn = LINE_COLUMN_RE.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = POSITION_RE.exec(message);
  const at = position ? Number(position[1]) : text.length;
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: at - lineStart + 1 };
}

function plainMessage(message) {
  return message.replace(LINE_COLUMN_RE, '').replace(/\s*in JSON at position \d+/, '').trim();
}
