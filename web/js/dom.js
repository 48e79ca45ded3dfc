// Building DOM and SVG safely: text always goes through text nodes, never innerHTML.

import { lang } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(el, attrs, svg) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    else if (key === 'style' && typeof value === 'object') Object.assign(el.style, value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (!svg && (key === 'value' || key === 'checked' || key === 'disabled' || key === 'selected')) el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: `h('p', {class: 'x'}, 'text', child)`. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  apply(el, attrs, false);
  append(el, children);
  return el;
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs, true);
  append(el, children);
  return el;
}

/** Replaces the children of `el`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Colours of seats 0..7, and their names for screen readers and labels. */
export const SEAT_COLORS = ['#c0392b', '#2e6fd8', '#2f9e44', '#e6b400', '#8e44ad', '#e67e22', '#16a3a3', '#d6409f'];
export const SEAT_COLOR_NAMES = ['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'teal', 'pink'];

export function seatColor(seat) {
  return SEAT_COLORS[seat % SEAT_COLORS.length];
}

/** Each seat's letter: seats differ by more than their colour (colour-blind players, greyscale). */
export const SEAT_LETTERS = 'ABCDEFGH';
// Dark ink on the light seat colours (yellow, orange, teal), white on the others.
const LIGHT = new Set([3, 5, 6]);

export function seatInk(seat) {
  return LIGHT.has(seat % SEAT_COLORS.length) ? '#1b1b1b' : '#ffffff';
}

/** A coloured badge with the seat's letter. */
export function seatDot(seat) {
  return h('span', { class: 'seat-dot', style: { background: seatColor(seat), color: seatInk(seat) }, 'aria-hidden': 'true' }, SEAT_LETTERS[seat % SEAT_LETTERS.length]);
}

/** "a, b and c" in the current language. */
export function listText(items) {
  return new Intl.ListFormat(lang(), { style: 'long', type: 'conjunction' }).format(items.map(String));
}

/** Capitalised words from a snake_case or kebab-case id. */
export function titleCase(id) {
  return String(id).replace(/[_-]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}
