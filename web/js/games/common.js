// What every game screen shares: the context a game module draws with (names, colours, the legal
// actions and how to bind them to board elements), and a readable fallback label for any action.

import { seatColor, titleCase, listText } from '../dom.js';
import { Texts } from '../texts.js';
import { t, formatNumber } from '../i18n.js';

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

/**
 * An accessible name that starts with what the element shows (so that a person who reads it aloud
 * to a speech tool is understood, WCAG 2.5.3), then says `extra` (what it is or what a click does).
 */
export function spoken(el, extra) {
  const shown = (el.textContent || '').replace(/\s+/g, ' ').trim();
  if (!shown) return extra;
  return extra && !shown.includes(extra) ? `${shown} — ${extra}` : shown;
}

/**
 * A log line from an event's data (the engine's JSON, `{"type": …, fields}`) with the interface
 * catalog's template `<prefix>.log.<key>`; null when the catalog has no such template (the server's
 * sentence is shown then). `spec` says how each field is written: `'seat'` a seat's name, `'seats'`
 * a list of them, `'<kind>'` the rules texts' name of `<kind>:<value>`, `['<kind>']` a list of such
 * names; numbers are formatted, other strings shown as they are. `extra` adds computed placeholders.
 */
export function logLine(prefix, key, e, c, spec, extra) {
  const template = `${prefix}.log.${key}`;
  if (t(template) === template) return null;
  const p = {};
  for (const [k, v] of Object.entries(e)) {
    const how = spec[k];
    if (how === 'seat' && typeof v === 'number') p[k] = c.name(v);
    else if (how === 'seats' && Array.isArray(v)) p[k] = listText(v.map((s) => c.name(s)));
    else if (Array.isArray(how) && Array.isArray(v)) p[k] = listText(v.map((x) => c.tname(how[0], x, String(x))));
    else if (typeof how === 'string' && how !== 'seat' && how !== 'seats' && v !== null && typeof v !== 'object') p[k] = c.tname(how, v, String(v));
    else if (typeof v === 'number') p[k] = formatNumber(v);
    else if (typeof v === 'string') p[k] = v;
  }
  return t(template, { ...p, ...(extra || {}) });
}

/**
 * An object's members sorted by key: for views whose members are shown in a row, since the
 * server sends them in the engine's order in a snapshot and in key order in a patch's value.
 */
export function sortedEntries(obj) {
  return Object.entries(obj).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The type of an action JSON value: its `type` tag, the string itself, or its one key (externally tagged). */
export function actionType(action) {
  if (typeof action === 'string') return action;
  if (!action || typeof action !== 'object') return null;
  if (typeof action.type === 'string') return action.type;
  const keys = Object.keys(action);
  return keys.length === 1 ? keys[0] : null;
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
export function makeContext(g, { act, name, focusOn, labeler, texts }) {
  const legal = g.legal || [];
  const tx = texts || new Texts(null);
  const c = {
    texts: tx,
    /** The written-out name of `kind:id` from the rules texts, else `fallback`. */
    tname: (kind, id, fallback) => [].concat(kind).map((k) => tx.term(k, id)).find(Boolean)?.name ?? fallback,
    /** Gives `el` the rules-text tooltip of `kind:id` (the first of several kinds the catalog has); returns `el`. */
    term(el, kind, id) {
      const key = [].concat(kind).map((k) => tx.key(k, id)).find(Boolean);
      if (key) {
        el.setAttribute('data-term', key);
        // Focusable so that a keyboard reaches its tooltip; named for screen readers.
        if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '0');
        if (!el.hasAttribute('role')) el.setAttribute('role', el instanceof SVGElement ? 'img' : 'note');
        if (!el.hasAttribute('aria-label')) el.setAttribute('aria-label', spoken(el, `${tx.terms[key].name}: ${tx.terms[key].short || ''}`.replace(/: $/, '')));
      }
      return el;
    },
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
        return (labeler && labeler(action, g.view, c)) || (tx.action(actionType(action)) || {}).name || actionLabel(action);
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
      const label = title || (matches.length === 1 ? c.label(matches[0]) : t('board.n_options', { n: formatNumber(matches.length) }));
      el.setAttribute('aria-label', spoken(el, label));
      // The tooltip says what a click does, under the rules text of the thing itself (data-term).
      el.setAttribute('data-tip', matches.length === 1 ? t('board.click', { label }) : t('board.click_choose', { n: formatNumber(matches.length) }));
      el.chMatches = matches;
      // Reads el.chMatches when clicked: settleTargets may have merged an inner target's actions in.
      const go = (event) => {
        if (el.chRetired) return;
        event.stopPropagation();
        const now = el.chMatches;
        if (now.length === 1) act(now[0]);
        else focusOn(now);
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

const MIN_TARGET = 24; // CSS px: the smallest board target a finger or a shaky hand can hit

/**
 * After a board is drawn (laid out): a target inside another target is folded into the outer one,
 * whose click then lists both actions instead of doing one of them on a slight miss; and a target
 * smaller than 24×24 px gets an invisible pad around it, so that it is at least that large.
 */
export function settleTargets(root, c) {
  for (const inner of [...root.querySelectorAll('.clickable')]) {
    const outer = inner.parentElement && inner.parentElement.closest('.clickable');
    if (!outer || !outer.chMatches || !inner.chMatches) continue;
    const merged = [...outer.chMatches];
    for (const a of inner.chMatches) if (!merged.some((b) => same(a, b))) merged.push(a);
    outer.chMatches = merged;
    outer.dataset.clickable = String(merged.length);
    outer.setAttribute('aria-label', spoken(outer, merged.length === 1 ? c.label(merged[0]) : t('board.n_options', { n: formatNumber(merged.length) })));
    outer.setAttribute('data-tip', merged.length === 1 ? t('board.click', { label: c.label(merged[0]) }) : t('board.click_choose', { n: formatNumber(merged.length) }));
    inner.chRetired = true;
    inner.classList.remove('clickable');
    inner.removeAttribute('role');
    inner.removeAttribute('tabindex');
    inner.removeAttribute('aria-label');
    inner.removeAttribute('data-clickable');
    inner.removeAttribute('data-tip');
  }
  // A rules-text element inside a target keeps its hover tooltip but is no separate tab stop or
  // widget: a focusable thing inside a button is lost to screen readers (and axe's nested-interactive).
  const around = [...root.querySelectorAll('[data-term][tabindex]:not(.clickable)')].filter((el) => el.querySelector('.clickable'));
  for (const el of [...root.querySelectorAll('.clickable [data-term][tabindex]'), ...around]) {
    el.removeAttribute('tabindex');
    if (el.getAttribute('role') === 'img' || el.getAttribute('role') === 'note') el.removeAttribute('role');
    el.removeAttribute('aria-label');
  }
  for (const el of root.querySelectorAll('svg .clickable')) {
    const r = el.getBoundingClientRect();
    if (r.width >= MIN_TARGET && r.height >= MIN_TARGET) continue;
    const svg = el.ownerSVGElement;
    const ctm = el.getScreenCTM();
    if (!svg || !ctm || !ctm.a || el.tagName !== 'g') continue;
    const b = el.getBBox();
    const w = Math.max(b.width, (MIN_TARGET + 1) / ctm.a);
    const hgt = Math.max(b.height, (MIN_TARGET + 1) / ctm.d);
    const pad = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    for (const [k, v] of Object.entries({ class: 'pad', x: b.x + b.width / 2 - w / 2, y: b.y + b.height / 2 - hgt / 2, width: w, height: hgt, fill: 'transparent' })) pad.setAttribute(k, v);
    el.prepend(pad);
  }
}
