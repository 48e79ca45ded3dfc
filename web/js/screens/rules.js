// A game's rules summary (#/rules/<game>): the summary sections of its rules-text catalog and every
// term it explains (cards, characters, locations, edicts, missions, tracks…), then the decisions and
// actions of a turn, so a player without the printed game can look anything up.

import { h, mount, titleCase } from '../dom.js';
import { gameInfo } from '../api.js';
import { ensureTexts } from '../texts.js';
import { t } from '../i18n.js';

/** The heading of a kind of term (`rules.kind.card`: "Cards"), or the kind's id written out. */
function kindName(kind) {
  const key = `rules.kind.${kind}`;
  const text = t(key);
  return text === key ? titleCase(kind) : text;
}

export function rulesScreen(ctx, game) {
  const root = h('section', { class: 'rules', 'data-testid': 'rules' }, h('p', { class: 'muted' }, t('rules.loading')));
  mount(ctx.app, root);
  let disposed = false;
  (async () => {
    const [info, texts] = await Promise.all([gameInfo(game).catch(() => ({ name: game })), ensureTexts(game)]);
    if (disposed) return;
    if (texts.empty) {
      mount(root, h('h1', {}, t('rules.title_short', { game: info.name })), h('p', { class: 'error' }, t('rules.none')));
      return;
    }
    const kinds = new Map();
    for (const [key, t] of Object.entries(texts.terms)) {
      const kind = key.split(':')[0];
      if (!kinds.has(kind)) kinds.set(kind, []);
      kinds.get(kind).push([key, t]);
    }
    const toc = h('nav', { class: 'rules-toc', 'aria-label': t('rules.contents') }, h('ul', {},
      ...texts.summary.map((s, i) => h('li', {}, h('a', { href: `#/rules/${game}`, onclick: (e) => { e.preventDefault(); document.getElementById(`sum-${i}`)?.scrollIntoView(); } }, s.heading))),
      ...[...kinds.keys()].map((k) => h('li', {}, h('a', { href: `#/rules/${game}`, onclick: (e) => { e.preventDefault(); document.getElementById(`kind-${k}`)?.scrollIntoView(); } }, kindName(k))))));
    mount(root,
      h('h1', {}, t('rules.title', { game: texts.name || info.name })),
      toc,
      ...texts.summary.map((s, i) => h('section', { class: 'card rules-section', id: `sum-${i}` }, h('h2', {}, s.heading), ...String(s.body).split(/\n\n+/).map((p) => h('p', {}, p)))),
      ...[...kinds].map(([kind, list]) => h('section', { class: 'card rules-section', id: `kind-${kind}` },
        h('h2', {}, kindName(kind)),
        h('dl', { class: 'glossary' }, ...list.flatMap(([key, t]) => [h('dt', { id: `term-${key}` }, t.name), h('dd', {}, t.text || t.short)])))),
      Object.keys(texts.steps).length ? h('section', { class: 'card rules-section', id: 'steps' }, h('h2', {}, t('rules.decisions')),
        h('dl', { class: 'glossary' }, ...Object.values(texts.steps).flatMap((s) => [h('dt', {}, s.title), h('dd', {}, s.text)]))) : null,
      Object.keys(texts.actions).length ? h('section', { class: 'card rules-section', id: 'actions' }, h('h2', {}, t('rules.actions')),
        h('dl', { class: 'glossary' }, ...Object.values(texts.actions).flatMap((a) => [h('dt', {}, a.name), h('dd', {}, a.text)]))) : null);
  })();
  return { dispose() { disposed = true; } };
}
