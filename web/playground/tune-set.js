// Evaluation sets for the Tune view, in the facade's shape (`api.evaluate`): `{corpora: {id:
// text}, questions: [{question, corpusId, references: [[start, end], ...]}]}`, excerpts as
// JavaScript indices. From the built-in questions on the sample guide, from files (our JSON,
// or Chroma's questions_df.csv with its corpus files), or from questions the user adds on the
// shown document. Bad files are refused with a message that names the file and the place.

import { store, storedJson } from './storage.js';
import { QUESTIONS_KEY } from './work.js';

// Fatal: a file that is not UTF-8 is refused, not read as U+FFFD.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The built-in set: web/samples/guide-questions.json, each excerpt found in its document. */
export async function sampleSet() {
  const about = await fetchOk('samples/guide-questions.json').then((r) => r.json());
  const text = await fetchOk(`samples/${about.document}`).then((r) => r.text());
  const questions = about.questions.map(({ question, excerpt }, row) => {
    const start = text.indexOf(excerpt);
    if (start < 0) throw new Error(`guide-questions.json: question ${row + 1}'s excerpt is not in ${about.document}`);
    return { question, corpusId: about.document, references: [[start, start + excerpt.length]] };
  });
  return { corpora: { [about.document]: text }, questions };
}

async function fetchOk(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response;
}

/**
 * The set in `files` (a FileList or array of File): one .json file in the facade's shape, or
 * Chroma's `questions_df.csv` with the `<corpus_id>.md` files it names, picked together.
 * Throws an Error naming the file and the place when they are not a set.
 */
export async function setFromFiles(files) {
  const texts = new Map();
  for (const file of files) texts.set(file.name, await readText(file));
  const jsons = [...texts.keys()].filter((name) => /\.json$/i.test(name));
  if (jsons.length === 1 && texts.size === 1) return checkedSet(parseJson(jsons[0], texts.get(jsons[0])), jsons[0]);
  const csv = [...texts.keys()].find((name) => /\.csv$/i.test(name));
  if (!csv) {
    throw new Error('Open one .json evaluation set, or Chroma\'s questions_df.csv together with '
      + 'its corpus files (.md).');
  }
  return chromaSet(csv, texts.get(csv), texts);
}

async function readText(file) {
  try {
    return UTF8.decode(new Uint8Array(await file.arrayBuffer()));
  } catch (error) {
    throw new Error(`${file.name} is not UTF-8 text (${error.message})`);
  }
}

function parseJson(name, text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${name} is not JSON: ${error.message}`);
  }
}

/**
 * `set` if it is a set in the facade's shape: corpora of text, and questions each with its
 * text, a corpus the set has, and excerpts inside it. Else an Error naming the file, the
 * question and what it lacks, when the file is opened rather than at Evaluate.
 */
function checkedSet(set, name) {
  if (set === null || typeof set !== 'object' || typeof set.corpora !== 'object'
      || set.corpora === null || !Array.isArray(set.questions)) {
    throw new Error(`${name}: an evaluation set is {"corpora": {id: text}, "questions": [...]}`);
  }
  for (const [id, text] of Object.entries(set.corpora)) {
    if (typeof text !== 'string') throw new Error(`${name}: corpus ${JSON.stringify(id)} is not a text`);
  }
  if (!set.questions.length) throw new Error(`${name}: the set has no questions`);
  set.questions.forEach((question, row) => {
    const which = `${name}: question ${row + 1}`;
    if (question === null || typeof question !== 'object' || Array.isArray(question)) {
      throw new Error(`${which} is not {"question", "corpusId", "references"}`);
    }
    if (typeof question.question !== 'string' || !question.question) {
      throw new Error(`${which} has no "question": the question's text`);
    }
    const text = set.corpora[question.corpusId];
    if (typeof text !== 'string') {
      throw new Error(`${which} is on corpus ${JSON.stringify(question.corpusId)}, which the set has not`);
    }
    if (!Array.isArray(question.references) || !question.references.length) {
      throw new Error(`${which} has no "references": the excerpts that answer it, each [start, end]`);
    }
    for (const span of question.references) {
      if (!Array.isArray(span) || span.length !== 2 || !span.every(Number.isInteger)
          || !(span[0] >= 0 && span[0] < span[1] && span[1] <= text.length)) {
        // As Python's EvaluationSet: an empty excerpt is one no chunk can answer.
        throw new Error(`${which} has the excerpt ${JSON.stringify(span)}, empty, backwards or outside its corpus`);
      }
    }
  });
  return set;
}

/** Chroma's layout: rows of question, references (JSON of {content, start_index,
 * end_index}, Python offsets) and corpus_id, the corpus in `<corpus_id>.md`. */
function chromaSet(csvName, csvText, texts) {
  const [header, ...rows] = parseCsv(csvText);
  const column = (name) => {
    const at = header.indexOf(name);
    if (at < 0) throw new Error(`${csvName}: no column ${name} (it has ${header.join(', ')})`);
    return at;
  };
  const [questionAt, referencesAt, corpusAt] = ['question', 'references', 'corpus_id'].map(column);
  const corpora = {};
  const questions = [];
  rows.forEach((row, index) => {
    if (row.length === 1 && row[0] === '') return; // the line feed at the end
    const where = `${csvName}, row ${index + 2}`;
    const corpusId = row[corpusAt];
    const file = `${corpusId}.md`;
    if (!texts.has(file)) throw new Error(`${where}: corpus ${corpusId} has no file ${file} among those opened`);
    const text = (corpora[corpusId] ??= texts.get(file));
    let excerpts;
    try {
      excerpts = JSON.parse(row[referencesAt]);
    } catch (error) {
      throw new Error(`${where}: the references are not JSON (${error.message})`);
    }
    const references = excerpts.map((excerpt) => {
      const span = [utf16Index(text, excerpt.start_index), utf16Index(text, excerpt.end_index)];
      if (text.slice(...span) !== excerpt.content) {
        throw new Error(`${where}: the excerpt ${excerpt.start_index}–${excerpt.end_index} is not its content in ${file}`);
      }
      return span;
    });
    questions.push({ question: row[questionAt], corpusId, references });
  });
  return { corpora, questions };
}

/** The JavaScript index of Python's (code point) `offset` into `text`. */
function utf16Index(text, offset) {
  if (!/[\uD800-\uDFFF]/.test(text)) return offset;
  let units = 0;
  for (let points = 0; points < offset && units < text.length; points++) {
    const unit = text.charCodeAt(units);
    units += unit >= 0xd800 && unit <= 0xdbff && units + 1 < text.length ? 2 : 1;
  }
  return units + Math.max(0, offset - units);
}

/** RFC 4180 CSV: quoted fields may hold commas, line feeds and doubled quotes. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const c = text[at];
    if (quoted) {
      if (c === '"' && text[at + 1] === '"') { field += '"'; at++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[at + 1] === '\n') at++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows;
}

/**
 * The user's own questions on the shown document: each a question and the passage selected
 * for it. A passage is found again by its text when the document was edited around it. They
 * are kept across a reload (storage.js), as a link's are (work.js).
 */
export function createOwnQuestions() {
  const questions = keptQuestions(); // {question, excerpt, start}
  const keep = () => store(QUESTIONS_KEY, JSON.stringify(questions));
  return {
    get count() { return questions.length; },
    list: () => questions.slice(),
    add(question, text, start, end) {
      if (!question.trim()) throw new Error('Type the question first.');
      if (end <= start) throw new Error('Select the passage that answers it in the text first.');
      questions.push({ question: question.trim(), excerpt: text.slice(start, end), start });
      keep();
    },
    remove(index) {
      questions.splice(index, 1);
      keep();
    },
    /** The set on document `name` with text `text`. */
    set(name, text) {
      if (!questions.length) throw new Error('Add a question first: select its answer in the text, type it, then Add.');
      return {
        corpora: { [name]: text },
        questions: questions.map(({ question, excerpt, start }, row) => {
          const at = text.startsWith(excerpt, start) ? start : text.indexOf(excerpt);
          if (at < 0) throw new Error(`Question ${row + 1}'s passage is no longer in the text: remove it or select it again.`);
          return { question, corpusId: name, references: [[at, at + excerpt.length]] };
        }),
      };
    },
  };
}

/** The questions kept before a reload (or from a link), those of the right shape. */
function keptQuestions() {
  const kept = storedJson(QUESTIONS_KEY);
  return (Array.isArray(kept) ? kept : []).filter((entry) => typeof entry?.question === 'string'
    && typeof entry.excerpt === 'string' && Number.isInteger(entry.start))
    .map(({ question, excerpt, start }) => ({ question, excerpt, start }));
}
