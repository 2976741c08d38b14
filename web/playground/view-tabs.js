// On a narrow screen the page shows one part at a time, the text, the chunks, the search or
// the Tune view, switched by tabs at the top: the chunks are one tap away, not past the text
// and settings.
// The stylesheet hides the tabs on a wide screen, where every part shows at once.

const NARROW = matchMedia('(max-width: 959px)');

/** Wire the tabs of `tablist` (buttons with `data-view`); `body[data-view]` shows the part. */
export function createViewTabs(tablist) {
  const tabs = [...tablist.querySelectorAll('[role="tab"]')];

  function show(view, { focus = false } = {}) {
    document.body.dataset.view = view;
    for (const tab of tabs) {
      const selected = tab.dataset.view === view;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      if (selected && focus) tab.focus();
    }
    // The part starts at the top of the screen, under the tabs.
    if (NARROW.matches) window.scrollTo({ top: 0 });
  }

  tablist.addEventListener('click', (event) => {
    const tab = event.target.closest('[role="tab"]');
    if (tab) show(tab.dataset.view);
  });
  // Arrow keys move between the tabs, as in any tab list.
  tablist.addEventListener('keydown', (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    const at = tabs.findIndex((tab) => tab.dataset.view === document.body.dataset.view);
    show(tabs[(at + step + tabs.length) % tabs.length].dataset.view, { focus: true });
    event.preventDefault();
  });
  show('text');
  return {
    show,
    /**
     * On a narrow screen, show `view` with `target` (an element in it) at the top, under the
     * tabs, and focus it: what was used to get there (a search hit) is hidden then. A wide
     * screen shows every part already, and nothing moves.
     */
    reveal(view, target) {
      if (!NARROW.matches) return;
      show(view);
      target.scrollIntoView({ block: 'start' });
      target.focus({ preventScroll: true });
    },
  };
}
