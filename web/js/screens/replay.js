// The replay viewer: steps through a game's log, one action at a time.
//
// The page cannot run an engine. When the server offers the view after each step
// (`GET /api/games/{id}/replay?at=N`, see docs/web-client.md), the board is drawn at every step;
// otherwise the viewer steps through the log's actions and events beside the final position.

import { h, mount, seatDot } from '../dom.js';
import { api, get, gameInfo } from '../api.js';
import { socket } from '../socket.js';
import { gameModule } from '../games/index.js';
import { makeContext } from '../games/common.js';
import { resultPanel } from './result.js';
import { boardScroll } from './game.js';
import { ensureTexts } from '../texts.js';
import { setTermLookup } from '../tooltip.js';
import { icon } from '../icons.js';

export function replayScreen(ctx, id) {
  const code = ctx.query.get('code') || undefined;
  const q = code ? `?code=${encodeURIComponent(code)}` : '';
  const root = h('section', { class: 'replay', 'data-testid': 'replay' }, h('p', { class: 'muted' }, 'Loading the log…'));
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
  const slider = h('input', { type: 'range', min: 0, value: 0, 'aria-label': 'Move shown', oninput: (e) => go(Number(e.target.value)) });
  const list = h('ol', { class: 'log replay-list', 'data-testid': 'replay-list' });
  const listScroll = h('div', { class: 'log-scroll', tabindex: '0', role: 'region', 'aria-label': 'Moves' }, list);
  const note = h('p', { class: 'muted small' });
  const resultBox = h('div');

  function name(seat) {
    return (log.seats && log.seats[seat]) || `Seat ${seat + 1}`;
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
        mount(boardBox, h('p', { class: 'error' }, `The board could not be drawn: ${e.message}`));
      }
      scroll.restore();
    }
    mount(note, perStep ? '' : (finalView ? 'This server sends no position per step: the board shows the final position; the list shows every move.' : ''));
  }

  function go(n) {
    step = Math.max(0, Math.min(steps.length, n));
    slider.value = String(step);
    const entry = steps[step - 1];
    const { c } = context(finalView);
    mount(stepText, step === 0 ? `Setup — ${steps.length} moves in all` : [
      `Move ${step} of ${steps.length}: `, seatDot(entry.seat), ` ${name(entry.seat)}`,
      entry.action !== null && entry.action !== undefined ? ` — ${c.label(entry.action)}` : '',
      entry.by_clock ? ' (timed out: played by the clock)' : '',
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
      mount(root, h('h1', {}, 'Replay'), h('p', { class: 'error' }, e.message), h('a', { href: '#/' }, 'Back'));
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
      h('button', { class: 'link step-link', 'aria-label': `Show move ${i + 1}`, onclick: (e) => { e.stopPropagation(); go(i + 1); } }, `${i + 1}.`), ' ',
      seatDot(entry.seat), ` ${name(entry.seat)}: `,
      entry.action !== null && entry.action !== undefined ? c.label(entry.action) : 'a move',
      entry.by_clock ? h('span', { class: 'tag clock-tag', 'data-testid': 'by-clock' }, 'timed out: played by the clock') : null,
      ...(entry.events || []).map((e) => h('div', { class: 'small event-text' }, e.text)))));
    mount(root,
      h('h1', {}, `Replay — ${info.name}`),
      h('p', { class: 'muted' }, log.seats.join(' · '), game.status === 'running' ? ' (still running: only what you may see)' : ''),
      h('div', { class: 'replay-controls' },
        // SVG icons: the media-control characters are missing from many stock font sets.
        h('button', { class: 'icon', onclick: () => go(0), 'aria-label': 'To the start', 'data-tip': 'To the start', 'data-testid': 'replay-first' }, icon('first')),
        h('button', { class: 'icon', onclick: () => go(step - 1), 'aria-label': 'One move back', 'data-tip': 'One move back', 'data-testid': 'replay-prev' }, icon('prev')),
        h('button', { class: 'icon', onclick: play, 'aria-label': 'Play or pause', 'data-tip': 'Play or pause', 'data-testid': 'replay-play' }, icon('play')),
        h('button', { class: 'icon', onclick: () => go(step + 1), 'aria-label': 'One move forward', 'data-tip': 'One move forward', 'data-testid': 'replay-next' }, icon('next')),
        h('button', { class: 'icon', onclick: () => go(steps.length), 'aria-label': 'To the end', 'data-tip': 'To the end', 'data-testid': 'replay-last' }, icon('last')),
        slider),
      stepText,
      h('div', { class: 'game-body' }, boardBox, h('aside', { class: 'side' }, note, h('section', { class: 'log-box' }, h('h2', {}, 'Moves'), listScroll))),
      resultBox,
      h('p', {}, h('a', { href: `/api/games/${encodeURIComponent(id)}/log${q}`, download: `${id}.json` }, 'Download the log'),
        ' — verify it offline with ', h('code', {}, 'chapterhouse verify'), '.'));
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
