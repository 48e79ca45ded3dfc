// One lobby: the invite link, seats with names, bots, and the host's start button; live through the
// socket. Opening the link while signed in joins the lobby; when the game starts, everyone moves to it.

import { h, mount, seatDot, titleCase } from '../dom.js';
import { gameInfo, get, post } from '../api.js';
import { socket } from '../socket.js';

export function lobbyScreen(ctx, id) {
  const code = ctx.query.get('code') || undefined;
  const me = ctx.session.account;
  const root = h('section', { class: 'lobby', 'data-testid': 'lobby' }, h('p', { class: 'muted' }, 'Opening the lobby…'));
  const error = h('p', { class: 'error', role: 'alert' });
  let lobby = null;
  let info = null;
  let disposed = false;
  mount(ctx.app, root, error);

  const path = `/api/lobbies/${encodeURIComponent(id)}`;

  async function act(promise) {
    error.textContent = '';
    try {
      const result = await promise;
      if (result && result.lobby) show(result.lobby);
    } catch (e) {
      error.textContent = e.message;
    }
  }

  function inviteLink(l) {
    const c = l.invite_code || code;
    return `${location.origin}${location.pathname}#/lobby/${encodeURIComponent(l.id)}${c ? `?code=${encodeURIComponent(c)}` : ''}`;
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
      const row = [h('span', { class: 'seat-no' }, seatDot(i), ` Seat ${i + 1}`)];
      if (holder) {
        row.push(h('span', { class: 'seat-name', 'data-testid': 'seat-name' }, holder.name));
        if (holder.bot) row.push(h('span', { class: 'tag' }, 'bot'));
        if (holder.account === l.host) row.push(h('span', { class: 'tag' }, 'host'));
        if (holder.account === me.id) row.push(h('button', { class: 'small', onclick: () => act(post(`${path}/unseat`)) }, 'Stand up'));
        else if (isHost && l.status === 'open') row.push(h('button', { class: 'small', onclick: () => act(post(`${path}/kick`, { account: holder.account })) }, holder.bot ? 'Remove' : 'Kick'));
      } else {
        row.push(h('span', { class: 'muted seat-name' }, 'free'));
        if (isMember) row.push(h('button', { class: 'small', 'data-testid': 'sit', onclick: () => act(post(`${path}/seat`, { seat: i })) }, mySeat >= 0 ? 'Move here' : 'Sit here'));
        if (isHost) row.push(h('button', { class: 'small', 'data-testid': 'add-bot', onclick: () => act(post(`${path}/bots`, { seat: i })) }, 'Add bot'));
      }
      return h('li', { class: ['seat', holder ? 'taken' : 'free'], dataset: { seat: i } }, ...row);
    });

    const options = Object.entries(l.options || {});
    mount(root,
      h('h1', {}, info ? info.name : titleCase(l.game)),
      h('p', { class: 'muted' },
        l.public ? 'Public lobby' : 'Private lobby', ' · ',
        options.length ? options.map(([k, v]) => `${titleCase(k)}: ${v}`).join(', ') : 'standard rules',
        l.turn_seconds ? ` · ${l.turn_seconds}s per turn` : ''),
      h('div', { class: 'card invite' },
        h('label', {}, l.public ? 'Link to this lobby' : 'Invite link — send it to your friends', linkInput),
        h('button', {
          class: 'small',
          onclick: async (e) => {
            try {
              await navigator.clipboard.writeText(link);
              e.target.textContent = 'Copied';
            } catch {
              linkInput.select();
            }
          },
        }, 'Copy')),
      h('div', { class: 'cards' },
        h('section', { class: 'card' },
          h('h2', {}, `Seats (${seated} taken${info ? `, ${info.min_players}–${info.max_players} players` : ''})`),
          h('ul', { class: 'seats', 'data-testid': 'seats' }, ...seats),
          isHost ? h('button', {
            class: 'primary',
            'data-testid': 'start',
            disabled: seated < min,
            onclick: () => act(post(`${path}/start`)),
          }, 'Start the game') : h('p', { class: 'muted' }, 'The host starts the game when everyone is seated.')),
        h('section', { class: 'card' },
          h('h2', {}, 'In the lobby'),
          h('ul', { class: 'members', 'data-testid': 'members' }, ...l.members.map((m) => h('li', {}, m.name, m.account === l.host ? h('span', { class: 'tag' }, 'host') : null))),
          isMember ? h('button', { class: 'small', onclick: () => act(post(`${path}/leave`)).then(() => ctx.navigate('#/')) }, 'Leave the lobby') : null)));
  }

  const stop = socket.on((msg) => {
    if (msg.type === 'lobby' && msg.lobby && msg.lobby.id === id) show(msg.lobby);
    else if (msg.type === 'error' && msg.code && msg.code.startsWith('lobby/') && !msg.game) error.textContent = msg.message;
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
      mount(root, h('h1', {}, 'Lobby'), h('p', { class: 'error' }, e.message), h('a', { href: '#/' }, 'Back to the lobbies'));
    }
  })();

  return {
    dispose() {
      disposed = true;
      stop();
      if (unfollow) unfollow();
    },
  };
}
