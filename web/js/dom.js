// Tiny DOM helpers: build elements from a tag, properties and children; no framework.

/**
 * Make an element. `props` keys: `class`, `text`, `on` (map of event -> handler), `style` (map),
 * any other key is set as an attribute (null/false skipped, true as "").
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "on") for (const [name, fn] of Object.entries(value)) el.addEventListener(name, fn);
    else if (key === "style") for (const [name, v] of Object.entries(value)) el.style.setProperty(name, v);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Append children (elements, strings, arrays, null skipped) to `el`. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * Make `children` (elements, strings, arrays, null skipped) the children of `el`. An element that is already
 * a child and stays one is left where it is, never taken out and put back (a kept card under a finger stays
 * the same node, in the page, all along); the others are replaced.
 */
export function fill(el, ...children) {
  const nodes = children.flat(Infinity).filter((child) => child !== null && child !== undefined && child !== false)
    .map((child) => (child instanceof Node ? child : document.createTextNode(String(child))));
  const keep = new Set(nodes);
  for (const old of [...el.childNodes]) if (!keep.has(old)) old.remove();
  nodes.forEach((node, i) => {
    const at = el.childNodes[i] || null;
    if (at !== node) el.insertBefore(node, at);
  });
  return el;
}

/**
 * Fill `frame` with `children` and give the focus back to the element carrying the same `data-focus` as
 * the one focused before (screens redraw whole; the keyboard user keeps their place).
 */
export function redraw(frame, ...children) {
  keepFocus(frame, () => fill(frame, ...children));
}

/**
 * Run `change` (which rebuilds part of `scope`) and give the focus back to the element carrying the same
 * `data-focus` as the one focused before. When it is gone (a card just played), the focus goes to the element
 * now at the same place in its `data-focus-group` (the next card of the hand), so it is not lost to the page.
 */
export function keepFocus(scope, change) {
  const active = document.activeElement;
  const key = active && scope.contains(active) && active.dataset ? active.dataset.focus : null;
  // A ring only where there was one: a keyboard user's focus stays visible, a click leaves no outline.
  const visible = Boolean(key) && active.matches(":focus-visible");
  const group = key ? active.closest("[data-focus-group]") : null;
  const groupKey = group ? group.dataset.focusGroup : null;
  const place = group ? [...group.querySelectorAll("[data-focus]")].indexOf(active) : -1;
  change();
  if (!key) return;
  let again = scope.querySelector(`[data-focus="${CSS.escape(key)}"]`);
  if (!again && groupKey) {
    const members = [...scope.querySelectorAll(`[data-focus-group="${CSS.escape(groupKey)}"] [data-focus]`)];
    again = members[Math.min(place, members.length - 1)] || null;
  }
  if (!again || again.disabled) return;
  again.focus({ preventScroll: true, focusVisible: visible });
  if (again instanceof HTMLInputElement && again.type === "text") again.setSelectionRange(again.value.length, again.value.length);
}

/** A button with a label (text or children) and a click handler; a text label is also its `data-focus`. */
export function button(label, onClick, props = {}) {
  const focus = typeof label === "string" ? label : null;
  return h("button", { type: "button", "data-focus": focus, ...props, on: { click: onClick, ...(props.on || {}) } }, label);
}

/**
 * A labelled <select> of [value, text] or [value, text, sentence] options; `onChange(value)` on change.
 * `props` go to the select, but `hint`: words said under it whatever is chosen, after the chosen option's
 * sentence (both read by a screen reader as the select's description).
 */
export function select(label, options, value, onChange, props = {}) {
  const { hint = null, ...rest } = props;
  const el = h("select", rest, options.map(([v, t, more]) => h("option", { value: String(v), selected: String(v) === String(value), title: more || null }, t)));
  // A closed select cuts its words at its width (a phone's 360 pixels): the options carry short words, and
  // the chosen one's whole sentence (with the `hint`) is said under it, where it wraps.
  const said = hint || options.some((option) => option[2]) ? h("small", { class: "choice-hint", id: `choice-hint-${++hints}` }) : null;
  const describe = () => {
    if (!said) return;
    const chosen = options.find(([v]) => String(v) === el.value);
    said.textContent = [chosen && chosen[2], hint].filter(Boolean).join(" ");
  };
  if (said) el.setAttribute("aria-describedby", said.id);
  describe();
  el.addEventListener("change", () => { describe(); onChange(el.value); });
  return h("label", { class: "field" }, h("span", {}, label), el, said);
}

let hints = 0; // the ids of the selects' sentences, one each

/**
 * How far down the window the page is in view above `cover`, an element that stays at the bottom of the
 * screen (the table's hand, sticky there; null: nothing covers the page).
 */
export function floorAbove(cover) {
  return innerHeight - (cover ? cover.offsetHeight : 0);
}

/**
 * Scroll the window as little as it takes to bring `el` wholly into view above `cover` (`floorAbove`), its
 * top kept in view when it is taller than that room. Nothing moves when it is in view already.
 */
export function revealAbove(el, cover) {
  const box = el.getBoundingClientRect();
  const floor = floorAbove(cover);
  if (box.top >= 0 && box.bottom <= floor) return;
  window.scrollBy(0, box.top < 0 ? box.top - 4 : Math.min(box.top - 4, box.bottom - floor + 4));
}

/** "click" with a mouse, "tap" on a touch screen (the primary pointer is coarse). */
export function tapWord() {
  return matchMedia("(pointer: coarse)").matches ? "tap" : "click";
}

/**
 * Nodes kept from one draw to the next, by key. A screen that redraws whole from its state builds its
 * controls (and the boxes they sit in) through one of these, so that each stays the same node in the same
 * place while a push redraws the page: a click is a press and a release on one node, and a button swapped
 * between the two (a friend sat down meanwhile) gets no click at all. `fill` leaves a node that stays a
 * child where it is, so a kept button inside kept boxes is never taken out of the page.
 */
export class Kept {
  constructor() {
    this.nodes = new Map();
    this.drawn = new Set(); // the keys asked for since the last `sweep`
  }

  /**
   * Forget every node whose key was not asked for since the last sweep: a screen calls it at the end of each
   * whole draw, so a table gone from the lobby, a card gone from a column, a prompt answered are let go and
   * the map does not grow over a long session.
   */
  sweep() {
    for (const key of [...this.nodes.keys()]) if (!this.drawn.has(key)) this.nodes.delete(key);
    this.drawn.clear();
  }

  /**
   * The `tag` element kept under `key`, made the first time; every call sets its `props` again (as `h`
   * does, but `on` only the first time: handlers made at each draw belong in `button`) and makes
   * `children` its children.
   */
  el(key, tag, props = {}, ...children) {
    this.drawn.add(key);
    let el = this.nodes.get(key);
    if (!el) {
      el = h(tag, { on: props.on });
      this.nodes.set(key, el);
    }
    setProps(el, props);
    return fill(el, ...children);
  }

  /**
   * The `tag` element kept under `key` with its `props` set, its children left as they are: for a node
   * whose words are written in place (a countdown), so a redraw does not put the same words in again and a
   * screen reader does not hear them again.
   */
  held(key, tag, props = {}) {
    return this.el(key, tag, props, ...(this.nodes.has(key) ? [...this.nodes.get(key).childNodes] : []));
  }

  /**
   * The button kept under `key` (also its `data-focus` unless `props` names another), with the label
   * (text or children) and the click handler of the latest draw.
   */
  button(key, label, onClick, props = {}) {
    this.drawn.add(key);
    let el = this.nodes.get(key);
    if (!el) {
      el = button(label, () => el.onPress(), { "data-focus": key });
      this.nodes.set(key, el);
    }
    el.onPress = onClick;
    setProps(el, { type: "button", "data-focus": key, ...props });
    if (typeof label === "string") {
      if (el.textContent !== label) el.textContent = label;
    } else {
      // A label of elements (a contract's name and its words, a suit's symbol) is made anew at every draw:
      // put in only when it reads differently, so the span the pointer went down on stays in the page.
      const fresh = fill(document.createElement("span"), label);
      if (fresh.innerHTML !== el.innerHTML) fill(el, [...fresh.childNodes]);
    }
    return el;
  }
}

/** Set `props` (as `h` reads them, `on` and `text` aside) on `el`, and drop those set before and not now. */
function setProps(el, props) {
  const before = el.keptProps || new Set();
  const now = new Set();
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "on" || key === "text" || value === null || value === undefined || value === false) continue;
    now.add(key);
    if (key === "class") {
      if (el.className !== value) el.className = value;
    } else if (key === "style") for (const [name, v] of Object.entries(value)) el.style.setProperty(name, v);
    else {
      const text = value === true ? "" : String(value);
      if (el.getAttribute(key) !== text) el.setAttribute(key, text);
    }
  }
  for (const key of before) if (!now.has(key)) key === "class" ? (el.className = "") : el.removeAttribute(key);
  el.keptProps = now;
}

const watchedScrolls = new WeakSet();

/**
 * Let the keyboard scroll `el`, a box with `overflow: auto`, whenever its content is larger than it (a score
 * table wider than the side column, a long chat): it is then a tab stop of its own (tabindex 0, WCAG 2.1.1;
 * axe's scrollable-region-focusable), and not one while everything in it shows. Watched for changes of its
 * size and content from then on. Returns `el`.
 */
export function scrollableByKeys(el) {
  const observers = [];
  const update = () => {
    // Taken out of the page (a redraw made a new box): watched no longer, so old boxes are let go.
    if (!el.isConnected && observers.length && !el.parentNode) {
      for (const observer of observers.splice(0)) observer.disconnect();
      watchedScrolls.delete(el);
      return;
    }
    const scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
    if (scrolls && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
    else if (!scrolls && el.getAttribute("tabindex") === "0") el.removeAttribute("tabindex");
  };
  if (!watchedScrolls.has(el)) {
    watchedScrolls.add(el);
    const resized = new ResizeObserver(update);
    const changed = new MutationObserver(update);
    resized.observe(el);
    changed.observe(el, { childList: true, subtree: true, characterData: true });
    observers.push(resized, changed);
  }
  queueMicrotask(update);
  return el;
}

/**
 * A name a player typed (a player's, a table's), isolated from the words around it: a right-to-left name
 * ("نور") does not reorder the seat letter, the score or the punctuation beside it (Unicode bidi; <bdi>).
 */
export function bdi(text) {
  return h("bdi", {}, text);
}
