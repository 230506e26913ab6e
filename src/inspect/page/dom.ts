/**
 * DOM building for the inspector page: elements with attributes and children, where a string child
 * is always a text node. Nothing here writes markup: stream content can only ever be text.
 */

/** An element with attributes (set with setAttribute) and children (strings become text nodes). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (string | Node)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(typeof c === "string" ? document.createTextNode(c) : c);
  return node;
}

/** Removes every child of `node`. */
export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** Characters of one text node before a break opportunity (`<wbr>`) is set after it. */
const RUN = 200;

/**
 * `text` as a text element that lays out fast whatever it holds: a long run with no space (a
 * 100,000-character token) is re-shaped by the browser for every line it wraps to, which took
 * seconds, so such a run gets a break opportunity (`<wbr>`, no character) every RUN characters.
 * The text content stays exactly `text`.
 */
export function textBlock<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string>,
  text: string,
): HTMLElementTagNameMap[K] {
  const node = el(tag, attrs);
  if (!/\S{200}/.test(text)) {
    node.append(document.createTextNode(text));
    return node;
  }
  for (let i = 0; i < text.length; i += RUN) {
    if (i > 0) node.append(document.createElement("wbr"));
    node.append(document.createTextNode(text.slice(i, i + RUN)));
  }
  return node;
}
