// One lobby: the invite link, the game's options (the host changes them, everyone else reads them),
// seats with names, bots, and the host's start button; live through the socket. Opening the link while
// signed in joins the lobby; when the game starts, everyone moves to it.

import { h, mount, seatDot, titleCase } from '../dom.js';
import { gameInfo, get, post, errorText } from '../api.js';
import { socket } from '../socket.js';
import { t, formatNumber } from '../i18n.js';
import { optionLabel, optionHelp, choiceLabel } from '../optiontexts.js';
import { chatPanel } from '../chat.js';

// The per-turn time limits the host can pick from (seconds; null: none).
const TURN_LIMITS = [null, 30, 60, 90, 120, 300, 600];

export function turnLimitText(seconds) {
  if (!seconds) return t('lobby.no_time_limit');
  if (seconds % 60 === 0) return t('lobby.min_per_turn', { n: formatNumber(seconds / 60) });
  return t('lobby.s_per_turn', { n: formatNumber(seconds) });
}

/** A time limit as a choice of the host's list: "2 min", "90 s". */
function turnLimitChoice(seconds) {
  if (seconds === null) return t('lobby.no_limit');
  if (seconds % 60 === 0) return t('lobby.min', { n: formatNumber(seconds / 60) });
  return t('lobby.s', { n: formatNumber(seconds) });
}

/** An option's value as words: "on"/"off" for yes/no options, the choice's name otherwise. */
function optionValueText(game, option, value) {
  if ((option.kind || {}).type === 'bool' || typeof value === 'boolean') return value ? t('lobby.on') : t('lobby.off');
  return option.key ? choiceLabel(game, option, value) : String(value);
}

/** The options in effect: the lobby's, else the catalog's defaults. */
function effectiveOption(option, lobby) {
  const options = lobby.options || {};
  if (Object.prototype.hasOwnProperty.call(options, option.key)) return options[option.key];
  return (option.kind || {}).default;
}

export function lobbyScreen(ctx, id) {
  const code = ctx.query.get('code') || undefined;
  const me = ctx.session.account;
  const root = h('section', { class: 'lobby', 'data-testid': 'lobby' }, h('p', { class: 'muted' }, t('lobby.opening')));
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'lobby-error' });
  // Built once and updated in place, so that a live update does not take a control from under the host.
  const optionsCard = h('section', { class: 'card lobby-options', 'data-testid': 'lobby-options' });
  let optionsFor = null; // 'host' or 'guest': which form optionsCard holds
  const headBox = h('div', { class: 'lobby-head' });
  const inviteBox = h('div', { class: 'card invite' });
  const seatsCard = h('section', { class: 'card' });
  const membersCard = h('section', { class: 'card' });
  let lobby = null;
  let info = null;
  const chat = chatPanel({ room: { lobby: id }, me, host: () => !!lobby && lobby.host === me.id });
  let disposed = false;
  mount(ctx.app, root, error);

  const path = `/api/lobbies/${encodeURIComponent(id)}`;

  async function act(promise) {
    error.textContent = '';
    try {
      const result = await promise;
      if (result && result.lobby) show(result.lobby);
    } catch (e) {
      error.textContent = errorText(e);
    }
  }

  /** Sends the host's change; on refusal the controls go back to the lobby as the server has it. */
  async function configure(change) {
    error.textContent = '';
    delete error.dataset.code;
    try {
      const result = await post(`${path}/options`, change);
      if (result && result.lobby) show(result.lobby);
    } catch (e) {
      error.textContent = errorText(e);
      error.dataset.code = e.code;
      if (lobby) renderOptions(lobby, lobby.host === me.id);
    }
  }

  function readHostOptions() {
    const options = {};
    for (const el of optionsCard.querySelectorAll('[data-key]')) {
      options[el.dataset.key] = el.dataset.kind === 'bool' ? el.checked : el.value;
    }
    return options;
  }

  function buildHostOptions() {
    const controls = (info ? info.options : []).map((option) => {
      const kind = option.kind || {};
      const onchange = () => configure({ options: readHostOptions() });
      if (kind.type === 'bool') {
        return h('label', { class: 'check', title: optionHelp(info.id, option) },
          h('input', { type: 'checkbox', name: `opt-${option.key}`, dataset: { key: option.key, kind: 'bool' }, onchange }),
          ' ', optionLabel(info.id, option));
      }
      if (kind.type === 'choice') {
        return h('label', { title: optionHelp(info.id, option) }, `${optionLabel(info.id, option)} `,
          h('select', { name: `opt-${option.key}`, dataset: { key: option.key, kind: 'choice' }, onchange },
            (kind.choices || []).map((c) => h('option', { value: c }, choiceLabel(info.id, option, c)))));
      }
      return null;
    });
    const turn = h('select', {
      name: 'turn-seconds',
      'data-testid': 'turn-seconds',
      onchange: (e) => configure({ turn_seconds: e.target.value === '' ? null : Number(e.target.value) }),
    });
    const visibility = h('input', {
      type: 'checkbox',
      name: 'public',
      'data-testid': 'public',
      onchange: (e) => configure({ public: e.target.checked }),
    });
    mount(optionsCard,
      h('h2', {}, t('lobby.options')),
      h('form', { class: 'options-form', onsubmit: (e) => e.preventDefault() },
        ...controls,
        h('label', {}, `${t('lobby.time_limit_per_turn')} `, turn),
        h('label', { class: 'check' }, visibility, ` ${t('lobby.public_check')}`)),
      h('p', { class: 'muted small' }, t('lobby.options_note')));
  }

  /** The options card: controls for the host, the same settings as text for everyone else. */
  function renderOptions(l, isHost) {
    const want = isHost ? 'host' : 'guest';
    const specs = info ? info.options : [];
    if (want === 'host') {
      if (optionsFor !== 'host') buildHostOptions();
      optionsFor = 'host';
      for (const el of optionsCard.querySelectorAll('[data-key]')) {
        const option = specs.find((o) => o.key === el.dataset.key);
        const value = option ? effectiveOption(option, l) : undefined;
        if (el.dataset.kind === 'bool') el.checked = !!value;
        else if (value !== undefined) el.value = String(value);
      }
      const turn = optionsCard.querySelector('[name="turn-seconds"]');
      const limits = TURN_LIMITS.includes(l.turn_seconds ?? null) ? TURN_LIMITS : [...TURN_LIMITS, l.turn_seconds].sort((a, b) => (a ?? 0) - (b ?? 0));
      mount(turn, ...limits.map((sec) => h('option', { value: sec === null ? '' : String(sec) }, turnLimitChoice(sec))));
      turn.value = l.turn_seconds ? String(l.turn_seconds) : '';
      optionsCard.querySelector('[name="public"]').checked = !!l.public;
      return;
    }
    optionsFor = 'guest';
    const rows = specs.map((option) => [optionLabel(l.game, option), optionValueText(l.game, option, effectiveOption(option, l)), option.key, optionHelp(l.game, option)]);
    // Options the catalog does not describe (an older client) are still shown.
    for (const [key, value] of Object.entries(l.options || {})) {
      if (!specs.some((o) => o.key === key)) rows.push([titleCase(key), optionValueText(l.game, {}, value), key, '']);
    }
    rows.push([t('lobby.time_limit'), turnLimitText(l.turn_seconds), 'turn_seconds', '']);
    rows.push([t('lobby.visibility'), l.public ? t('lobby.public') : t('lobby.private'), 'public', '']);
    mount(optionsCard,
      h('h2', {}, t('lobby.options')),
      h('dl', { class: 'option-list' }, ...rows.map(([label, value, key, help]) => [
        h('dt', { title: help || null }, label),
        h('dd', { dataset: { option: key } }, value)])),
      h('p', { class: 'muted small' }, t('lobby.host_sets_options')));
  }

  function summary(l) {
    const specs = info ? info.options : [];
    const parts = specs.map((o) => `${optionLabel(l.game, o)}: ${optionValueText(l.game, o, effectiveOption(o, l))}`);
    for (const [key, value] of Object.entries(l.options || {})) {
      if (!specs.some((o) => o.key === key)) parts.push(`${titleCase(key)}: ${optionValueText(l.game, {}, value)}`);
    }
    return parts.join(', ') || t('lobby.standard_rules');
  }

  function inviteLink(l) {
    const c = l.invite_code || code;
    return `${location.origin}${location.pathname}#/lobby/${encodeURIComponent(l.id)}${c ? `?code=${encodeURIComponent(c)}` : ''}`;
  }

  /** Who has yet to answer a rematch, and who declined. */
  function rematchWaiting(l) {
    const invited = (l.rematch && l.rematch.invited) || [];
    const waiting = invited.filter((i) => i.accepted === null || i.accepted === undefined).map((i) => i.name);
    const declined = invited.filter((i) => i.accepted === false).map((i) => `${i.name} (${t('rematch.declined')})`);
    if (!waiting.length && !declined.length) return null;
    return h('p', { class: 'muted', 'data-testid': 'rematch-waiting' }, waiting.length ? t('rematch.waiting', { names: waiting.join(', ') }) : '', ' ', declined.join(', '));
  }

  function show(l) {
    if (disposed) return;
    lobby = l;
    if (l.status === 'started' && l.game_id) {
      const c = l.invite_code || code;
      ctx.navigate(`#/game/${encodeURIComponent(l.game_id)}${c ? `?code=${encodeURIComponent(c)}` : ''}`);
      return;
    }
    const isHost = l.host === me.id;
    const isMember = l.members.some((m) => m.account === me.id);
    const mySeat = l.seats.findIndex((s) => s && s.account === me.id);
    const seated = l.seats.filter(Boolean).length;
    const min = info ? info.min_players : 1;
    const link = inviteLink(l);
    const linkInput = h('input', { readonly: true, value: link, 'data-testid': 'invite-link', onfocus: (e) => e.target.select() });

    const seats = l.seats.map((holder, i) => {
      const row = [h('span', { class: 'seat-no' }, seatDot(i), ` ${t('common.seat', { n: formatNumber(i + 1) })}`)];
      if (holder) {
        row.push(holder.bot ? h('span', { class: 'seat-name', 'data-testid': 'seat-name' }, holder.name)
          : h('a', { class: 'seat-name', 'data-testid': 'seat-name', href: `#/profile/${encodeURIComponent(holder.account)}` }, holder.name));
        if (holder.bot) row.push(h('span', { class: 'tag' }, t('lobby.bot')));
        if (holder.account === l.host) row.push(h('span', { class: 'tag' }, t('lobby.host')));
        if (holder.account === me.id) row.push(h('button', { class: 'small', onclick: () => act(post(`${path}/unseat`)) }, t('lobby.stand_up')));
        else if (isHost && l.status === 'open') row.push(h('button', { class: 'small', onclick: () => act(post(`${path}/kick`, { account: holder.account })) }, holder.bot ? t('lobby.remove') : t('lobby.kick')));
      } else {
        row.push(h('span', { class: 'muted seat-name' }, t('lobby.free')));
        if (isMember) row.push(h('button', { class: 'small', 'data-testid': 'sit', onclick: () => act(post(`${path}/seat`, { seat: i })) }, mySeat >= 0 ? t('lobby.move_here') : t('lobby.sit_here')));
        if (isHost) row.push(h('button', { class: 'small', 'data-testid': 'add-bot', onclick: () => act(post(`${path}/bots`, { seat: i })) }, t('lobby.add_bot')));
      }
      return h('li', { class: ['seat', holder ? 'taken' : 'free'], dataset: { seat: i } }, ...row);
    });

    renderOptions(l, isHost);
    // The layout is built once; its parts are refreshed, and the options card stays in place.
    if (!root.contains(optionsCard)) {
      mount(root, headBox, inviteBox, h('div', { class: 'cards' }, optionsCard, seatsCard, membersCard), chat.el);
    }
    mount(headBox,
      h('h1', {}, info ? info.name : titleCase(l.game)),
      h('p', { class: 'muted', 'data-testid': 'lobby-summary' },
        l.public ? t('lobby.public_lobby') : t('lobby.private_lobby'), ' · ', summary(l), ' · ', turnLimitText(l.turn_seconds)),
      rematchWaiting(l));
    mount(inviteBox,
      h('label', {}, l.public ? t('lobby.link_public') : t('lobby.link_private'), linkInput),
      h('button', {
        class: 'small',
        onclick: async (e) => {
          try {
            await navigator.clipboard.writeText(link);
            e.target.textContent = t('lobby.copied');
          } catch {
            linkInput.select();
          }
        },
      }, t('lobby.copy')));
    mount(seatsCard,
      h('h2', {}, info ? t('lobby.seats_players', { seated: formatNumber(seated), min: formatNumber(info.min_players), max: formatNumber(info.max_players) }) : t('lobby.seats_taken', { seated: formatNumber(seated) })),
      h('ul', { class: 'seats', 'data-testid': 'seats' }, ...seats),
      h('label', { class: 'small' }, h('input', { type: 'checkbox', 'data-testid': 'rated', checked: !!l.rated, disabled: !isHost || l.status !== 'open',
        onchange: (e) => act(post(`${path}/options`, { rated: e.target.checked })) }), ' ', t('lobby.rated')),
      isHost ? h('button', {
        class: 'primary',
        'data-testid': 'start',
        disabled: seated < min,
        onclick: () => act(post(`${path}/start`)),
      }, t('lobby.start')) : h('p', { class: 'muted' }, t('lobby.host_starts')));
    mount(membersCard,
      h('h2', {}, t('lobby.members')),
      h('ul', { class: 'members', 'data-testid': 'members' }, ...l.members.map((m) => h('li', {}, h('a', { href: `#/profile/${encodeURIComponent(m.account)}` }, m.name), m.account === l.host ? h('span', { class: 'tag' }, t('lobby.host')) : null))),
      isMember ? h('button', { class: 'small', onclick: () => act(post(`${path}/leave`)).then(() => ctx.navigate('#/')) }, t('lobby.leave')) : null);
  }

  const stop = socket.on((msg) => {
    if (msg.type === 'lobby' && msg.lobby && msg.lobby.id === id) show(msg.lobby);
    else if (msg.type === 'error' && msg.code && msg.code.startsWith('lobby/') && !msg.game) error.textContent = errorText(msg);
  });
  let unfollow = null;

  (async () => {
    try {
      const { lobby: l } = await get(`${path}${code ? `?code=${encodeURIComponent(code)}` : ''}`);
      info = await gameInfo(l.game);
      if (l.status === 'open' && !l.members.some((m) => m.account === me.id)) {
        const joined = await post(`${path}/join`, code ? { code } : {});
        show(joined.lobby);
      } else {
        show(l);
      }
      if (!disposed) {
        unfollow = socket.follow(`lobby:${id}`, () => ({ type: 'subscribe_lobby', lobby: id, code }), { type: 'unsubscribe_lobby', lobby: id });
      }
    } catch (e) {
      mount(root, h('h1', {}, t('lobby.title')), h('p', { class: 'error' }, errorText(e)), h('a', { href: '#/' }, t('common.back_to_lobbies')));
    }
  })();

  return {
    dispose() {
      disposed = true;
      stop();
      chat.dispose();
      if (unfollow) unfollow();
    },
  };
}
