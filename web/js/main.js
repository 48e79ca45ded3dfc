// The page's entry point: a small hash router between the screens, the top bar, and the socket.

import { h, mount } from './dom.js';
import { loadSession, saveSession } from './session.js';
import { post } from './api.js';
import { socket } from './socket.js';
import { signInScreen } from './screens/signin.js';
import { homeScreen } from './screens/home.js';
import { lobbyScreen } from './screens/lobby.js';
import { gameScreen } from './screens/game.js';
import { replayScreen } from './screens/replay.js';
import { rulesScreen } from './screens/rules.js';
import { profileScreen, leaderboardScreen } from './screens/profile.js';
import { t } from './i18n.js';
import { installTooltips } from './tooltip.js';

const app = document.getElementById('app');
let current = null; // the screen shown: { dispose() }

/** The route of a hash such as `#/lobby/abc?code=xyz`: its path parts and query. */
export function parseRoute(hash) {
  const raw = (hash || '').replace(/^#/, '') || '/';
  const [path, query = ''] = raw.split('?');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

export function navigate(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function renderWho() {
  const session = loadSession();
  const who = document.getElementById('who');
  if (!session) return mount(who);
  mount(
    who,
    h('a', { class: 'who-name', 'data-testid': 'who', href: `#/profile/${encodeURIComponent(session.account.id)}`, title: t('profile.link') }, session.account.name),
    session.account.kind === 'guest' ? h('span', { class: 'muted' }, ' (guest)') : null,
    ' ',
    h('a', { href: '#/leaderboard/knights-templar', 'data-testid': 'leaderboard-link' }, t('leaderboard.link')),
    ' ',
    h('button', { class: 'link', onclick: signOut }, 'Sign out'),
  );
}

async function signOut() {
  try {
    await post('/api/logout');
  } catch {
    // Already invalid: forget it anyway.
  }
  saveSession(null);
  socket.connect();
  renderWho();
  navigate('#/');
}

function route() {
  if (current && current.dispose) current.dispose();
  current = null;
  renderWho();
  const { parts, query } = parseRoute(location.hash);
  const session = loadSession();
  const [screen, id] = parts;
  const ctx = { app, navigate, session, query, onSignedIn: () => { socket.connect(); route(); } };
  // Spectating a game or replay, or reading rules, needs no account; everything else does.
  if (!session && !(screen === 'game' || screen === 'replay' || screen === 'rules' || screen === 'profile' || screen === 'leaderboard')) {
    current = signInScreen(ctx);
    return;
  }
  if (screen === 'lobby' && id) current = lobbyScreen(ctx, id);
  else if (screen === 'game' && id) current = gameScreen(ctx, id);
  else if (screen === 'replay' && id) current = replayScreen(ctx, id);
  else if (screen === 'rules' && id) current = rulesScreen(ctx, id);
  else if (screen === 'profile' && id) current = profileScreen(ctx, id);
  else if (screen === 'leaderboard' && id) current = leaderboardScreen(ctx, id);
  else current = homeScreen(ctx);
}

socket.onStatus((status) => {
  const el = document.getElementById('conn');
  const labels = { online: 'online', connecting: 'connecting…', reconnecting: 'reconnecting…', offline: 'offline — reconnecting…', 'signed-out': 'signed out' };
  el.textContent = labels[status] || status;
  el.dataset.status = status;
  document.body.dataset.conn = status;
});

socket.on((msg) => {
  if (msg.type === 'error' && msg.code === 'auth/invalid_token') {
    saveSession(null);
    socket.connect();
    route();
  }
});

window.addEventListener('hashchange', route);
// A test hook: drop the socket as a network failure would.
window.chapterhouse = { socket };
installTooltips();
socket.connect();
route();
