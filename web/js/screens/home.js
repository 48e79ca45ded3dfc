// The home screen: create a lobby, open an invite link, public lobbies, and the player's games.

import { h, mount, listText } from '../dom.js';
import { catalog, get, post, errorText } from '../api.js';
import { t, formatDate, formatNumber } from '../i18n.js';
import { optionLabel, optionHelp, choiceLabel } from '../optiontexts.js';

function optionInput(game, option) {
  const kind = option.kind || {};
  if (kind.type === 'bool') {
    return h('label', { class: 'check', title: optionHelp(game, option) },
      h('input', { type: 'checkbox', name: `opt-${option.key}`, checked: !!kind.default, dataset: { key: option.key, kind: 'bool' } }),
      ' ', optionLabel(game, option));
  }
  if (kind.type === 'choice') {
    return h('label', { title: optionHelp(game, option) }, `${optionLabel(game, option)} `,
      h('select', { name: `opt-${option.key}`, dataset: { key: option.key, kind: 'choice' } },
        (kind.choices || []).map((c) => h('option', { value: c, selected: c === kind.default }, choiceLabel(game, option, c)))));
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
  const lobbyList = h('ul', { class: 'lobby-list' }, h('li', { class: 'muted' }, t('common.loading')));
  const gameList = h('ul', { class: 'game-list', 'data-testid': 'my-games' }, h('li', { class: 'muted' }, t('common.loading')));
  let games = [];
  let timer = null;

  function showOptions() {
    const game = games.find((g) => g.id === gameSelect.value);
    mount(optionsBox, ...(game ? game.options.map((o) => optionInput(game.id, o)) : []));
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
        error.textContent = errorText(err);
      }
    },
  },
  h('h2', {}, t('home.host_title')),
  h('label', {}, `${t('home.game')} `, gameSelect),
  optionsBox,
  h('label', { class: 'check' }, publicBox, ` ${t('home.public')}`),
  h('button', { type: 'submit', class: 'primary' }, t('home.create')));

  const linkInput = h('input', { name: 'invite', placeholder: t('home.paste_link') });
  const joinForm = h('form', {
    class: 'card',
    onsubmit: (e) => {
      e.preventDefault();
      const value = linkInput.value.trim();
      const at = value.indexOf('#/');
      if (at >= 0) ctx.navigate(value.slice(at));
      else error.textContent = t('home.bad_link');
    },
  },
  h('h2', {}, t('home.join_title')),
  linkInput,
  h('button', { type: 'submit' }, t('home.open')));

  async function refreshLobbies() {
    try {
      const { lobbies } = await get('/api/lobbies');
      const names = Object.fromEntries(games.map((g) => [g.id, g.name]));
      mount(lobbyList, ...(lobbies.length ? lobbies.map((l) => {
        const seated = l.seats.filter(Boolean);
        return h('li', {},
          h('a', { href: `#/lobby/${encodeURIComponent(l.id)}` }, names[l.game] || l.game),
          ' — ', listText(seated.map((s) => s.name)) || t('home.empty'),
          h('span', { class: 'muted' }, ` (${t(l.status === 'started' ? 'home.seats_started' : 'home.seats', { seated: formatNumber(seated.length), seats: formatNumber(l.seats.length) })})`));
      }) : [h('li', { class: 'muted' }, t('home.no_lobbies'))]));
    } catch (err) {
      mount(lobbyList, h('li', { class: 'error' }, errorText(err)));
    }
  }

  async function refreshGames() {
    try {
      const { games: mine } = await get('/api/me/games');
      const names = Object.fromEntries(games.map((g) => [g.id, g.name]));
      mount(gameList, ...(mine.length ? mine.slice(0, 20).map((g) => h('li', { dataset: { game: g.id, status: g.status } },
        h('a', { href: `#/${g.status === 'running' ? 'game' : 'replay'}/${encodeURIComponent(g.id)}` }, names[g.game] || g.game),
        ' — ', listText(g.seats), ' ',
        h('span', { class: 'muted' }, `(${g.status === 'running' ? t('home.running') : g.outcome ? t('home.won_by', { names: listText(g.outcome.winners.map((w) => g.seats[w])) }) : t(`home.status.${g.status}`)})`),
        g.created_at ? [' ', h('span', { class: 'muted small', 'data-testid': 'game-date' }, formatDate(g.created_at))] : null,
        g.your_turn ? [' ', h('span', { class: 'tag your-turn-tag', dataset: { testid: 'your-turn-badge' } }, t('home.your_turn'))] : null,
        g.status !== 'running' ? null : [' ', h('a', { href: `#/replay/${encodeURIComponent(g.id)}`, class: 'muted' }, t('home.log'))],
      )) : [h('li', { class: 'muted' }, t('home.none_yet'))]));
    } catch (err) {
      mount(gameList, h('li', { class: 'error' }, errorText(err)));
    }
  }

  mount(ctx.app,
    h('section', { class: 'home' },
      h('div', { class: 'cards' }, createForm, joinForm),
      error,
      h('div', { class: 'cards' },
        h('section', { class: 'card' }, h('h2', {}, t('home.public_lobbies')), lobbyList),
        h('section', { class: 'card' }, h('h2', {}, t('home.your_games')), gameList))));

  catalog().then((list) => {
    games = list;
    mount(gameSelect, ...games.map((g) => h('option', { value: g.id }, `${g.name} (${formatNumber(g.min_players)}–${formatNumber(g.max_players)})`)));
    showOptions();
    refreshLobbies();
    refreshGames();
  }).catch((err) => { error.textContent = errorText(err); });
  timer = setInterval(() => { refreshLobbies(); refreshGames(); }, 5000);
  return { dispose() { clearInterval(timer); } };
}
