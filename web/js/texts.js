// The rules texts of each game (one catalog per game and language, written in the engine crates and
// served at /api/catalog/{game}/texts): names, one-line summaries and full rules text for every
// card, character, location, edict, mission, track…; a plain-words title and explanation for every
// decision point; and a label and meaning for every action type. The web client, the docs and the
// game log share this one wording.

import { get } from './api.js';

const loaded = new Map(); // game id → Promise<Texts>

/** A game's catalog, or an empty one when the server has none (the table still works without it). */
export function loadTexts(game) {
  if (!loaded.has(game)) {
    loaded.set(game, get(`/api/catalog/${encodeURIComponent(game)}/texts`)
      .then((raw) => new Texts(raw))
      .catch(() => new Texts(null)));
  }
  return loaded.get(game);
}

const ready = new Map(); // game id → Texts, once loaded

/** The catalog of `game` if it has been loaded already, else null: drawing never waits for it. */
export function textsNow(game) {
  return ready.get(game) || null;
}

/** Loads the catalog of `game` and remembers it for textsNow. */
export async function ensureTexts(game) {
  const t = await loadTexts(game);
  ready.set(game, t);
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
