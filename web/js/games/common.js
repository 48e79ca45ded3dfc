// What every game screen shares: the context a game module draws with (names, colours, the legal
// actions and how to bind them to board elements), and a readable fallback label for any action.

import { seatColor, titleCase } from '../dom.js';

/** A readable label for any action JSON, for games or actions a module does not name. */
export function actionLabel(action) {
  if (typeof action === 'string') return titleCase(action);
  if (action === null || typeof action !== 'object') return String(action);
  const entries = Object.entries(action);
  let head = '';
  let rest = entries;
  if ('type' in action) {
    head = titleCase(action.type);
    rest = entries.filter(([k]) => k !== 'type');
  } else if (entries.length === 1) {
    const [[k, v]] = entries;
    if (v === null || typeof v !== 'object') return `${titleCase(k)} ${v}`;
    head = titleCase(k);
    rest = Object.entries(v);
  }
  const parts = rest.map(([k, v]) => `${titleCase(k)}: ${typeof v === 'object' && v !== null ? (Array.isArray(v) ? v.join('–') : actionLabel(v)) : v}`);
  return [head, parts.join(', ')].filter(Boolean).join(' — ');
}

/** Whether two action JSON values are the same. */
export function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The context handed to a game module's drawing functions.
 * - `legal`: this seat's legal actions now; `mine(seat)`: whether a seat is the viewer's.
 * - `bind(el, predicate, title)`: makes `el` clickable when some legal actions match: one action is
 *   sent at once, several narrow the action list to them.
 */
export function makeContext(g, { act, name, focusOn, labeler }) {
  const legal = g.legal || [];
  const c = {
    seat: g.seat === undefined ? null : g.seat,
    seats: g.seats || [],
    toAct: g.to_act || [],
    legal,
    over: !!g.outcome,
    name,
    color: seatColor,
    act,
    mine: (seat) => c.seat !== null && seat === c.seat,
    label: (action) => {
      try {
        return (labeler && labeler(action, g.view, c)) || actionLabel(action);
      } catch {
        return actionLabel(action);
      }
    },
    matching: (predicate) => legal.filter((a) => {
      try {
        return predicate(a);
      } catch {
        return false;
      }
    }),
    bind(el, predicate, title) {
      const matches = c.matching(predicate);
      if (!matches.length) return el;
      const cls = el.getAttribute('class');
      el.setAttribute('class', `${cls ? `${cls} ` : ''}clickable`);
      el.setAttribute('tabindex', '0');
      el.setAttribute('role', 'button');
      el.dataset.clickable = String(matches.length);
      const label = title || (matches.length === 1 ? c.label(matches[0]) : `${matches.length} options`);
      el.setAttribute('aria-label', label);
      if (el instanceof SVGElement) {
        el.append(document.createElementNS('http://www.w3.org/2000/svg', 'title'));
        el.lastChild.textContent = label;
      } else {
        el.title = label;
      }
      const go = (event) => {
        event.stopPropagation();
        if (matches.length === 1) act(matches[0]);
        else focusOn(matches);
      };
      el.addEventListener('click', go);
      el.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          go(event);
        }
      });
      return el;
    },
  };
  return c;
}
