// Rules-text tooltips: any element with `data-term="<kind>:<id>"` (a key of the game's texts
// catalog) or `data-tip` (plain text) explains itself on hover, on keyboard focus, and on a long
// press on a touch screen. One tooltip element for the whole page, placed next to its element.

import { h, mount } from './dom.js';

let lookup = () => null; // key → {name, short, text}
let shownFor = null;
let pressTimer = null;
let pressed = false; // the current touch became a long press
let suppressUntil = 0; // the click a long press ends in is not an action

const tip = h('div', { class: 'tooltip', role: 'tooltip', id: 'tooltip', hidden: true });

/** Sets where `data-term` keys are looked up (the current game's texts). */
export function setTermLookup(fn) {
  lookup = fn || (() => null);
}

function content(el) {
  const key = el.getAttribute('data-term');
  const t = key ? lookup(key) : null;
  const extra = el.getAttribute('data-tip');
  if (!t && !extra) return null;
  return [
    t ? h('b', { class: 'tip-name' }, t.name) : null,
    t && t.short ? h('span', { class: 'tip-short' }, t.short) : null,
    t && t.text && t.text !== t.short ? h('span', { class: 'tip-text' }, t.text) : null,
    extra ? h('span', { class: 'tip-extra' }, extra) : null,
  ];
}

function show(el) {
  const parts = content(el);
  if (!parts) return hide();
  if (!tip.isConnected) document.body.append(tip);
  mount(tip, ...parts);
  tip.hidden = false;
  shownFor = el;
  el.setAttribute('aria-describedby', 'tooltip');
  const r = el.getBoundingClientRect();
  const tw = Math.min(340, window.innerWidth - 16);
  tip.style.maxWidth = `${tw}px`;
  const left = Math.max(8, Math.min(window.innerWidth - tw - 8, r.left + r.width / 2 - tw / 2));
  const below = r.bottom + 8;
  tip.style.left = `${left + window.scrollX}px`;
  const height = tip.offsetHeight;
  const top = below + height > window.innerHeight && r.top - height - 8 > 0 ? r.top - height - 8 : below;
  tip.style.top = `${top + window.scrollY}px`;
}

export function hide() {
  tip.hidden = true;
  if (shownFor) shownFor.removeAttribute('aria-describedby');
  shownFor = null;
}

function target(event) {
  const el = event.target instanceof Element ? event.target.closest('[data-term], [data-tip]') : null;
  return el;
}

/** Installs the page-wide listeners (once). */
export function installTooltips() {
  document.addEventListener('pointerover', (e) => {
    if (e.pointerType === 'touch') return;
    const el = target(e);
    if (el && el !== shownFor) show(el);
    else if (!el && shownFor && !tip.contains(e.target)) hide();
  });
  document.addEventListener('focusin', (e) => {
    const el = target(e);
    if (el) show(el);
    else hide();
  });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') hide(); });
  // Long press (touch): the tooltip, and the click that ends the press does not act.
  document.addEventListener('touchstart', (e) => {
    const el = target(e);
    clearTimeout(pressTimer);
    if (!el) { if (!tip.contains(e.target)) hide(); return; }
    pressed = false;
    pressTimer = setTimeout(() => { show(el); pressed = true; }, 450);
  }, { passive: true });
  document.addEventListener('touchend', () => {
    clearTimeout(pressTimer);
    if (pressed) suppressUntil = Date.now() + 700;
    pressed = false;
  }, { passive: true });
  document.addEventListener('touchmove', () => clearTimeout(pressTimer), { passive: true });
  document.addEventListener('contextmenu', (e) => { if (target(e)) e.preventDefault(); });
  document.addEventListener('click', (e) => {
    if (Date.now() < suppressUntil) {
      suppressUntil = 0;
      e.stopPropagation();
      e.preventDefault();
    }
  }, true);
  window.addEventListener('hashchange', hide);
}
