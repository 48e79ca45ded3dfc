// The rules texts of each game (one catalog per game and language, written in the engine crates and
// served at /api/catalog/{game}/texts?lang=<en|de>, in the interface's language): names, one-line summaries and full rules text for every
// card, character, location, edict, mission, track…; a plain-words title and explanation for every
// decision point; and a label and meaning for every action type. The web client, the docs and the
// game log share this one wording.

import { get } from './api.js';
import { lang } from './i18n.js';

const loaded = new Map(); // "<lang>:<game id>" → Promise<Texts>

/**
 * A game's catalog in the current language, or an empty one when the server has none (the table still
 * works without it). A language the server refuses falls back to English, which every engine ships.
 */
export function loadTexts(game) {
  const language = lang();
  const key = `${language}:${game}`;
  if (!loaded.has(key)) {
    const url = (l) => `/api/catalog/${encodeURIComponent(game)}/texts?lang=${l}`;
    loaded.set(key, get(url(language))
      .catch((e) => (language !== 'en' && e.code === 'catalog/unknown_language' ? get(url('en')) : Promise.reject(e)))
      .then((raw) => new Texts(raw))
      .catch(() => new Texts(null)));
  }
  return loaded.get(key);
}

const ready = new Map(); // "<lang>:<game id>" → Texts, once loaded

/** The catalog of `game` in the current language if it has been loaded already, else null: drawing never waits for it. */
export function textsNow(game) {
  return ready.get(`${lang()}:${game}`) || null;
}

/** Loads the catalog of `game` in the current language and remembers it for textsNow. */
export async function ensureTexts(game) {
  const key = `${lang()}:${game}`;
  const t = await loadTexts(game);
  ready.set(key, t);
  return t;
}

export class Texts {
  constructor(raw) {
    this.raw = raw || {};
    this.terms = this.raw.terms || {};
    this.steps = this.raw.steps || {};
    this.actions = this.raw.actions || {};
    this.summary = this.raw.summary || [];
    this.name = this.raw.name || null;
  }

  get empty() {
    return !this.raw.terms;
  }

  /** The key under which `kind:id` is catalogued (ids are tried as given, upper- and lower-case). */
  key(kind, id) {
    for (const k of [`${kind}:${id}`, `${kind}:${String(id).toUpperCase()}`, `${kind}:${String(id).toLowerCase()}`]) {
      if (this.terms[k]) return k;
    }
    return null;
  }

  /** `{name, short, text}` of a term (`kind, id` or a whole key), or of an action (`action:<type>`); null if none. */
  term(kind, id) {
    if (id === undefined && kind.startsWith('action:')) {
      const a = this.actions[kind.slice(7)];
      return a ? { name: a.name, text: a.text } : null;
    }
    const k = id === undefined ? (this.terms[kind] ? kind : null) : this.key(kind, id);
    return k ? this.terms[k] : null;
  }

  /** The written-out name of a term, or `fallback`. */
  nameOf(kind, id, fallback) {
    const t = this.term(kind, id);
    return t ? t.name : fallback;
  }

  step(id) {
    return this.steps[id] || null;
  }

  action(type) {
    return (type && this.actions[type]) || null;
  }
}
