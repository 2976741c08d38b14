// The document with every chunk's span coloured in place. The text is cut into blocks of a few
// thousand characters; a block holds its text, coloured, only while it is near the viewport
// (near.js says why that is done here and not by CSS `content-visibility`), and is an empty
// box as tall as its text otherwise. So a 5 MB document costs about as much to show as the
// part of it on screen. The Compare view marks cuts on it too: where chunks start and end,
// on the edge of the piece each cut bounds (`data-cut-start`, `data-cut-end`), which the
// stylesheet draws out of the flow, moving no text.

import { el } from './dom.js';
import { badgeOf } from './format.js';
import { createNearWatch } from './near.js';
import { markSelection, paintClasses, paintPieces, pieceAt } from './paint.js';

const BLOCK_CHARS = 4000;
// Blocks end at a line feed when one is this close after BLOCK_CHARS, so lines stay whole.
const LINE_SLACK = 1000;
const NEAR = '1200px 0px';

export function createDocumentView(container, { onSelect }) {
  let text = null;
  let chunks = [];
  let paint = null;
  let startsAt = new Map();
  let blocks = [];
  let selected = -1;
  let cuts = null; // offset -> how it is marked ('both' or 'only'), or null: none marked
  let currentCut = -1; // the cut the Compare view went to last
  // What each painted block shows: its pieces, their chunks and badges, as `fill` draws them.
  const shownKeys = new WeakMap();
  const nearby = createNearWatch(container, { margin: NEAR, draw: fill, clear: empty });

  container.addEventListener('click', (event) => {
    const span = event.target.closest?.('[data-c]');
    if (!span) return;
    // Where chunks overlap, each click moves on to the next chunk holding the spot.
    const holders = span.dataset.c.split(' ').map(Number);
    const next = holders[(holders.indexOf(selected) + 1) % holders.length];
    onSelect(next);
  });

  /** Empty blocks for `newText[from:to]`, each sized to a guess at its height. */
  function newBlocks(newText, from, to) {
    const charsPerLine = Math.max(20, Math.floor((container.clientWidth || 600) / 8.4));
    return blockCuts(newText, from, to).map(([start, end]) => {
      const block = el('div', { className: 'block', dataset: { start, end } });
      // Until a block is drawn, a guess at its height; once it has been, the real one.
      block.style.height = `${estimateHeight(newText, start, end, charsPerLine)}px`;
      return block;
    });
  }

  function makeBlocks(newText) {
    blocks = newBlocks(newText, 0, newText.length);
    container.replaceChildren(...blocks);
    if (blocks.length === 0) {
      container.append(el('p', { className: 'empty' }, 'Nothing to show yet: type, paste or open a document.'));
    }
    nearby.watch(blocks);
  }

  function empty(block) {
    block.replaceChildren();
    block.dataset.painted = 'no';
    shownKeys.delete(block);
  }

  function fill(block) {
    if (block.dataset.painted === 'yes') return;
    const start = Number(block.dataset.start);
    const end = Number(block.dataset.end);
    const { bounds, owners, leads } = paint;
    const first = pieceAt(bounds, start);
    let last = first;
    while (last < owners.length && bounds[last] < end) last += 1;
    const badge = (from) => startsAt.get(from)?.map(badgeOf).join('  ');
    const isSpan = (i) => i < owners.length && Boolean(owners[i] || leads[i]);
    // A cut is marked once: at the start of the piece it begins, or else (a chunk's end before
    // text in no chunk, or the text's end) at the end of the piece it ends.
    const cutAtStart = (i, from) => (cuts && from === bounds[i] ? cuts.get(from) : undefined);
    const cutAtEnd = (i, to) => (cuts && to === bounds[i + 1] && !isSpan(i + 1)
      ? cuts.get(to) : undefined);
    // A block that shows these very pieces already (a setting's step often moves no cut in
    // it) keeps its nodes: new ones would cost the browser a layout and a paint of the block
    // for the same picture (tests/bench/playground.py, slider). The key leaves the text out:
    // a new text makes new blocks (`makeBlocks`).
    let key = '';
    for (let i = first; i < last; i += 1) {
      const from = Math.max(bounds[i], start);
      const to = Math.min(bounds[i + 1], end);
      // Where in the block, not in the text: a block an edit before it moved keeps its nodes.
      key += `${from - start} ${to - start} ${owners[i]} ${leads[i]} ${badge(from)} `
        + `${cutAtStart(i, from)} ${cutAtEnd(i, to)};`;
    }
    block.style.height = '';
    if (shownKeys.get(block) === key) {
      markSelection(block, selected);
      markCurrentCut(block);
      block.dataset.painted = 'yes';
      return;
    }
    const nodes = [];
    for (let i = first; i < last; i += 1) {
      const from = Math.max(bounds[i], start);
      const to = Math.min(bounds[i + 1], end);
      const piece = text.slice(from, to);
      if (!owners[i] && !leads[i]) {
        nodes.push(piece);
        continue;
      }
      const span = el('span', {}, piece);
      span.classList.add(...paintClasses(owners[i], leads[i]));
      if (owners[i]) span.dataset.c = owners[i].join(' ');
      if (leads[i]) span.dataset.l = leads[i].join(' ');
      const starting = badge(from);
      if (starting) {
        span.dataset.badge = starting;
        span.classList.add('first');
        if (startsAt.get(from).some((c) => c.over)) span.classList.add('over');
      }
      if (owners[i]?.includes(selected)) span.classList.add('selected');
      if (leads[i]?.includes(selected)) span.classList.add('selected-lead');
      const startCut = cutAtStart(i, from);
      const endCut = cutAtEnd(i, to);
      if (startCut) span.dataset.cutStart = startCut;
      if (endCut) span.dataset.cutEnd = endCut;
      nodes.push(span);
    }
    block.replaceChildren(...nodes);
    markCurrentCut(block);
    shownKeys.set(block, key);
    block.dataset.painted = 'yes';
  }

  /** Where `block` marks the cut at `offset`: `{node, edge}` ('start' or 'end'), or null. */
  function cutMark(block, offset) {
    let at = Number(block.dataset.start);
    for (const node of block.childNodes) {
      const next = at + node.textContent.length;
      if (node.nodeType === 1 && at === offset && node.dataset.cutStart) {
        return { node, edge: 'start' };
      }
      if (node.nodeType === 1 && next === offset && node.dataset.cutEnd) {
        return { node, edge: 'end' };
      }
      at = next;
    }
    return null;
  }

  function markCurrentCut(block) {
    if (!cuts) return;
    for (const node of block.querySelectorAll('[data-current]')) delete node.dataset.current;
    const start = Number(block.dataset.start);
    if (currentCut < start || currentCut > Number(block.dataset.end)) return;
    const mark = cutMark(block, currentCut);
    if (mark) mark.node.dataset.current = mark.edge;
  }

  /** Scroll the container so that what is at `top` (a viewport y) shows `from` pixels
   * below the container's top. */
  function scrollToY(top, from) {
    container.scrollTop += top - container.getBoundingClientRect().top - from;
  }

  function blockAt(position) {
    let low = 0;
    let high = blocks.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (Number(blocks[mid].dataset.start) <= position) low = mid;
      else high = mid - 1;
    }
    return blocks[low];
  }

  return {
    /**
     * Show `newText` coloured by `newChunks` (the view model of chunkers.js), with the cuts
     * `newCuts` marked (offset -> 'both' or 'only'; none by default).
     */
    show(newText, newChunks, newCuts = null) {
      chunks = newChunks;
      cuts = newCuts;
      paint = paintPieces(newText.length, newChunks);
      startsAt = new Map();
      for (const chunk of newChunks) {
        if (chunk.start < 0 || chunk.end <= chunk.start) continue;
        if (!startsAt.has(chunk.start)) startsAt.set(chunk.start, []);
        startsAt.get(chunk.start).push(chunk);
      }
      if (selected >= chunks.length) selected = -1;
      if (newText !== text) {
        const scrollTop = container.scrollTop;
        text = newText;
        makeBlocks(newText);
        container.scrollTop = scrollTop;
      } else {
        // Same text, new chunks: the blocks drawn are drawn again (most keep their nodes).
        for (const block of blocks) {
          if (block.dataset.painted !== 'yes') continue;
          block.dataset.painted = 'no';
          fill(block);
        }
      }
      // The first blocks are drawn at once so that a short document never flashes empty.
      for (const block of blocks.slice(0, 2)) fill(block);
    },

    /**
     * The text edited: `text[from:to]` replaced by `length` units, making `newText`. Only the
     * blocks the edit touches are made again; those after it move, keeping their nodes. The
     * chunks follow with `show(newText, chunks)`, which finds the text the same.
     */
    edit(from, to, length, newText) {
      if (!blocks.length || text === null) {
        text = newText;
        makeBlocks(newText);
        return;
      }
      const by = length - (to - from);
      const first = blocks.indexOf(blockAt(from));
      const last = Math.max(first, blocks.indexOf(blockAt(Math.max(from, to - 1))));
      const start = Number(blocks[first].dataset.start);
      const end = Number(blocks[last].dataset.end) + by;
      const made = newBlocks(newText, start, end);
      const dropped = blocks.slice(first, last + 1);
      dropped[0].before(...made);
      for (const block of dropped) block.remove();
      for (const block of blocks.slice(last + 1)) {
        block.dataset.start = Number(block.dataset.start) + by;
        block.dataset.end = Number(block.dataset.end) + by;
      }
      blocks.splice(first, last + 1 - first, ...made);
      nearby.swap(dropped, made);
      text = newText;
      if (!blocks.length) {
        container.append(el('p', { className: 'empty' }, 'Nothing to show yet: type, paste or open a document.'));
      }
    },

    /** Mark chunk `index` and, with `scroll`, bring its first span into view. */
    select(index, { scroll = false } = {}) {
      selected = index;
      markSelection(container, index);
      const chunk = chunks[index];
      if (!scroll || !chunk || chunk.start < 0) return;
      const block = blockAt(chunk.start);
      fill(block);
      scrollToY((block.querySelector(`[data-c~="${index}"]`) ?? block).getBoundingClientRect().top,
        24);
    },

    /** Bring the cut at `offset` into view, marked as the one gone to (`data-current`, its
     * edge); -1 unmarks the one before and moves nothing. */
    goToCut(offset) {
      currentCut = offset;
      for (const block of blocks) {
        if (block.dataset.painted === 'yes') markCurrentCut(block);
      }
      if (offset < 0 || !blocks.length) return;
      // A cut at a block's first character is marked in it, one at its end in the one before.
      let block = blockAt(offset);
      if (Number(block.dataset.start) === offset && block.previousElementSibling) {
        fill(block.previousElementSibling);
        if (cutMark(block.previousElementSibling, offset)) block = block.previousElementSibling;
      }
      fill(block);
      // The line of the cut (a piece's first line for its start, its last for its end), a
      // third of the way down: what comes before the cut shows too.
      const mark = cutMark(block, offset);
      const lines = mark ? mark.node.getClientRects() : [block.getBoundingClientRect()];
      scrollToY(lines[mark?.edge === 'end' ? lines.length - 1 : 0].top, container.clientHeight / 3);
    },
  };
}

/** [start, end) of each block of `text[from:to]`: about BLOCK_CHARS long, ending after a line
 * feed if one is near. */
function blockCuts(text, from, to) {
  const cuts = [];
  let start = from;
  while (start < to) {
    let end = Math.min(start + BLOCK_CHARS, to);
    if (end < to) {
      const lineEnd = text.indexOf('\n', end);
      if (lineEnd !== -1 && lineEnd < Math.min(end + LINE_SLACK, to)) end = lineEnd + 1;
      // Never cut between the two halves of a character outside the BMP.
      else if (/[\ud800-\udbff]/.test(text[end - 1])) end += 1;
    }
    cuts.push([start, end]);
    start = end;
  }
  return cuts;
}

function estimateHeight(text, start, end, charsPerLine) {
  let lines = 0;
  let lineStart = start;
  while (lineStart < end) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1 || lineEnd >= end) lineEnd = end;
    lines += Math.max(1, Math.ceil((lineEnd - lineStart) / charsPerLine));
    lineStart = lineEnd + 1;
  }
  return Math.round(lines * 21);
}
