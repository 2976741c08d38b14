// What the user types besides the text and the settings: the search (its words and its
// switches) and the Tune view (the questions chosen, a question half typed, k, the sweep's
// rows, columns and metric; their own questions are kept by tune-set.js). Kept across a
// reload (storage.js), and carried by a copied link (link.js) to the page it opens.

import { store, storedJson } from './storage.js';

const WORK_KEY = 'work';
/** Where tune-set.js keeps the user's own questions. */
export const QUESTIONS_KEY = 'questions';

// Each field kept, by id: the property that holds what was typed or chosen.
const FIELDS = { query: 'value', 'query-all': 'checked', 'query-prefix': 'checked',
  'tune-set': 'value', 'tune-question': 'value', 'tune-k': 'value', 'tune-edits': 'value',
  'tune-rows': 'value',
  'tune-columns': 'value', 'tune-metric': 'value' };
// The sweep's fields start as the shown mode's defaults (tune.js' showMode): what was typed
// in them is given back to the same mode only.
const OF_MODE = ['tune-rows', 'tune-columns'];

const $ = (id) => document.getElementById(id);
// The mode the sweep's fields are for (tune.js marks it on the rows' field).
const shownMode = () => $('tune-rows').dataset.mode;

/** A field's value as the page first had it. */
function initial(field, property) {
  if (property === 'checked') return field.defaultChecked;
  if (field.localName !== 'select') return field.defaultValue;
  return ([...field.options].find((option) => option.defaultSelected) ?? field.options[0]).value;
}

/** The fields changed from how the page first had them, and the user's own questions:
 * `{fields, mode, questions}`, or null when there is nothing of the user's. */
export function workOfPage() {
  const fields = {};
  for (const [id, property] of Object.entries(FIELDS)) {
    if ($(id)[property] !== initial($(id), property)) fields[id] = $(id)[property];
  }
  const questions = storedJson(QUESTIONS_KEY) ?? [];
  if (!Object.keys(fields).length && !questions.length) return null;
  return { fields, mode: shownMode(), questions };
}

/** Keep `work` (a link's, see workOfPage) as if it had been typed here before a reload. */
export function takeWork(work) {
  if (work === null || typeof work !== 'object') return;
  store(WORK_KEY, JSON.stringify({ fields: work.fields ?? {}, mode: work.mode }));
  store(QUESTIONS_KEY, JSON.stringify(Array.isArray(work.questions) ? work.questions : []));
}

/** Give the fields back what was typed before a reload, and keep each change from now on.
 * Call once the views that read the fields are wired (their change handlers run). */
export function keepWork() {
  const kept = storedJson(WORK_KEY);
  const fields = typeof kept?.fields === 'object' && kept.fields !== null ? kept.fields : {};
  for (const [id, value] of Object.entries(fields)) {
    const property = FIELDS[id];
    const field = property && $(id);
    if (!field || typeof value !== typeof field[property]) continue;
    if (OF_MODE.includes(id) && kept.mode !== shownMode()) continue;
    // A choice that is not offered now (questions from files, which are not kept) is left.
    if (field.localName === 'select'
        && ![...field.options].some((option) => option.value === value && !option.disabled)) {
      continue;
    }
    field[property] = value;
    field.dispatchEvent(new Event('change'));
  }
  const save = () => {
    const changed = workOfPage()?.fields ?? {};
    store(WORK_KEY, JSON.stringify({ fields: changed, mode: shownMode() }));
  };
  for (const id of Object.keys(FIELDS)) {
    $(id).addEventListener('input', save);
    $(id).addEventListener('change', save);
  }
}
