// The replay viewer: steps through a game's log, one action at a time.
//
// The page cannot run an engine. When the server offers the view after each step
// (`GET /api/games/{id}/replay?at=N`, see docs/web-client.md), the board is drawn at every step;
// otherwise the viewer steps through the log's actions and events beside the final position.

import { h, mount, seatDot } from '../dom.js';
import { api, get, gameInfo, errorText } from '../api.js';
import { socket } from '../socket.js';
import { gameModule } from '../games/index.js';
import { makeContext } from '../games/common.js';
import { resultPanel } from './result.js';
import { boardScroll } from './game.js';
import { ensureTexts } from '../texts.js';
import { setTermLookup } from '../tooltip.js';
import { icon } from '../icons.js';
import { t, formatNumber } from '../i18n.js';

export function replayScreen(ctx, id) {
  const code = ctx.query.get('code') || undefined;
  const q = code ? `?code=${encodeURIComponent(code)}` : '';
  const root = h('section', { class: 'replay', 'data-testid': 'replay' }, h('p', { class: 'muted' }, t('replay.loading')));
  mount(ctx.app, root);
  let disposed = false;
  let step = 0;
  let timer = null;
  let steps = [];
  let game = null;
  let log = null;
  let finalView = null;
  let perStep = null; // true when the server answers the per-step view route
  let texts = null; // the game's rules texts, for names in labels
  const viewCache = new Map();
  let unfollow = null;
  let stop = null;

  const boardBox = h('div', { class: 'board', 'data-testid': 'board' });
  const stepText = h('p', { class: 'step-text', 'data-testid': 'replay-step' });
  const slider = h('input', { type: 'range', min: 0, value: 0, 'aria-label': t('replay.move_shown'), oninput: (e) => go(Number(e.target.value)) });
  const list = h('ol', { class: 'log replay-list', 'data-testid': 'replay-list' });
  const listScroll = h('div', { class: 'log-scroll', tabindex: '0', role: 'region', 'aria-label': t('replay.moves') }, list);
  const note = h('p', { class: 'muted small' });
  const resultBox = h('div');

  function name(seat) {
    return (log.seats && log.seats[seat]) || t('common.seat', { n: formatNumber(seat + 1) });
  }

  async function viewAt(n) {
    if (perStep === false) return null;
    if (viewCache.has(n)) return viewCache.get(n);
    try {
      const answer = await api('GET', `/api/games/${encodeURIComponent(id)}/replay?at=${n}${code ? `&code=${encodeURIComponent(code)}` : ''}`);
      perStep = true;
      viewCache.set(n, answer);
      return answer;
    } catch (e) {
      // An older server: no such route, or no steps of a running game.
      if (e.status === 404 || e.code === 'proto/no_route' || e.code === 'game/running') perStep = false;
      return null;
    }
  }

  /** An event in the interface's language when the game's module can word it, else the server's sentence. */
  function eventText(e, c) {
    const mod = gameModule(log.game);
    try {
      return (mod.logText && e.data && mod.logText(e.data, c)) || e.text;
    } catch {
      return e.text;
    }
  }

  function context(view) {
    const g = { seat: null, seats: log.seats, to_act: [], legal: [], outcome: null, view };
    const mod = gameModule(log.game);
    return { mod, c: makeContext(g, { act: () => {}, name, texts, labeler: mod.label, focusOn: () => {} }) };
  }

  async function draw() {
    const at = await viewAt(step);
    if (disposed) return;
    const view = at ? at.view : finalView;
    if (view) {
      const { mod, c } = context(view);
      const scroll = boardScroll(boardBox);
      try {
        mount(boardBox, mod.board(view, c));
      } catch (e) {
        mount(boardBox, h('p', { class: 'error' }, t('replay.board_failed', { message: e.message })));
      }
      scroll.restore();
    }
    mount(note, perStep ? '' : (finalView ? t('replay.no_steps') : ''));
  }

  function go(n) {
    step = Math.max(0, Math.min(steps.length, n));
    slider.value = String(step);
    const entry = steps[step - 1];
    const { c } = context(finalView);
    mount(stepText, step === 0 ? t('replay.setup', { n: formatNumber(steps.length) }) : [
      `${t('replay.move_of', { n: formatNumber(step), total: formatNumber(steps.length) })} `, seatDot(entry.seat), ` ${name(entry.seat)}`,
      entry.action !== null && entry.action !== undefined ? ` — ${c.label(entry.action)}` : '',
      entry.by_clock ? ` (${t('game.by_clock')})` : '',
    ]);
    [...list.children].forEach((li, i) => li.classList.toggle('current', i === step - 1));
    const current = list.children[step - 1];
    if (current) current.scrollIntoView({ block: 'nearest' });
    draw();
  }

  function play() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      return;
    }
    timer = setInterval(() => {
      if (step >= steps.length) {
        clearInterval(timer);
        timer = null;
      } else go(step + 1);
    }, 700);
  }

  (async () => {
    try {
      ({ game } = await get(`/api/games/${encodeURIComponent(id)}${q}`));
      log = await get(`/api/games/${encodeURIComponent(id)}/log${q}`);
    } catch (e) {
      mount(root, h('h1', {}, t('replay.title')), h('p', { class: 'error' }, errorText(e)), h('a', { href: '#/' }, t('common.back')));
      return;
    }
    if (disposed) return;
    const info = await gameInfo(log.game).catch(() => ({ name: log.game }));
    texts = await ensureTexts(log.game);
    setTermLookup((key) => texts.term(key));
    if (disposed) return;
    steps = log.actions || [];
    slider.max = String(steps.length);
    const { c } = context(null);
    mount(list, ...steps.map((entry, i) => h('li', { onclick: () => go(i + 1), 'data-seq': i + 1 },
      h('button', { class: 'link step-link', 'aria-label': t('replay.show_move', { n: formatNumber(i + 1) }), onclick: (e) => { e.stopPropagation(); go(i + 1); } }, `${i + 1}.`), ' ',
      seatDot(entry.seat), ` ${name(entry.seat)}: `,
      entry.action !== null && entry.action !== undefined ? c.label(entry.action) : t('replay.a_move'),
      entry.by_clock ? h('span', { class: 'tag clock-tag', 'data-testid': 'by-clock' }, t('game.by_clock')) : null,
      ...(entry.events || []).map((e) => h('div', { class: 'small event-text' }, eventText(e, c))))));
    mount(root,
      h('h1', {}, t('replay.heading', { game: info.name })),
      h('p', { class: 'muted' }, log.seats.join(' · '), game.status === 'running' ? ` (${t('replay.still_running')})` : ''),
      h('div', { class: 'replay-controls' },
        // SVG icons: the media-control characters are missing from many stock font sets.
        h('button', { class: 'icon', onclick: () => go(0), 'aria-label': t('replay.first'), 'data-tip': t('replay.first'), 'data-testid': 'replay-first' }, icon('first')),
        h('button', { class: 'icon', onclick: () => go(step - 1), 'aria-label': t('replay.prev'), 'data-tip': t('replay.prev'), 'data-testid': 'replay-prev' }, icon('prev')),
        h('button', { class: 'icon', onclick: play, 'aria-label': t('replay.play'), 'data-tip': t('replay.play'), 'data-testid': 'replay-play' }, icon('play')),
        h('button', { class: 'icon', onclick: () => go(step + 1), 'aria-label': t('replay.next'), 'data-tip': t('replay.next'), 'data-testid': 'replay-next' }, icon('next')),
        h('button', { class: 'icon', onclick: () => go(steps.length), 'aria-label': t('replay.last'), 'data-tip': t('replay.last'), 'data-testid': 'replay-last' }, icon('last')),
        slider),
      stepText,
      h('div', { class: 'game-body' }, boardBox, h('aside', { class: 'side' }, note, h('section', { class: 'log-box' }, h('h2', {}, t('replay.moves')), listScroll))),
      resultBox,
      h('p', {}, h('a', { href: `/api/games/${encodeURIComponent(id)}/log${q}`, download: `${id}.json` }, t('replay.download')),
        ` — ${t('replay.verify_before')} `, h('code', {}, 'chapterhouse verify'), t('replay.verify_after')));
    if (game.outcome) mount(resultBox, resultPanel({ outcome: game.outcome, seed: game.seed, seed_commitment: game.seed_commitment }, name, gameModule(log.game)));
    // The final position comes from an ordinary subscription.
    stop = socket.on((msg) => {
      if (msg.game === id && msg.type === 'snapshot') {
        finalView = msg.view;
        draw();
      }
    });
    unfollow = socket.follow(`replay:${id}`, () => ({ type: 'subscribe', game: id, code }), { type: 'unsubscribe', game: id });
    go(steps.length);
  })();

  return {
    dispose() {
      disposed = true;
      if (timer) clearInterval(timer);
      if (stop) stop();
      if (unfollow) unfollow();
    },
  };
}
