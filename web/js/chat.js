// The chat panel of a lobby or a game screen: the history the server sends with the follow, live
// messages, a one-line input, "hide spectator chat" (remembered), and the host's mute buttons. The
// screens only place it (`chatPanel(...)`) and dispose of it; the socket subscription is theirs.

import { h, mount } from './dom.js';
import { socket } from './socket.js';
import { t, formatDate } from './i18n.js';

const HIDE_KEY = 'chapterhouse.hideSpectatorChat';
const MAX_CHARS = 500;

function hideSpectators() {
  try {
    return localStorage.getItem(HIDE_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * A chat panel for `room` (`{ lobby: id }` or `{ game: id }`). `me` is the signed-in account (or null),
 * `host()` tells whether `me` hosts the lobby `lobbyId()` whose mutes apply (null: no mute controls);
 * `refresh()` draws the lines again once either has changed.
 */
export function chatPanel({ room, me, host = () => false, lobbyId = () => room.lobby || null }) {
  const key = room.lobby ? 'lobby' : 'game';
  const id = room.lobby || room.game;
  const messages = [];
  let muted = new Set();
  const pending = new Set(); // req numbers of our own chat and mute requests
  // The lines are a list; the box around them is the live log (announced, and scrolled by
  // keyboard as well as by mouse), as for the game's log: a list given the log role is no list.
  const list = h('ol', { class: 'chat-lines' });
  const scroller = h('div', { class: 'chat-log', 'data-testid': 'chat-log', role: 'log', tabindex: '0', 'aria-label': t('chat.title') }, list);
  const error = h('p', { class: 'error small', role: 'alert', 'data-testid': 'chat-error' });
  const hide = h('input', { type: 'checkbox', 'data-testid': 'chat-hide-spectators', checked: hideSpectators(),
    onchange: () => {
      try {
        localStorage.setItem(HIDE_KEY, hide.checked ? '1' : '0');
      } catch {
        // Not remembered, still applied.
      }
      render();
    } });
  const input = h('input', { type: 'text', name: 'chat-text', maxlength: String(MAX_CHARS), autocomplete: 'off',
    placeholder: t('chat.placeholder'), 'aria-label': t('chat.placeholder'), 'data-testid': 'chat-input' });
  const form = h('form', { class: 'chat-form', onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    error.textContent = '';
    const req = socket.send({ type: 'chat', [key]: id, text });
    if (req === null) error.textContent = t('chat.offline');
    else {
      pending.add(req);
      input.value = '';
    }
  } }, input, h('button', { type: 'submit', 'data-testid': 'chat-send' }, t('chat.send')));
  const panel = h('section', { class: 'card chat', 'data-testid': 'chat' },
    h('h2', {}, t('chat.title')),
    h('label', { class: 'small' }, hide, ' ', t('chat.hide_spectators')),
    scroller, me ? form : h('p', { class: 'muted small' }, t('chat.sign_in')), error);

  function mute(account, on) {
    const lobby = lobbyId();
    if (!lobby) return;
    const req = socket.send({ type: 'chat_mute', lobby, account, muted: on });
    if (req !== null) pending.add(req);
  }

  function line(m) {
    const mine = me && m.from.account === me.id;
    // Spectators too: the host may silence anyone who writes here.
    const canMute = host() && !mine && lobbyId();
    const isMuted = muted.has(m.from.account);
    return h('li', { class: ['chat-line', m.spectator ? 'spectator' : null], 'data-testid': 'chat-line', 'data-spectator': m.spectator ? '1' : '0' },
      h('span', { class: 'muted small' }, formatDate(m.at, { timeStyle: 'short' })), ' ',
      h('a', { class: 'chat-from', href: `#/profile/${encodeURIComponent(m.from.account)}` }, m.from.name),
      m.spectator ? h('span', { class: 'muted small' }, ` (${t('chat.spectator')})`) : null,
      isMuted ? h('span', { class: 'muted small', 'data-testid': 'chat-muted-mark' }, ` (${t('chat.muted')})`) : null,
      ': ', h('span', { class: 'chat-text' }, m.text),
      canMute ? [' ', h('button', { type: 'button', class: 'link small', 'data-testid': isMuted ? 'chat-unmute' : 'chat-mute',
        onclick: () => mute(m.from.account, !isMuted) }, isMuted ? t('chat.unmute') : t('chat.mute'))] : null);
  }

  function render() {
    const shown = messages.filter((m) => !(hide.checked && m.spectator));
    mount(list, ...shown.map(line));
    scroller.scrollTop = scroller.scrollHeight;
  }

  const ours = (msg) => msg[key] === id;
  const stop = socket.on((msg) => {
    if (msg.type === 'chat_history' && ours(msg)) {
      messages.length = 0;
      messages.push(...msg.messages);
      muted = new Set(msg.muted || []);
      render();
    } else if (msg.type === 'chat' && ours(msg)) {
      if (!messages.some((m) => m.id === msg.id)) messages.push(msg);
      render();
    } else if (msg.type === 'chat_muted' && ours(msg)) {
      if (msg.muted) muted.add(msg.account);
      else muted.delete(msg.account);
      render();
    } else if (msg.type === 'error' && pending.has(msg.req)) {
      pending.delete(msg.req);
      error.textContent = msg.code && msg.code.startsWith('chat/') ? t(`chat.error.${msg.code.slice(5)}`) : msg.message;
    }
  });
  return { el: panel, dispose: stop, refresh: render };
}
