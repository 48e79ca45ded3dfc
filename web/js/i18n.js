// The interface language: English or German. Every string the client shows goes through `t(key, params)`;
// the catalogs are plain objects in `lang/<language>/<area>.js`, one file per area (`ui` for the screens,
// `social` for chat, profiles, rematch and ratings) so that areas can grow without touching each other.
// The language follows the browser (`navigator.languages`) until the user picks one, which is remembered.
// Game texts (cards, locations…) come from the engine crates' catalogs instead (see texts.js).

import en from './lang/en/index.js';
import de from './lang/de/index.js';

export const LANGUAGES = { en: 'English', de: 'Deutsch' };
const CATALOGS = { en, de };
const STORE_KEY = 'chapterhouse.lang';

function fromBrowser() {
  const wanted = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en']);
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (CATALOGS[base]) return base;
  }
  return 'en';
}

let current = (() => {
  try {
    const saved = localStorage.getItem(STORE_KEY);
    if (saved && CATALOGS[saved]) return saved;
  } catch {
    // Storage may be unavailable (private mode): the browser's language then.
  }
  return fromBrowser();
})();

/** The language in use: `en` or `de`. */
export function lang() {
  return current;
}

const listeners = new Set();

/** Switches the language, remembers it, and tells every listener (the router re-renders the screen). */
export function setLang(code) {
  if (!CATALOGS[code] || code === current) return;
  current = code;
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    // Not remembered, still switched.
  }
  document.documentElement.lang = code;
  for (const f of listeners) f(code);
}

export function onLangChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/**
 * The text of `key` in the current language with `{name}` placeholders filled from `params`.
 * A key missing in German falls back to English (the catalog test keeps that from happening);
 * a key missing everywhere shows as itself so it is easy to spot.
 */
export function t(key, params) {
  const raw = CATALOGS[current][key] ?? CATALOGS.en[key] ?? key;
  if (!params) return raw;
  return raw.replace(/\{(\w+)\}/g, (m, name) => (params[name] === undefined ? m : String(params[name])));
}

/** A date (ISO string, number or Date) formatted for the current language. */
export function formatDate(value, options = { dateStyle: 'medium', timeStyle: 'short' }) {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? String(value) : new Intl.DateTimeFormat(current, options).format(d);
}

/** A number formatted for the current language. */
export function formatNumber(n, options) {
  return new Intl.NumberFormat(current, options).format(n);
}

document.documentElement.lang = current;
