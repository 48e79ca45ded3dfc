// A game table: follows one game over the socket (a snapshot, then one JSON Patch per version),
// draws its board with the game's module, lists the legal actions as buttons, and shows the log
// and the final result. The page holds no rules: it only sends actions the server listed.

import { h, mount, seatDot, listText } from '../dom.js';
import { applyPatch } from '../jsonpatch.js';
import { get, gameInfo, errorText } from '../api.js';
import { socket } from '../socket.js';
import { loadGameCache, saveGameCache } from '../session.js';
import { gameModule } from '../games/index.js';
import { makeContext, actionType, settleTargets } from '../games/common.js';
import { resultPanel } from './result.js';
import { chatPanel } from '../chat.js';
import { rematchBox } from '../rematch.js';
import { ensureTexts, textsNow } from '../texts.js';
import { setTermLookup, hide as hideTooltip } from '../tooltip.js';
import { markChanges } from './changes.js';
import { yourTurnSignal, soundToggle } from './signals.js';
import { icon } from '../icons.js';
import { t, formatNumber } from '../i18n.js';
import { capture, animateMoves } from './motion.js';

const MAX_LOG = 400;

/**
 * Where a board (and each of its panels) is scrolled sideways, to put it back after the board is drawn
 * again: on a phone a player who scrolled the map should not be sent back to its left edge at every move.
 */
export function boardScroll(box) {
  const left = box.scrollLeft;
  const panels = new Map([...box.querySelectorAll('.board-panel[data-panel]')].map((p) => [p.dataset.panel, p.scrollLeft]));
  return {
    restore() {
      if (left) box.scrollLeft = left;
      for (const p of box.querySelectorAll('.board-panel[data-panel]')) {
        const x = panels.get(p.dataset.panel);
        if (x) p.scrollLeft = x;
      }
    },
  };
}

export function gameScreen(ctx, id) {
  const code = ctx.query.get('code') || undefined;
  const cached = loadGameCache(id);
  const meId = ctx.session ? ctx.session.account.id : null;
  // The game as this page knows it; `version` is null until the first snapshot.
  let g = cached && cached.account === meId ? cached : { version: null, log: [] };
  g.account = meId;
  let wantSnapshot = g.version === null;
  let pending = null; // the req of an action in flight
  let focus = null; // legal actions narrowed by a click on the board
  let disposed = false;
  let info = null;
  let marks = null; // what the board looked like, to mark what the last move changed
  let drawnVersion = null; // the version the board shows, so that only a new version animates

  const title = h('h1', { class: 'game-title' }, t('game.title'));
  let zoomed = false;
  const zoom = h('button', { class: 'small zoom-toggle', 'data-testid': 'zoom', 'aria-pressed': 'false', onclick: () => {
    zoomed = !zoomed;
    zoom.setAttribute('aria-pressed', String(zoomed));
    zoom.textContent = zoomed ? t('game.fit_board') : t('game.zoom_board');
    boardBox.classList.toggle('zoomed', zoomed);
  } }, t('game.zoom_board'));
  const status = h('p', { class: 'status', 'data-testid': 'status', role: 'status' });
  const notice = h('p', { class: 'error', role: 'alert' });
  const clockBox = h('p', { class: 'clock', 'data-testid': 'clock', hidden: true });
  const boardBox = h('div', { class: 'board', 'data-testid': 'board', role: 'region', 'aria-label': t('game.board') });
  const turnBox = h('section', { class: 'turn-panel' });
  const actionsBox = h('section', { class: 'actions', 'data-testid': 'legal-actions' });
  const panelBox = h('section', { class: 'player-boards', 'data-testid': 'players' });
  // The log is announced (role log) and scrolls by keyboard (tabindex) as well as by mouse.
  const logList = h('ol', { class: 'log', 'data-testid': 'log' });
  const logScroll = h('div', { class: 'log-scroll', role: 'log', tabindex: '0', 'aria-label': t('game.log') }, logList);
  const resultBox = h('section', { class: 'result-box' });
  const links = h('p', { class: 'game-links muted' });
  // The host of the game's lobby mutes in its chat here too (players and spectators alike): the
  // page asks once whether we host it.
  let hostedLobby = null;
  const chat = chatPanel({ room: { game: id }, me: ctx.session ? ctx.session.account : null,
    host: () => hostedLobby !== null, lobbyId: () => hostedLobby });
  if (meId) findHostedLobby();

  async function findHostedLobby() {
    try {
      const query = code ? `?code=${encodeURIComponent(code)}` : '';
      const { game } = await get(`/api/games/${encodeURIComponent(id)}${query}`);
      if (game.you_host && game.lobby && !disposed) {
        hostedLobby = game.lobby;
        chat.refresh();
      }
    } catch {
      // No mute controls: only the host has them, and the page works without.
    }
  }
  const rematch = rematchBox(ctx, id);
  const root = h('section', { class: 'game', 'data-testid': 'game' },
    h('header', { class: 'game-head' }, title, status, clockBox, zoom, notice),
    resultBox,
    h('div', { class: 'game-body' },
      boardBox,
      h('aside', { class: 'side' },
        turnBox,
        actionsBox,
        panelBox,
        h('section', { class: 'log-box' }, h('h2', {}, t('game.log')), logScroll),
        chat.el,
        links)));
  mount(ctx.app, root);
  if (g.version === null) boardBox.append(h('p', { class: 'muted' }, t('game.loading')));

  function save() {
    saveGameCache(id, g);
  }

  function name(seat) {
    return (g.seats && g.seats[seat]) || t('common.seat', { n: formatNumber(seat + 1) });
  }

  function addLog(events, version, byClock) {
    for (const e of events || []) g.log.push({ text: e.text, data: e.data, private: !!e.private, version, clock: !!byClock });
    if (g.log.length > MAX_LOG) g.log.splice(0, g.log.length - MAX_LOG);
  }

  /** A log line in the interface's language when the game's module can word its event, else the server's sentence. */
  function logText(e, mod, c) {
    if (!mod || !mod.logText || !e.data) return e.text;
    try {
      return mod.logText(e.data, c) || e.text;
    } catch {
      return e.text;
    }
  }

  function renderLog() {
    const atBottom = logScroll.scrollHeight - logScroll.scrollTop - logScroll.clientHeight < 40;
    const mod = g.catalog_id ? gameModule(g.catalog_id) : null;
    const c = makeContext(g, { act: () => {}, name, texts: textsNow(g.catalog_id), focusOn: () => {} });
    mount(logList, ...g.log.map((e) => h('li', { class: e.private ? 'private' : null, 'data-tip': e.private ? t('game.private_entry') : null },
      logText(e, mod, c), e.clock ? h('span', { class: 'tag clock-tag', 'data-testid': 'by-clock' }, t('game.by_clock')) : null)));
    if (atBottom || logList.childElementCount < 3) logScroll.scrollTop = logScroll.scrollHeight;
  }

  function statusText() {
    if (g.outcome) return t(g.outcome.winners.length > 1 ? 'game.over_shared' : 'game.over_won', { names: listText(g.outcome.winners.map(name)) });
    const toAct = g.to_act || [];
    const mine = g.seat !== null && g.seat !== undefined && toAct.includes(g.seat);
    if (toAct.length > 1) return t(mine ? 'game.waiting_many_mine' : 'game.waiting_many', { n: formatNumber(toAct.length) });
    if (mine) return t('game.your_turn');
    if (toAct.length === 1) return t('game.waiting_for', { name: name(toAct[0]) });
    return t('game.waiting');
  }

  function act(action) {
    if (pending !== null || g.outcome) return;
    const req = socket.send({ type: 'action', game: id, version: g.version, action });
    if (req === null) {
      notice.textContent = t('game.not_sent');
      return;
    }
    pending = req;
    focus = null;
    root.dataset.pending = 'true';
    for (const b of root.querySelectorAll('button.action, .clickable')) b.classList.add('sending');
  }

  function render() {
    if (disposed || g.version === null) return;
    const mod = gameModule(g.catalog_id);
    const texts = textsNow(g.catalog_id);
    if (!texts) ensureTexts(g.catalog_id).then(() => render());
    setTermLookup((key) => (texts ? texts.term(key) : null));
    const c = makeContext(g, { act, name, texts, labeler: mod.label, focusOn: (list) => { focus = list; renderActions(c); } });
    title.textContent = info ? info.name : g.catalog_id;
    status.textContent = statusText();
    root.dataset.version = String(g.version);
    root.dataset.game = g.catalog_id;
    root.dataset.state = g.outcome ? 'over' : 'running';
    root.dataset.myTurn = String(c.legal.length > 0);
    root.dataset.seat = g.seat === null || g.seat === undefined ? 'spectator' : String(g.seat);
    root.dataset.pending = String(pending !== null);
    const scroll = boardScroll(boardBox);
    hideTooltip();
    // Where the pieces were, when this drawing shows a newer version than the last one.
    const before = drawnVersion !== null && drawnVersion !== g.version ? capture(boardBox) : null;
    try {
      mount(boardBox, mod.board(g.view, c));
      settleTargets(boardBox, c);
      marks = markChanges(boardBox, marks, g.version);
      scroll.restore();
      animateMoves(boardBox, before);
      drawnVersion = g.version;
    } catch (e) {
      console.error(e);
      mount(boardBox, h('p', { class: 'error' }, t('game.board_failed', { message: e.message })));
    }
    scroll.restore();
    try {
      mount(turnBox, mod.turn ? mod.turn(g.view, c) : null, stepHelp(mod, c));
      settleTargets(turnBox, c);
    } catch (e) {
      console.error(e);
      mount(turnBox, stepHelp(mod, c));
    }
    yourTurnSignal(info ? info.name : g.catalog_id, !g.outcome && c.legal.length > 0);
    try {
      mount(panelBox, mod.players(g.view, c));
    } catch (e) {
      console.error(e);
      mount(panelBox, h('p', { class: 'error' }, t('game.players_failed')));
    }
    renderActions(c);
    renderLog();
    mount(resultBox, g.outcome ? resultPanel(g, name, mod) : null, g.outcome && g.seat !== null && g.seat !== undefined ? rematch.el : null);
    mount(links,
      g.seat === null || g.seat === undefined ? h('span', { class: 'tag' }, t('game.spectating')) : h('span', {}, `${t('game.you_play')} `, seatDot(g.seat), ` ${name(g.seat)}`),
      ` · ${t('game.version')} `, h('span', { 'data-testid': 'version' }, String(g.version)),
      ' · ', h('a', { href: `#/replay/${encodeURIComponent(id)}${code ? `?code=${encodeURIComponent(code)}` : ''}` }, g.outcome ? t('game.replay') : t('game.log_so_far')),
      ' · ', h('a', { href: `/api/games/${encodeURIComponent(id)}/log${code ? `?code=${encodeURIComponent(code)}` : ''}`, download: `${id}.json` }, t('game.download_log')),
      ' · ', h('a', { href: `#/rules/${encodeURIComponent(g.catalog_id)}`, target: '_blank', rel: 'noopener', 'data-testid': 'rules-link' }, t('game.rules_summary')),
      ' · ', soundToggle());
  }

  /** The current decision in plain words, from the rules texts' `steps`. */
  function stepHelp(mod, c) {
    if (g.outcome || !mod.steps) return null;
    const ids = mod.steps(g.view) || [];
    const step = ids.map((s) => c.texts.step(s)).find(Boolean);
    if (!step) return null;
    return h('div', { class: 'step-help', 'data-testid': 'step-help' }, h('p', { class: 'step-title' }, step.title), h('p', { class: 'small' }, step.text));
  }

  // A click on the board that is none of this seat's options says why nothing happens.
  boardBox.addEventListener('click', (event) => {
    if (g.version === null || g.outcome || !(event.target instanceof Element)) return;
    if (event.target.closest('.clickable')) return;
    if (!event.target.closest('svg [data-term], svg g[data-territory], svg g[data-room], svg g[data-location], svg g[data-card], svg g[data-seat], svg g[data-space], svg g[data-storehouse], svg g[data-passage], svg g[data-portal], svg g[data-area]')) return;
    const mine = (g.legal || []).length > 0;
    const waiting = !g.outcome && (g.to_act || []).length > 0;
    refuse(mine ? t('game.not_an_option') : waiting ? t('game.not_your_turn', { status: statusText() }) : t('game.nothing_there'), 'client/not_an_option');
  });

  function refuse(message, codeOf) {
    notice.textContent = message;
    notice.dataset.code = codeOf || '';
  }

  function renderActions(c) {
    const legal = c.legal;
    if (g.outcome) return mount(actionsBox);
    if (!legal.length) {
      return mount(actionsBox, h('h2', {}, t('game.actions')), h('p', { class: 'muted' },
        g.seat === null || g.seat === undefined ? t('game.watching') : statusText()));
    }
    const shown = focus ? legal.filter((a) => focus.includes(a)) : legal;
    const buttons = shown.map((action) => h('button', {
      class: ['action', pending !== null ? 'sending' : null],
      'data-testid': 'action',
      'data-action': JSON.stringify(action),
      'data-term': c.texts.action(actionType(action)) ? `action:${actionType(action)}` : null,
      onclick: () => act(action),
    }, c.label(action)));
    mount(actionsBox,
      h('h2', {}, focus ? t('game.choose') : t('game.your_options')),
      h('div', { class: 'action-list' }, ...buttons),
      focus ? h('button', { class: 'link', onclick: () => { focus = null; renderActions(c); } }, t('game.show_all', { n: formatNumber(legal.length) })) : null);
  }

  async function fillLogFromServer() {
    // After a fresh snapshot the log before it is fetched from the server's log route.
    try {
      const log = await get(`/api/games/${encodeURIComponent(id)}/log${code ? `?code=${encodeURIComponent(code)}` : ''}`);
      if (!Array.isArray(log.actions) || !log.setup_events) return;
      const entries = [];
      for (const e of log.setup_events) entries.push({ text: e.text, data: e.data, private: !!e.private, version: 0 });
      for (const a of log.actions) for (const e of a.events || []) entries.push({ text: e.text, data: e.data, private: !!e.private, version: a.seq, clock: !!a.by_clock });
      const later = g.log.filter((e) => e.version > (log.version || 0));
      g.log = entries.concat(later).slice(-MAX_LOG);
      save();
      renderLog();
    } catch {
      // The log is a comfort; the game goes on without it.
    }
  }

  // The server lost this game's table (in a cluster, the game moved to another server that could
  // not take this socket over): subscribe again, waiting longer after each failure.
  let retryMs = 1000;
  let retryTimer = null;
  function subscribeAgainLater() {
    if (retryTimer) return;
    retryTimer = setTimeout(() => { retryTimer = null; socket.refresh(`game:${id}`); }, retryMs);
    retryMs = Math.min(retryMs * 2, 16000);
  }
  /** A snapshot, or the patches since our version (`resumed`): the table follows the game again. */
  function inStepAgain() {
    retryMs = 1000;
    if (notice.dataset.code === 'server/unavailable') refuse('');
  }

  function onMessage(msg) {
    if (msg.game !== id && !(msg.type === 'error' && !msg.game && pending !== null && msg.req === pending)) return;
    switch (msg.type) {
      case 'snapshot': {
        const fresh = g.version === null || wantSnapshot;
        g = { ...g, catalog_id: msg.catalog_id, version: msg.version, seat: msg.seat, seats: msg.seats, view: msg.view,
          to_act: msg.to_act, legal: msg.legal_actions, outcome: msg.outcome, seed: msg.seed, seed_commitment: msg.seed_commitment };
        if (fresh) g.log = [];
        setClock(msg.clock);
        wantSnapshot = false;
        pending = null;
        inStepAgain();
        save();
        if (!info) gameInfo(g.catalog_id).then((i) => { info = i; render(); });
        render();
        if (fresh) fillLogFromServer();
        break;
      }
      case 'patch': {
        if (g.version === null || msg.version <= g.version) return;
        if (msg.version !== g.version + 1) return resync();
        try {
          g.view = applyPatch(g.view, msg.patch);
        } catch (e) {
          console.warn('patch failed, asking for a snapshot', e);
          return resync();
        }
        g.version = msg.version;
        g.to_act = msg.to_act;
        g.legal = msg.legal_actions;
        if (msg.outcome) g.outcome = msg.outcome;
        if (msg.seed) g.seed = msg.seed;
        addLog(msg.events, msg.version, msg.by_clock);
        setClock(msg.clock);
        if (pending !== null && msg.seat === g.seat) pending = null;
        focus = null;
        refuse('');
        save();
        render();
        break;
      }
      case 'ack':
        if (msg.req === pending) pending = null;
        break;
      case 'resumed':
        inStepAgain();
        setClock(msg.clock);
        render();
        break;
      case 'error':
        if (msg.req !== undefined && msg.req === pending) {
          pending = null;
          // A stale version only means someone moved first: the patch is on its way.
          if (msg.code !== 'game/stale_version') refuse(t('game.refused', { message: errorText(msg) }), msg.code);
          render();
        } else if (msg.code === 'server/unavailable' && msg.req === undefined) {
          refuse(errorText(msg), msg.code);
          subscribeAgainLater();
        } else if (msg.code === 'lobby/invite_required' || msg.code === 'game/not_found') {
          mount(boardBox, h('p', { class: 'error' }, errorText(msg)), h('a', { href: '#/' }, t('common.back_to_lobbies')));
        } else {
          notice.textContent = errorText(msg);
        }
        break;
      default:
    }
  }

  // The turn clock: the server says how long the seats it waits for have left (relative, so that
  // a skewed clock on this machine does not matter); the countdown runs here.
  let clock = null;
  let clockTimer = null;
  function setClock(c) {
    clock = c && c.remaining_ms !== undefined && c.remaining_ms !== null ? { seats: c.seats || [], deadline: Date.now() + c.remaining_ms } : null;
    tick();
    if (clock && !clockTimer) clockTimer = setInterval(tick, 1000);
    if (!clock && clockTimer) { clearInterval(clockTimer); clockTimer = null; }
  }
  function tick() {
    if (!clock || g.outcome) { clockBox.hidden = true; return; }
    const left = Math.max(0, Math.ceil((clock.deadline - Date.now()) / 1000));
    const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    clockBox.hidden = false;
    clockBox.classList.toggle('urgent', left <= 10);
    mount(clockBox, icon('clock'), ' ', ...clock.seats.flatMap((seat, i) => [i ? ', ' : '', seatDot(seat), ` ${name(seat)} `, h('b', { 'data-testid': 'clock-left', 'data-seat': seat }, text)]), ` ${t('game.clock_left')}`);
  }

  function resync() {
    wantSnapshot = true;
    socket.refresh(`game:${id}`);
  }

  const stop = socket.on(onMessage);
  const stopStatus = socket.onStatus((s) => {
    root.dataset.conn = s;
    if (s !== 'online') pending = null;
  });
  const unfollow = socket.follow(`game:${id}`, () => ({
    type: 'subscribe',
    game: id,
    last_version: wantSnapshot || g.version === null ? undefined : g.version,
    code,
  }), { type: 'unsubscribe', game: id });
  if (g.version !== null) {
    gameInfo(g.catalog_id).then((i) => { info = i; render(); });
    render();
  }

  return {
    dispose() {
      disposed = true;
      yourTurnSignal(null, false);
      hideTooltip();
      if (clockTimer) clearInterval(clockTimer);
      if (retryTimer) clearTimeout(retryTimer);
      stop();
      stopStatus();
      chat.dispose();
      rematch.dispose();
      unfollow();
    },
  };
}
