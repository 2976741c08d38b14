// The token panel, for every mode: a tokenizer to count each chunk with, a token budget (typed,
// or from an embedding model's preset, which names its tokenizer and limit), and whether the
// budget is applied (the chunker cuts every chunk over it again) or only shown (the chunks
// over it are flagged). Counting loads the tokenizer into the worker on first use: with no
// tokenizer chosen, the page counts nothing and loads nothing.

import { el } from './dom.js';
import { wholeNumberProblem } from './whole-number.js';

/** The tokenizers the facade counts with (chunker.tokens' TOKENIZER_NAMES). */
export const TOKENIZERS = ['cl100k_base', 'o200k_base'];

// Embedding models' limits, with the tokenizer that counts them: OpenAI's count exactly with
// cl100k_base; the others have a WordPiece tokenizer of their own, which the page does not
// ship, so cl100k_base stands in for it (it makes fewer tokens of English than WordPiece
// does: leave a margin).
export const PRESETS = [
  { id: 'text-embedding-3-small', tokenizer: 'cl100k_base', limit: 8191,
    label: 'OpenAI text-embedding-3-small: cl100k_base, 8,191 tokens' },
  { id: 'text-embedding-3-large', tokenizer: 'cl100k_base', limit: 8191,
    label: 'OpenAI text-embedding-3-large: cl100k_base, 8,191 tokens' },
  { id: 'text-embedding-ada-002', tokenizer: 'cl100k_base', limit: 8191,
    label: 'OpenAI text-embedding-ada-002: cl100k_base, 8,191 tokens' },
  { id: 'all-MiniLM-L6-v2', tokenizer: 'cl100k_base', limit: 256,
    label: 'all-MiniLM-L6-v2: WordPiece, 256 tokens (counted with cl100k_base)' },
  { id: 'bge-small-en-v1.5', tokenizer: 'cl100k_base', limit: 512,
    label: 'BAAI bge-small-en-v1.5: WordPiece, 512 tokens (counted with cl100k_base)' },
];

/** The panel's values as a page opens with none in its address. */
const DEFAULTS = { tokenizer: '', budget: 512, apply: false, unit: 'characters' };

/** The panel's values from a URL's query (`tokenizer`, `budget`, `applyBudget`, `unit`). */
export function readTokenQuery(search) {
  const params = new URLSearchParams(search);
  const values = { ...DEFAULTS };
  if (TOKENIZERS.includes(params.get('tokenizer'))) values.tokenizer = params.get('tokenizer');
  const budget = params.get('budget');
  if (budget !== null && budget.trim() !== '' && Number.isFinite(Number(budget))) {
    values.budget = Number(budget);
  }
  values.apply = params.get('applyBudget') === 'true';
  if (params.get('unit') === 'tokens') values.unit = 'tokens';
  return values;
}

/** Add the panel's values to `params` (a URLSearchParams): none when nothing is counted. */
export function writeTokenQuery(params, values) {
  if (!values.tokenizer) return;
  params.set('tokenizer', values.tokenizer);
  params.set('budget', String(values.budget));
  if (values.apply) params.set('applyBudget', 'true');
  if (values.unit === 'tokens') params.set('unit', 'tokens');
}

/** Whether `budget` is one the page can compare counts with: a whole number, at least 1. */
export const isBudget = (budget) => Number.isSafeInteger(budget) && budget >= 1;

/**
 * What the facade is given besides the mode's options: the tokenizer, and the budget when it
 * is applied (`maxTokens`, which the chunker checks, naming it); nothing when none is chosen.
 */
export function tokenOptions(values) {
  if (!values.tokenizer) return {};
  return values.apply
    ? { tokenizer: values.tokenizer, maxTokens: values.budget }
    : { tokenizer: values.tokenizer };
}

/**
 * The budget the chunks are compared with when it is shown and not applied, or null: the
 * chunks over it are flagged.
 */
export function flaggedBudget(values) {
  return values.tokenizer && !values.apply && isBudget(values.budget) ? values.budget : null;
}

// The panel's Python names (a chunker's error names its argument by them) and their labels.
const FIELDS = { tokenizer: 'tokenizer', max_tokens: 'budget' };
const LABELS = { max_tokens: 'token budget', tokenizer: 'tokenizer' };

/** Whether an error's `field` (a Python name) is the panel's. */
export const isTokenField = (field) => Object.hasOwn(FIELDS, field);

/**
 * Build the panel in `container` from `values` (edited in place). `onChange(what)` is called
 * after each edit: 'run' when the chunks change (the tokenizer, or the budget while it is
 * applied), 'flags' when only the flags do (the budget, shown only), 'unit' for the
 * histogram's unit (`unitSelect`, a menu beside the histogram, is wired here too; null for
 * none). `prefix` starts every id the panel makes: the Compare view makes a second panel.
 */
export function createTokenPanel(container, { values, unitSelect, onChange, prefix = '' }) {
  const id = (name) => `${prefix}token-${name}`;
  const help = (name, text) => el('p', { className: 'help', id: `${id(name)}-help` }, text);
  const errorOf = (name) => el('p', { className: 'field-error', id: `${id(name)}-error`,
    attrs: { role: 'alert' } });
  const described = (name) => ({ 'aria-describedby': `${id(name)}-help ${id(name)}-error` });

  const tokenizer = el('select', { id: id('tokenizer'), attrs: described('tokenizer') },
    el('option', { value: '' }, 'None: characters only'),
    ...TOKENIZERS.map((name) => el('option', { value: name }, name)));
  const preset = el('select', { id: id('preset'),
    attrs: { 'aria-describedby': `${id('preset')}-help` } },
    el('option', { value: '' }, 'Your own budget'),
    ...PRESETS.map((model) => el('option', { value: model.id }, model.label)));
  const budget = el('input', { type: 'number', id: id('budget'), min: 1, step: 1,
    attrs: { inputmode: 'numeric', ...described('budget') } });
  const apply = el('input', { type: 'checkbox', id: id('apply'), attrs: described('apply') });
  const status = el('p', { className: 'field-note', id: id('status'), attrs: { role: 'status' } });
  const errors = { tokenizer: errorOf('tokenizer'), budget: errorOf('budget') };

  container.append(el('fieldset', { className: 'token-settings' },
    el('legend', {}, 'Tokens'),
    el('div', { className: 'field' }, el('label', { htmlFor: id('tokenizer') }, 'Tokenizer'),
      tokenizer, help('tokenizer', 'Count each chunk\u2019s tokens as an embedding model does. '
        + 'The tokenizer (2.5 MB) loads the first time it is chosen.'), errors.tokenizer, status),
    el('div', { className: 'field' }, el('label', { htmlFor: id('preset') }, 'Model'),
      preset, help('preset', 'Sets the tokenizer and the budget to a model\u2019s.')),
    el('div', { className: 'field field-number' },
      el('label', { htmlFor: id('budget') }, 'Token budget'), budget,
      help('budget', 'Tokens a chunk may hold, its overlap included.'), errors.budget),
    el('div', { className: 'field field-bool' },
      el('label', { htmlFor: id('apply') }, apply, ' Apply the budget'),
      help('apply', 'Cut every chunk over the budget again, at sentences, then words. '
        + 'Off: the chunks over it are flagged.'))));

  /** Show `values` in the fields; the budget's fields wait for a tokenizer. */
  function show() {
    tokenizer.value = values.tokenizer;
    budget.value = Number.isNaN(values.budget) ? '' : String(values.budget);
    apply.checked = values.apply;
    // The model chosen, while the values are still its own; else the first whose they are.
    const matches = (model) =>
      model.tokenizer === values.tokenizer && model.limit === values.budget;
    const chosen = PRESETS.find((model) => model.id === preset.value);
    if (!chosen || !matches(chosen)) preset.value = PRESETS.find(matches)?.id ?? '';
    budget.disabled = apply.disabled = !values.tokenizer;
    if (!unitSelect) return;
    unitSelect.disabled = !values.tokenizer;
    unitSelect.value = values.tokenizer ? values.unit : 'characters';
  }
  show();

  tokenizer.addEventListener('change', () => {
    values.tokenizer = tokenizer.value;
    show();
    onChange('run');
  });
  preset.addEventListener('change', () => {
    const model = PRESETS.find((p) => p.id === preset.value);
    if (!model) return;
    const rerun = values.tokenizer !== model.tokenizer || values.apply;
    values.tokenizer = model.tokenizer;
    values.budget = model.limit;
    show();
    onChange(rerun ? 'run' : 'flags');
  });
  budget.addEventListener('input', () => {
    values.budget = budget.value.trim() === '' ? NaN : Number(budget.value);
    const model = PRESETS.find((p) => p.id === preset.value);
    if (model && model.limit !== values.budget) preset.value = '';
    onChange(values.apply ? 'run' : 'flags');
  });
  apply.addEventListener('change', () => {
    values.apply = apply.checked;
    onChange('run');
  });
  unitSelect?.addEventListener('change', () => {
    values.unit = unitSelect.value;
    onChange('unit');
  });

  return {
    /** Why the panel's values cannot run, at its field, or null (see `check`). */
    check() {
      errors.budget.textContent = '';
      budget.removeAttribute('aria-invalid');
      if (!values.tokenizer) return null;
      // As every number field checks its value; one it refuses is never sent, applied.
      const message = wholeNumberProblem('Token budget', values.budget, 1);
      if (message) this.setError('max_tokens', message);
      return message && values.apply ? message : null;
    },
    /** Show `message` at the field of the Python name `field` ('' clears them all). */
    setError(field, message) {
      const name = FIELDS[field];
      const input = name === 'budget' ? budget : tokenizer;
      errors[name].textContent = message;
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    },
    clearErrors() {
      for (const field of Object.keys(FIELDS)) this.setError(field, '');
    },
    /** A chunker's message about one of the panel's fields, in the page's words. */
    inPageWords(field, message) {
      const words = message.replace(new RegExp(`\\b${field}\\b`, 'g'), LABELS[field]);
      return words[0].toUpperCase() + words.slice(1);
    },
    /** The tokenizer's loading, as the facade reports it (`{fraction, message}`). */
    loading({ fraction, message }) {
      status.textContent = fraction === 1 ? message : 'Loading the tokenizer\u2026';
    },
  };
}
