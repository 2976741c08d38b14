// A transcript's turns, each coloured by the passage that brings it, striped where a later
// passage repeats it as overlap, with the passage's badge on its first new turn. A blank turn
// is in no passage (the chunker leaves it out): drawn outlined, uncoloured.

import { el } from './dom.js';
import { formatMs } from './format.js';
import { markSelection, paintClasses } from './paint.js';

export function createTranscriptView(container, { onSelect }) {
  let rows = [];
  let chunks = [];
  let selected = -1;

  container.addEventListener('click', (event) => {
    const row = event.target.closest?.('[data-c]');
    if (!row) return;
    const holders = row.dataset.c.split(' ').map(Number);
    onSelect(holders[(holders.indexOf(selected) + 1) % holders.length]);
  });

  return {
    /** Show `turns` coloured by `newChunks`, the passages of chunkers.js. */
    show(turns, newChunks) {
      chunks = newChunks;
      if (selected >= chunks.length) selected = -1;
      const owner = new Array(turns.length).fill(null);
      const repeatedBy = new Array(turns.length).fill(null);
      const held = new Set();
      for (const chunk of chunks) {
        chunk.turnPositions.forEach((t, i) => {
          held.add(t);
          if (i < chunk.repeatedTurns) (repeatedBy[t] ??= []).push(chunk.index);
          else (owner[t] ??= []).push(chunk.index);
        });
      }
      const badges = new Map(chunks.map((chunk) => [chunk.turnPositions[chunk.repeatedTurns],
        chunk]));
      rows = turns.map((turn, t) => {
        const meta = [`seq ${turn.seq}`];
        if (turn.startMs != null || turn.endMs != null) {
          meta.push(`${formatMs(turn.startMs)}–${formatMs(turn.endMs)}`);
        }
        if (turn.itemId != null) meta.push(String(turn.itemId));
        const blank = !held.has(t);
        if (blank) meta.push('blank: in no passage');
        const row = el('div', { className: blank ? 'turn blank' : 'turn' },
          el('span', { className: 'turn-meta' }, meta.join(' · ')),
          el('span', { className: 'turn-text' }, String(turn.text)));
        if (owner[t] || repeatedBy[t]) row.classList.add(...paintClasses(owner[t], repeatedBy[t]));
        if (owner[t]) row.dataset.c = owner[t].join(' ');
        if (repeatedBy[t]) row.dataset.l = repeatedBy[t].join(' ');
        const badge = badges.get(t);
        if (badge) {
          row.dataset.badge = `${badge.index} · passage`;
          row.classList.add('first');
        }
        return row;
      });
      container.replaceChildren(...rows);
      if (rows.length === 0) {
        container.append(el('p', { className: 'empty' },
          'No turns yet: paste a JSON list of turns, or open a .json transcript.'));
      }
      markSelection(container, selected);
    },

    select(index, { scroll = false } = {}) {
      selected = index;
      markSelection(container, index);
      const chunk = chunks[index];
      if (!scroll || !chunk) return;
      const target = rows[chunk.turnPositions[0]];
      if (!target) return;
      const top = target.getBoundingClientRect().top - container.getBoundingClientRect().top;
      container.scrollTop += top - 24;
    },
  };
}
