// A game without a module of its own: the view as an outline, and the seats' names.

import { h, seatDot } from '../dom.js';

function outline(value, depth) {
  if (value === null || typeof value !== 'object') return h('span', {}, JSON.stringify(value));
  if (depth > 3) return h('span', { class: 'muted' }, '…');
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return h('ul', {}, ...entries.map(([k, v]) => h('li', {}, h('b', {}, String(k)), ': ', outline(v, depth + 1))));
}

export default {
  board(view) {
    return h('div', { class: 'generic-view small' }, outline(view, 0));
  },
  players(view, c) {
    return h('div', {}, ...c.seats.map((name, i) => h('div', { class: 'pboard', style: { '--seat': c.color(i) } }, seatDot(i), ' ', name)));
  },
};
