// A transcript's turns, each coloured by the passage that brings it, striped where a later
// passage repeats it as overlap, with the passage's badge on its first new turn. A blank turn
// is in no passage (the chunker leaves it out): drawn outlined, uncoloured. A row holds its
// turn's words only while it is near the viewport (near.js), so a long transcript costs
// what a screenful of it does.

import { el } from './dom.js';
import { badgeOf, formatMs } from './format.js';
import { createNearWatch } from './near.js';
import { markSelection, paintClasses } from './paint.js';

const NEAR = '1200px 0px';
// The rows drawn at once, before the browser says which are near: a screenful, so that a
// new transcript never shows empty rows.
const FIRST_ROWS = 30;

export function createTranscriptView(container, { onSelect }) {
  let turns = [];
  let rows = [];
  let chunks = [];
  let selected = -1;
  const nearby = createNearWatch(container, {
    margin: NEAR, draw, clear: (row) => row.replaceChildren() });

  /** Write turn `row.dataset.t`'s meta line and words into its row, once. */
  function draw(row) {
    if (row.firstChild) return;
    row.style.height = '';
    const turn = turns[Number(row.dataset.t)];
    const meta = [`seq ${turn.seq}`];
    if (turn.startMs != null || turn.endMs != null) {
      meta.push(`${formatMs(turn.startMs)}–${formatMs(turn.endMs)}`);
    }
    if (turn.itemId != null) meta.push(String(turn.itemId));
    if (row.classList.contains('blank')) meta.push('blank: in no passage');
    row.append(el('span', { className: 'turn-meta' }, meta.join(' · ')),
      el('span', { className: 'turn-text' }, String(turn.text)));
  }

  container.addEventListener('click', (event) => {
    const row = event.target.closest?.('[data-c]');
    if (!row) return;
    const holders = row.dataset.c.split(' ').map(Number);
    onSelect(holders[(holders.indexOf(selected) + 1) % holders.length]);
  });

  return {
    /** Show `turns` coloured by `newChunks`, the passages of chunkers.js. */
    show(newTurns, newChunks) {
      turns = newTurns;
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
      rows = turns.map((_, t) => {
        const row = el('div', { className: held.has(t) ? 'turn' : 'turn blank',
          dataset: { t } });
        row.style.height = '3rem';  // a guess, until the row is drawn
        if (owner[t] || repeatedBy[t]) row.classList.add(...paintClasses(owner[t], repeatedBy[t]));
        if (owner[t]) row.dataset.c = owner[t].join(' ');
        if (repeatedBy[t]) row.dataset.l = repeatedBy[t].join(' ');
        const badge = badges.get(t);
        if (badge) {
          row.dataset.badge = badgeOf({ ...badge, type: 'passage' });
          row.classList.add('first');
          if (badge.over) row.classList.add('over');
        }
        return row;
      });
      container.replaceChildren(...rows);
      rows.slice(0, FIRST_ROWS).forEach(draw);
      nearby.watch(rows);
      if (rows.length === 0) {
        container.append(el('p', { className: 'empty' },
          'No turns yet: paste a JSON list of turns or JSON Lines, or open a .json or .jsonl '
            + 'transcript.'));
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
