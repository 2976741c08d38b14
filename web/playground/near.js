// The parts of a long view that are drawn only while near its scrolled-to place: a part that
// comes within `margin` of the container's view is drawn, one that moves away is emptied and
// keeps its height, so the scroll bar stays put. A 5 MB document costs what its screenful does.
//
// CSS `content-visibility: auto` did this before, and must not come back: while the page
// holds an element whose content Chromium skips (`content-visibility: auto`, or `hidden` once
// it has been drawn; a closed <details>), Chromium's select-all and paste in the text area
// slow down with the size of the text, whatever the page's scripts do: Control+A, Control+V
// over 1 MB took tens of times as long (tests/playground/test_paste.py keeps it away;
// tests/bench/playground.py, edit, times it).

/**
 * Watch `parts` (children of `container`, made empty and as tall as their guessed height):
 * `draw(part)` when it comes near, `clear(part)` when it leaves (the part's height is then
 * fixed at the height it had). Answers `{watch, swap}`: `watch(parts)` drops the parts watched
 * before.
 */
export function createNearWatch(container, { margin, draw, clear }) {
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const part = entry.target;
      if (entry.isIntersecting) {
        part.style.height = '';
        draw(part);
      } else if (entry.boundingClientRect.height > 0) {
        // (No height: the view is not laid out, hidden; the part is left as it is.) The
        // entry's box is the one last laid out: reading it costs no layout.
        part.style.height = `${entry.boundingClientRect.height}px`;
        clear(part);
      }
    }
  }, { root: container, rootMargin: margin });

  return {
    watch(parts) {
      observer.disconnect();
      for (const part of parts) observer.observe(part);
    },
    /** Watch `added` too, and no longer `dropped` (parts an edit replaced). */
    swap(dropped, added) {
      for (const part of dropped) observer.unobserve(part);
      for (const part of added) observer.observe(part);
    },
  };
}
