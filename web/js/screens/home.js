// The home screen: create a lobby, open an invite link, public lobbies, and the player's games.

import { h, mount, listText } from '../dom.js';
import { catalog, get, post } from '../api.js';

function optionInput(option) {
  const kind = option.kind || {};
  if (kind.type === 'bool') {
    return h('label', { class: 'check', title: option.help },
      h('input', { type: 'checkbox', name: `opt-${option.key}`, checked: !!kind.default, dataset: { key: option.key, kind: 'bool' } }),
      ' ', option.label || option.key);
  }
  if (kind.type === 'choice') {
    return h('label', { title: option.help }, `${option.label || option.key} `,
      h('select', { name: `opt-${option.key}`, dataset: { key: option.key, kind: 'choice' } },
        (kind.choices || []).map((c) => h('option', { value: c, selected: c === kind.default }, c))));
  }
  return null;
}

function readOptions(container) {
  const options = {};
  for (const el of container.querySelectorAll('[data-key]')) {
    options[el.dataset.key] = el.dataset.kind === 'bool' ? el.checked : el.value;
  }
  return options;
}

export function homeScreen(ctx) {
  const error = h('p', { class: 'error', role: 'alert' });
  const gameSelect = h('select', { name: 'game', 'data-testid': 'game-select' });
  const optionsBox = h('div', { class: 'options' });
  const publicBox = h('input', { type: 'checkbox', name: 'public' });
  const lobbyList = h('ul', { class: 'lobby-list' }, h('li', { class: 'muted' }, 'Loading…'));
  const gameList = h('ul', { class: 'game-list', 'data-testid': 'my-games' }, h('li', { class: 'muted' }, 'Loading…'));
  let games = [];
  let timer = null;

  function showOptions() {
    const game = games.find((g) => g.id === gameSelect.value);
    mount(optionsBox, ...(game ? game.options.map(optionInput) : []));
  }
  gameSelect.addEventListener('change', showOptions);

  const createForm = h('form', {
    class: 'card',
    'data-testid': 'create-lobby',
    onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = '';
      try {
        const { lobby } = await post('/api/lobbies', { game: gameSelect.value, options: readOptions(optionsBox), public: publicBox.checked });
        ctx.navigate(`#/lobby/${encodeURIComponent(lobby.id)}${lobby.invite_code ? `?code=${encodeURIComponent(lobby.invite_code)}` : ''}`);
      } catch (err) {
        error.textContent = err.message;
      }
    },
  },
  h('h2', {}, 'Host a game'),
  h('label', {}, 'Game ', gameSelect),
  optionsBox,
  h('label', { class: 'check' }, publicBox, ' Public (listed for everyone; otherwise joined by invite link)'),
  h('button', { type: 'submit', class: 'primary' }, 'Create lobby'));

  const linkInput = h('input', { name: 'invite', placeholder: 'Paste an invite link' });
  const joinForm = h('form', {
    class: 'card',
    onsubmit: (e) => {
      e.preventDefault();
      const value = linkInput.value.trim();
      const at = value.indexOf('#/');
      if (at >= 0) ctx.navigate(value.slice(at));
      else error.textContent = 'An invite link looks like …/#/lobby/<id>?code=<code>.';
    },
  },
  h('h2', {}, 'Join with a link'),
  linkInput,
  h('button', { type: 'submit' }, 'Open'));

  async function refreshLobbies() {
    try {
      const { lobbies } = await get('/api/lobbies');
      const names = Object.fromEntries(games.map((g) => [g.id, g.name]));
      mount(lobbyList, ...(lobbies.length ? lobbies.map((l) => {
        const seated = l.seats.filter(Boolean);
        return h('li', {},
          h('a', { href: `#/lobby/${encodeURIComponent(l.id)}` }, names[l.game] || l.game),
          ' — ', listText(seated.map((s) => s.name)) || 'empty',
          h('span', { class: 'muted' }, ` (${seated.length}/${l.seats.length} seats${l.status === 'started' ? ', started' : ''})`));
      }) : [h('li', { class: 'muted' }, 'No public lobby is open. Host one!')]));
    } catch (err) {
      mount(lobbyList, h('li', { class: 'error' }, err.message));
    }
  }

  async function refreshGames() {
    try {
      const { games: mine } = await get('/api/me/games');
      const names = Object.fromEntries(games.map((g) => [g.id, g.name]));
      mount(gameList, ...(mine.length ? mine.slice(0, 20).map((g) => h('li', { dataset: { game: g.id, status: g.status } },
        h('a', { href: `#/${g.status === 'running' ? 'game' : 'replay'}/${encodeURIComponent(g.id)}` }, names[g.game] || g.game),
        ' — ', listText(g.seats), ' ',
        h('span', { class: 'muted' }, g.status === 'running' ? '(running)' : g.outcome ? `(won by ${listText(g.outcome.winners.map((w) => g.seats[w]))})` : `(${g.status})`),
        g.your_turn ? [' ', h('span', { class: 'tag your-turn-tag', dataset: { testid: 'your-turn-badge' } }, 'your turn')] : null,
        g.status !== 'running' ? null : [' ', h('a', { href: `#/replay/${encodeURIComponent(g.id)}`, class: 'muted' }, 'log')],
      )) : [h('li', { class: 'muted' }, 'None yet.')]));
    } catch (err) {
      mount(gameList, h('li', { class: 'error' }, err.message));
    }
  }

  mount(ctx.app,
    h('section', { class: 'home' },
      h('div', { class: 'cards' }, createForm, joinForm),
      error,
      h('div', { class: 'cards' },
        h('section', { class: 'card' }, h('h2', {}, 'Public lobbies'), lobbyList),
        h('section', { class: 'card' }, h('h2', {}, 'Your games'), gameList))));

  catalog().then((list) => {
    games = list;
    mount(gameSelect, ...games.map((g) => h('option', { value: g.id }, `${g.name} (${g.min_players}–${g.max_players})`)));
    showOptions();
    refreshLobbies();
    refreshGames();
  }).catch((err) => { error.textContent = err.message; });
  timer = setInterval(() => { refreshLobbies(); refreshGames(); }, 5000);
  return { dispose() { clearInterval(timer); } };
}
