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
import { markSelection, paintClasses, paintPieces, pieceAt, piecesBetween } from './paint.js';

const BLOCK_CHARS = 4000;
// Blocks end at a line feed when one is this close after BLOCK_CHARS, so lines stay whole.
const LINE_SLACK = 1000;
const NEAR = '1200px 0px';

export function createDocumentView(container, { onSelect }) {
  let text = null;
  let chunks = [];
  // Where each chunk's span and overlap reach (`lowest`, `highest`), rising with the index
  // (`ordered`): then a block's pieces are cut from the few chunks that reach into it, found
  // by halves, so a redraw costs the blocks drawn, not the chunks. Otherwise (or until then)
  // the whole text's pieces, made when a block is first drawn.
  let ordered = false;
  let whole = null; // {paint, startsAt}
  // The blocks in order, each `{node, start, end}`: its place in the text, kept here (a node's
  // `data-start` and `data-end` are brought up to date when it is drawn: an edit moves the
  // blocks after it, and writing each of them would cost more than the edit).
  let blocks = [];
  const placeOf = new WeakMap(); // node -> its block
  const painted = new Set(); // the blocks drawn now
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
      const node = el('div', { className: 'block', dataset: { start, end } });
      // Until a block is drawn, a guess at its height; once it has been, the real one.
      node.style.height = `${estimateHeight(newText, start, end, charsPerLine)}px`;
      const block = { node, start, end };
      placeOf.set(node, block);
      return block;
    });
  }

  function makeBlocks(newText) {
    blocks = newBlocks(newText, 0, newText.length);
    painted.clear();
    container.replaceChildren(...blocks.map((block) => block.node));
    if (blocks.length === 0) {
      container.append(el('p', { className: 'empty' }, 'Nothing to show yet: type, paste or open a document.'));
    }
    nearby.watch(blocks.map((block) => block.node));
  }

  function empty(node) {
    node.replaceChildren();
    node.dataset.painted = 'no';
    painted.delete(placeOf.get(node));
    shownKeys.delete(node);
  }

  /** The pieces of `text[start:end]` and the chunks that start at each place in it. */
  function piecesOf(start, end) {
    if (!ordered) {
      whole ??= { paint: paintPieces(text.length, chunks), startsAt: startsOf(chunks, 0,
        chunks.length) };
      return whole;
    }
    // The chunks that reach into [start, end): from the first whose reach ends after `start`
    // to the last whose reach starts before `end`.
    const first = firstWhere(chunks.length, (i) => highest(chunks[i]) > start);
    const last = firstWhere(chunks.length, (i) => lowest(chunks[i]) >= end);
    return { paint: piecesBetween(start, end, chunks, first, last),
      startsAt: startsOf(chunks, first, last) };
  }

  function fill(node) {
    const block = placeOf.get(node);
    if (painted.has(block)) return;
    const { start, end } = block;
    node.dataset.start = start;
    node.dataset.end = end;
    const { paint: { bounds, owners, leads }, startsAt } = piecesOf(start, end);
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
    node.style.height = '';
    painted.add(block);
    if (shownKeys.get(node) === key) {
      markSelection(node, selected);
      markCurrentCut(node);
      node.dataset.painted = 'yes';
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
    node.replaceChildren(...nodes);
    markCurrentCut(node);
    shownKeys.set(node, key);
    node.dataset.painted = 'yes';
  }

  /** Where `block` marks the cut at `offset`: `{node, edge}` ('start' or 'end'), or null. */
  function cutMark(block, offset) {
    let at = placeOf.get(block).start;
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
    const { start, end } = placeOf.get(block);
    if (currentCut < start || currentCut > end) return;
    const mark = cutMark(block, currentCut);
    if (mark) mark.node.dataset.current = mark.edge;
  }

  /** Scroll the container so that what is at `top` (a viewport y) shows `from` pixels
   * below the container's top. */
  function scrollToY(top, from) {
    container.scrollTop += top - container.getBoundingClientRect().top - from;
  }

  /** The index of the block that holds `position` (the last that starts at or before it). */
  function blockAt(position) {
    return Math.max(0, firstWhere(blocks.length, (i) => blocks[i].start > position) - 1);
  }

  return {
    /**
     * Show `newText` coloured by `newChunks` (the view model of chunkers.js), with the cuts
     * `newCuts` marked (offset -> 'both' or 'only'; none by default).
     */
    show(newText, newChunks, newCuts = null, changed = null) {
      // `changed`, when the chunks are those before with a few changed (an edit's): the
      // indices `[from, to)` of the new chunks that may stand out of order; the others are
      // the chunks before, in order as they were, some moved together by the edit.
      ordered = changed && ordered && newText === text
        ? inOrder(newChunks, changed.from - 1, changed.to + 1)
        : inOrder(newChunks, 0, newChunks.length);
      chunks = newChunks;
      cuts = newCuts;
      whole = null;
      if (selected >= chunks.length) selected = -1;
      if (newText !== text) {
        const scrollTop = container.scrollTop;
        text = newText;
        makeBlocks(newText);
        container.scrollTop = scrollTop;
      } else {
        // Same text, new chunks: the blocks drawn are drawn again (most keep their nodes).
        for (const block of [...painted]) {
          painted.delete(block);
          fill(block.node);
        }
      }
      // The first blocks are drawn at once so that a short document never flashes empty.
      for (const block of blocks.slice(0, 2)) fill(block.node);
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
      const first = blockAt(from);
      const last = Math.max(first, blockAt(Math.max(from, to - 1)));
      const made = newBlocks(newText, blocks[first].start, blocks[last].end + by);
      const dropped = blocks.slice(first, last + 1);
      dropped[0].node.before(...made.map((block) => block.node));
      for (const block of dropped) {
        block.node.remove();
        painted.delete(block);
      }
      // Those after move (a drawn one's `data-start` is written when `show` draws it again).
      for (let i = last + 1; i < blocks.length; i += 1) {
        blocks[i].start += by;
        blocks[i].end += by;
      }
      blocks.splice(first, last + 1 - first, ...made);
      nearby.swap(dropped.map((block) => block.node), made.map((block) => block.node));
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
      const block = blocks[blockAt(chunk.start)].node;
      fill(block);
      scrollToY((block.querySelector(`[data-c~="${index}"]`) ?? block).getBoundingClientRect().top,
        24);
    },

    /** Bring the cut at `offset` into view, marked as the one gone to (`data-current`, its
     * edge); -1 unmarks the one before and moves nothing. */
    goToCut(offset) {
      currentCut = offset;
      for (const block of painted) markCurrentCut(block.node);
      if (offset < 0 || !blocks.length) return;
      // A cut at a block's first character is marked in it, one at its end in the one before.
      let block = blocks[blockAt(offset)].node;
      if (placeOf.get(block).start === offset && block.previousElementSibling) {
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

/** Where `chunk`'s span and overlap start, and where they end. */
const lowest = (chunk) => (chunk.leadStart >= 0 ? Math.min(chunk.start, chunk.leadStart)
  : chunk.start);
const highest = (chunk) => Math.max(chunk.end, chunk.leadEnd);

/** Whether `chunks[from:to]` (clipped to the list) are placed in the text, their reaches
 * rising with the index (each one's start and end at or after the one's before). */
function inOrder(chunks, from, to) {
  from = Math.max(0, from);
  to = Math.min(to, chunks.length);
  for (let i = from; i < to; i += 1) {
    if (chunks[i].start < 0) return false;
    if (i > from && (lowest(chunks[i]) < lowest(chunks[i - 1])
      || highest(chunks[i]) < highest(chunks[i - 1]))) return false;
  }
  return true;
}

/** The first `i` in [0, count) where `holds(i)` (which, once true, stays true), or `count`. */
function firstWhere(count, holds) {
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (holds(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** The chunks of `chunks[first:last]` that start at each place (those with a span). */
function startsOf(chunks, first, last) {
  const startsAt = new Map();
  for (let i = first; i < last; i += 1) {
    const chunk = chunks[i];
    if (chunk.start < 0 || chunk.end <= chunk.start) continue;
    if (!startsAt.has(chunk.start)) startsAt.set(chunk.start, []);
    startsAt.get(chunk.start).push(chunk);
  }
  return startsAt;
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
