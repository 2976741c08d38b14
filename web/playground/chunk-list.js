// The list of chunks: a listbox with one tab stop, moved through with the arrow keys. Only the
// rows in view exist in the DOM (rows have one fixed height), so 100,000 chunks list as fast
// as ten.

import { el } from './dom.js';

const OVERSCAN = 6;

// A row's second line, in order: the size (with its tokens, when counted) and range are shown
// whole, the rest (a passage's item ids) as far as it fits.
const META = [['row-size', 'size'], ['row-range', 'range'], ['row-extra', 'extra']];

/**
 * `describe(chunk)` answers what its row shows: `{title, heading, size, flag, range, extra,
 * preview}`, each a string, '' for none. The flag (of a chunk over the token budget) follows
 * the title, and marks the row. The title (index and type), size and range are
 * shown whole at every width; the heading, extra and preview end in an ellipsis when the
 * row is too narrow for them. `onSelect(index)` is called when a row is chosen by click or
 * key.
 */
export function createChunkList(container, { onSelect }) {
  const spacer = el('div', { className: 'list-spacer' });
  const empty = el('p', { className: 'empty' }, 'No chunks.');
  container.append(spacer);
  let chunks = [];
  let describe = null;
  let rowHeight = 0;
  let selected = -1;
  let frame = 0;
  // The rows in the list now, by chunk index: each node with the key of what it shows.
  let shown = new Map();

  // Where the list is scrolled to and how tall it is, as last seen by a scroll event or a
  // resize: reading `scrollTop` or `clientHeight` in a redraw, after the views changed the
  // page, would make the browser lay the whole page out there and then, and again at paint.
  let scrolledTo = 0;
  let viewHeight = 0;

  function measure() {
    // One row's height, read from the stylesheet through a real row.
    const probe = row(0, lines(0));
    spacer.append(probe);
    rowHeight = probe.offsetHeight;
    probe.remove();
    viewHeight = container.clientHeight;
    scrolledTo = container.scrollTop;
  }

  /** What row `index` shows, and a key that is the same when it shows the same. */
  function lines(index) {
    const line = describe(chunks[index]);
    const { title, heading, size, flag, range, extra, preview } = line;
    return { ...line, key: [title, heading, size, flag, range, extra, preview].join('\n') };
  }

  function row(index, line) {
    const meta = [];
    for (const [className, name] of META) {
      if (!line[name]) continue;
      if (meta.length) meta.push(' · ');
      meta.push(el('span', { className }, line[name]));
    }
    const node = el('div', {
      className: `row c${index % 6}${line.flag ? ' over' : ''}`, id: `chunk-row-${index}`,
      attrs: { role: 'option', 'aria-selected': String(index === selected) },
      dataset: { index },
    }, el('span', { className: 'row-head' }, el('span', { className: 'row-title' }, line.title),
      line.flag ? el('span', { className: 'row-flag' }, line.flag) : null,
      line.heading ? el('span', { className: 'row-heading' }, line.heading) : null),
    el('span', { className: 'row-meta' }, ...meta),
    el('span', { className: 'row-preview' }, line.preview));
    node.style.top = `${index * rowHeight}px`;
    return node;
  }

  function render() {
    frame = 0;
    if (!chunks.length || !rowHeight) return;
    // The browser moves a list scrolled past its new end back at the next layout, and says
    // so with a scroll event; until then, the rows of the end are shown.
    const top = Math.min(scrolledTo, Math.max(0, chunks.length * rowHeight - viewHeight));
    const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
    const visible = Math.ceil(viewHeight / rowHeight) + 2 * OVERSCAN;
    const last = Math.min(chunks.length, first + visible);
    // A row that shows the same as before stays (a setting's step often leaves most chunks
    // as they were): a new one would cost the browser its layout and paint again for the
    // same picture (tests/bench/playground.py, slider).
    const next = new Map();
    for (let index = first; index < last; index += 1) {
      const line = lines(index);
      const kept = shown.get(index);
      if (kept?.key === line.key) {
        const wanted = String(index === selected);
        if (kept.node.getAttribute('aria-selected') !== wanted) {
          kept.node.setAttribute('aria-selected', wanted);
        }
        next.set(index, kept);
      } else {
        next.set(index, { key: line.key, node: row(index, line) });
      }
    }
    // The same rows (both are runs of indexes, so the same first and size): only those that
    // show something else change.
    if (next.size === shown.size && shown.keys().next().value === first) {
      for (const [index, { node }] of next) {
        const old = shown.get(index).node;
        if (old !== node) old.replaceWith(node);
      }
    } else {
      spacer.replaceChildren(...[...next.values()].map(({ node }) => node));
    }
    shown = next;
  }

  container.addEventListener('scroll', () => {
    scrolledTo = container.scrollTop;
    frame ||= requestAnimationFrame(render);
  }, { passive: true });
  // Shown or hidden (the narrow layout's tabs), or resized: as many rows as fit.
  new ResizeObserver(() => {
    if (container.clientHeight === viewHeight) return;
    viewHeight = container.clientHeight;
    if (chunks.length) sizeRows();  // a list shown hidden had no row to measure
    frame ||= requestAnimationFrame(render);
  }).observe(container);

  function sizeRows() {
    // Rows are sized in rem, so one measure holds for the page's life (it forces a layout).
    if (!rowHeight) measure();
    spacer.style.height = `${chunks.length * rowHeight}px`;
  }

  container.addEventListener('click', (event) => {
    const node = event.target.closest?.('[data-index]');
    if (node) onSelect(Number(node.dataset.index));
  });

  const KEYS = {
    ArrowDown: (i) => i + 1,
    ArrowUp: (i) => i - 1,
    PageDown: (i) => i + Math.max(1, Math.floor(container.clientHeight / rowHeight) - 1),
    PageUp: (i) => i - Math.max(1, Math.floor(container.clientHeight / rowHeight) - 1),
    Home: () => 0,
    End: () => chunks.length - 1,
  };
  container.addEventListener('keydown', (event) => {
    const move = KEYS[event.key];
    if (!move || !chunks.length) return;
    event.preventDefault();
    onSelect(Math.max(0, Math.min(chunks.length - 1, move(Math.max(selected, 0)))));
  });

  return {
    show(newChunks, newDescribe) {
      chunks = newChunks;
      describe = newDescribe;
      if (selected >= chunks.length) selected = -1;
      spacer.style.height = '0px';
      empty.remove();
      if (!chunks.length) {
        spacer.replaceChildren();
        shown = new Map();
        container.append(empty);
        container.removeAttribute('aria-activedescendant');
        return;
      }
      sizeRows();
      render();
    },

    /** Mark row `index` as selected and, with `scroll`, bring it into view. */
    select(index, { scroll = false } = {}) {
      for (const node of spacer.querySelectorAll('[aria-selected="true"]')) {
        node.setAttribute('aria-selected', 'false');
      }
      selected = index;
      document.getElementById(`chunk-row-${index}`)?.setAttribute('aria-selected', 'true');
      if (scroll && rowHeight) {
        // A person chose the row: read where the list is now, whatever that costs.
        const top = index * rowHeight;
        scrolledTo = container.scrollTop;
        viewHeight = container.clientHeight;
        const wanted = top < scrolledTo ? top
          : top + rowHeight > scrolledTo + viewHeight ? top + rowHeight - viewHeight : scrolledTo;
        if (wanted !== scrolledTo) {
          container.scrollTop = scrolledTo = wanted;
          render();
        }
      }
      if (index >= 0) container.setAttribute('aria-activedescendant', `chunk-row-${index}`);
      else container.removeAttribute('aria-activedescendant');
    },
  };
}
