// "Play again" on a finished game's screen: the button opens (or joins) the game's rematch lobby; a
// rematch offered by another player shows with Accept and Decline. See docs/protocol.md, Rematch.

import { h, mount } from './dom.js';
import { post } from './api.js';
import { socket } from './socket.js';
import { t } from './i18n.js';

export function rematchBox(ctx, gameId) {
  const offer = h('p', { 'data-testid': 'rematch-offer' });
  const error = h('p', { class: 'error small', role: 'alert' });
  const el = h('section', { class: 'card rematch', 'data-testid': 'rematch' },
    h('button', { class: 'primary', 'data-testid': 'play-again', onclick: () => playAgain() }, t('rematch.play_again')),
    offer, error);

  async function playAgain() {
    error.textContent = '';
    try {
      const { lobby } = await post(`/api/games/${encodeURIComponent(gameId)}/rematch`);
      ctx.navigate(`#/lobby/${encodeURIComponent(lobby.id)}`);
    } catch (e) {
      error.textContent = e.message;
    }
  }

  async function decline(lobby) {
    error.textContent = '';
    try {
      await post(`/api/lobbies/${encodeURIComponent(lobby)}/rematch`, { accept: false });
      mount(offer);
    } catch (e) {
      error.textContent = e.message;
    }
  }

  const stop = socket.on((msg) => {
    if (msg.type !== 'rematch' || msg.game !== gameId) return;
    if (ctx.session && msg.by.account === ctx.session.account.id) return;
    mount(offer, t('rematch.offer', { name: msg.by.name }), ' ',
      h('button', { class: 'small', 'data-testid': 'rematch-accept', onclick: () => playAgain() }, t('rematch.accept')), ' ',
      h('button', { class: 'small', 'data-testid': 'rematch-decline', onclick: () => decline(msg.lobby) }, t('rematch.decline')));
  });
  return { el, dispose: stop };
}
