// The settings form: one fieldset per mode, built from the settings table, each number shown as
// a slider and a number field kept in step, and errors shown at the field they are about.

import { el } from './dom.js';
import { MODES, settingsOf } from './settings.js';

const MODE_TITLES = {
  semantic: 'SemanticChunker settings',
  engine: 'ChunkingEngine settings',
  turns: 'chunkTurns settings',
};

/**
 * Build the form in `container` from `values` (name -> value, edited in place) and call
 * `onChange(name)` after every edit. Answers the functions that show a mode and errors.
 * `prefix` starts every id the form makes: the Compare view makes a second form beside it.
 */
export function createControls(container, { values, onChange, prefix = '' }) {
  const fields = new Map();
  const fieldsets = {};
  const demoNote = demoEmbeddingNote(`${prefix}demo-embedding`);
  for (const mode of MODES) {
    const fieldset = el('fieldset', { className: 'mode-settings', hidden: true },
      el('legend', {}, MODE_TITLES[mode]));
    for (const setting of settingsOf(mode)) {
      const field = makeField(setting, values, () => onChange(setting.name), prefix);
      fields.set(setting.name, field);
      fieldset.append(field.node);
    }
    if (mode === 'engine') fieldset.append(demoNote);
    fieldsets[mode] = fieldset;
    container.append(fieldset);
  }
  const syncDemoNote = () => { demoNote.hidden = values.strategy !== 'semantic'; };
  syncDemoNote();
  fields.get('strategy').node.addEventListener('change', syncDemoNote);

  return {
    showMode(mode) {
      for (const [name, fieldset] of Object.entries(fieldsets)) fieldset.hidden = name !== mode;
    },
    /** Show `message` at the setting `name` (an empty message clears it). */
    setError(name, message) {
      fields.get(name).setError(message);
    },
    clearErrors() {
      for (const field of fields.values()) field.setError('');
    },
    /** Show `changed` (setting name to value: the caller has set them) in their fields. */
    setValues(changed) {
      for (const [name, value] of Object.entries(changed)) fields.get(name)?.show(value);
    },
  };
}

function makeField(setting, values, changed, prefix) {
  const id = `${prefix}setting-${setting.name}`;
  const help = el('p', { className: 'help', id: `${id}-help` }, setting.help);
  const error = el('p', { className: 'field-error', id: `${id}-error`, attrs: { role: 'alert' } });
  const described = { 'aria-describedby': `${id}-help ${id}-error` };
  let input;
  let node;
  let show; // shows a value set elsewhere (a Tune heat map cell)
  if (setting.kind === 'bool') {
    input = el('input', { type: 'checkbox', id, checked: values[setting.name], attrs: described });
    input.addEventListener('change', () => { values[setting.name] = input.checked; changed(); });
    node = el('div', { className: 'field field-bool' },
      el('label', { htmlFor: id }, input, ` ${setting.label}`), help, error);
    show = (value) => { input.checked = value; };
  } else if (setting.kind === 'choice') {
    input = el('select', { id, attrs: described },
      ...setting.choices.map((choice) => el('option', { value: choice }, choice)));
    input.value = values[setting.name];
    input.addEventListener('change', () => { values[setting.name] = input.value; changed(); });
    node = el('div', { className: 'field' }, el('label', { htmlFor: id }, setting.label),
      input, help, error);
    show = (value) => { input.value = value; };
  } else {
    input = el('input', {
      type: 'number', id, min: setting.min, step: 1, value: values[setting.name],
      attrs: { inputmode: 'numeric', ...described },
    });
    const slider = el('input', {
      type: 'range', id: `${id}-slider`, min: setting.min, max: setting.sliderMax, step: 1,
      value: Math.min(values[setting.name], setting.sliderMax),
      attrs: { 'aria-label': `${setting.label} slider`, 'aria-describedby': `${id}-help` },
    });
    slider.addEventListener('input', () => {
      input.value = slider.value;
      values[setting.name] = Number(slider.value);
      changed();
    });
    input.addEventListener('input', () => {
      // An empty field is NaN, which the page reports itself: the chunker would never see it.
      values[setting.name] = input.value.trim() === '' ? NaN : Number(input.value);
      if (Number.isFinite(values[setting.name])) slider.value = String(values[setting.name]);
      changed();
    });
    node = el('div', { className: 'field field-number' },
      el('label', { htmlFor: id }, setting.label), el('div', { className: 'pair' }, slider, input),
      help, error);
    show = (value) => {
      input.value = String(value);
      slider.value = String(Math.min(value, setting.sliderMax));
    };
  }
  return {
    node,
    show,
    setError(message) {
      error.textContent = message;
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    },
  };
}

function demoEmbeddingNote(id) {
  return el('p', { className: 'note', id },
    el('strong', {}, 'Demonstration embedding. '),
    'The semantic strategy here embeds each sentence with a tiny function in this page ',
    '(hashed letter trigrams and words), not a language model. It shows where cuts fall ',
    'when neighbouring sentences differ; pass your own embedFn in code for real use.');
}
