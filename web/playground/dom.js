// Building DOM nodes from data. Text always goes in as text nodes, never as markup, so a
// document holding `<img onerror=…>` shows those characters and runs nothing.

/**
 * Make an element: `el('li', {className: 'row', dataset: {chunk: '3'}}, 'text', child)`.
 * Properties are assigned as DOM properties (`className`, `id`, `type`, …), `dataset` and
 * `attrs` (for ARIA and SVG attributes) are set one by one; children are nodes or strings.
 */
export function el(tag, props = {}, ...children) {
  return build(document.createElement(tag), props, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The same for SVG elements, whose attributes must all go through `setAttribute`. */
export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), { attrs }, children);
}

function build(node, props, children) {
  const { dataset, attrs, ...rest } = props;
  Object.assign(node, rest);
  for (const [key, value] of Object.entries(dataset ?? {})) node.dataset[key] = value;
  for (const [key, value] of Object.entries(attrs ?? {})) node.setAttribute(key, String(value));
  for (const child of children) {
    // `append` turns a string into a text node: it is never read as markup.
    if (child != null && child !== false) node.append(child);
  }
  return node;
}
