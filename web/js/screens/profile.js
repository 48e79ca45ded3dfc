// An account's page (`#/profile/<id>`): its ratings, finished games with result, opponents, date and
// links to the replay and the log, and running games with "your turn" marks. And a leaderboard per
// game (`#/leaderboard/<game>`). Both read the HTTP routes documented in docs/protocol.md.

import { h, mount, titleCase } from '../dom.js';
import { catalog, get } from '../api.js';
import { t, formatDate, formatNumber } from '../i18n.js';

function gameName(games, id) {
  const info = games.find((g) => g.id === id);
  return info ? info.name : titleCase(id);
}

function ratingText(r) {
  return `${formatNumber(Math.round(r.rating))} ± ${formatNumber(Math.round(r.deviation))}`;
}

function resultText(result) {
  if (!result) return '';
  if (result.won) return t('profile.won');
  return t('profile.placed', { rank: result.rank });
}

export function profileScreen(ctx, id) {
  const root = h('section', { class: 'profile', 'data-testid': 'profile' }, h('p', { class: 'muted' }, t('profile.loading')));
  mount(ctx.app, root);
  (async () => {
    try {
      const [page, games] = await Promise.all([get(`/api/accounts/${encodeURIComponent(id)}/profile`), catalog().catch(() => [])]);
      const list = Array.isArray(games) ? games : (games.games || []);
      const own = ctx.session && ctx.session.account.id === id;
      mount(root,
        h('h1', { 'data-testid': 'profile-name' }, page.account.name,
          page.account.kind === 'guest' ? h('span', { class: 'muted' }, ` (${t('profile.guest')})`) : null),
        h('section', { class: 'card' },
          h('h2', {}, t('profile.ratings')),
          page.ratings.length
            ? h('ul', { 'data-testid': 'profile-ratings' }, ...page.ratings.map((r) => h('li', {},
              h('a', { href: `#/leaderboard/${encodeURIComponent(r.game)}` }, gameName(list, r.game)), ': ',
              h('b', {}, ratingText(r)), ' ', h('span', { class: 'muted' }, t('profile.rated_games', { n: r.games })))))
            : h('p', { class: 'muted' }, t('profile.no_ratings'))),
        h('section', { class: 'card' },
          h('h2', {}, t('profile.running')),
          page.running.length
            ? h('ul', { 'data-testid': 'profile-running' }, ...page.running.map((g) => h('li', {},
              h('a', { href: `#/game/${encodeURIComponent(g.id)}` }, gameName(list, g.game)), ' ',
              t('profile.against', { names: g.opponents.join(', ') }), ' ',
              g.your_turn ? h('b', { class: 'your-turn', 'data-testid': 'your-turn' }, t('profile.your_turn')) : null)))
            : h('p', { class: 'muted' }, t('profile.none'))),
        h('section', { class: 'card' },
          h('h2', {}, t('profile.finished')),
          page.finished.length
            ? h('table', { class: 'history', 'data-testid': 'profile-finished' },
              h('thead', {}, h('tr', {}, ...['profile.col_game', 'profile.col_result', 'profile.col_opponents', 'profile.col_date', 'profile.col_links'].map((k) => h('th', {}, t(k))))),
              h('tbody', {}, ...page.finished.map((g) => h('tr', {},
                h('td', {}, gameName(list, g.game)),
                h('td', { 'data-testid': 'profile-result' }, resultText(g.result)),
                h('td', {}, g.opponents.join(', ')),
                h('td', {}, formatDate(g.finished_at || g.created_at)),
                h('td', {}, h('a', { href: g.replay }, t('profile.replay')), ' · ',
                  h('a', { href: g.log, download: `${g.id}.json` }, t('profile.log')))))))
            : h('p', { class: 'muted' }, t('profile.none'))),
        own ? null : h('p', { class: 'muted small' }, t('profile.public_only')));
    } catch (e) {
      mount(root, h('p', { class: 'error', role: 'alert' }, e.code === 'account/not_found' ? t('profile.not_found') : e.message));
    }
  })();
  return {};
}

export function leaderboardScreen(ctx, game) {
  const root = h('section', { class: 'leaderboard', 'data-testid': 'leaderboard' }, h('p', { class: 'muted' }, t('profile.loading')));
  mount(ctx.app, root);
  (async () => {
    try {
      const [board, games] = await Promise.all([get(`/api/leaderboard/${encodeURIComponent(game)}`), catalog().catch(() => [])]);
      const list = Array.isArray(games) ? games : (games.games || []);
      mount(root,
        h('h1', {}, t('leaderboard.title', { game: gameName(list, game) })),
        h('nav', { class: 'small' }, ...list.map((g) => [h('a', { href: `#/leaderboard/${encodeURIComponent(g.id)}` }, g.name), ' '])),
        board.ratings.length
          ? h('table', { class: 'history', 'data-testid': 'leaderboard-table' },
            h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('leaderboard.player')), h('th', {}, t('leaderboard.rating')), h('th', {}, t('leaderboard.games')))),
            h('tbody', {}, ...board.ratings.map((r) => h('tr', {},
              h('td', {}, String(r.rank)),
              h('td', {}, h('a', { href: `#/profile/${encodeURIComponent(r.account)}` }, r.name)),
              h('td', {}, ratingText(r)),
              h('td', {}, formatNumber(r.games))))))
          : h('p', { class: 'muted' }, t('leaderboard.empty')));
    } catch (e) {
      mount(root, h('p', { class: 'error', role: 'alert' }, e.message));
    }
  })();
  return {};
}
