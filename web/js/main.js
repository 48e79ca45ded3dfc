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
import { installTooltips } from './tooltip.js';
import { t, lang, setLang, onLangChange, LANGUAGES } from './i18n.js';

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
    session.account.kind === 'guest' ? h('span', { class: 'muted' }, ` (${t('top.guest')})`) : null,
    ' ',
    h('a', { href: '#/leaderboard/knights-templar', 'data-testid': 'leaderboard-link' }, t('leaderboard.link')),
    ' ',
    h('button', { class: 'link', onclick: signOut }, t('top.sign_out')),
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

/** The language switch of the top bar: each language named in itself, the current one pressed. */
function renderLangSwitch() {
  mount(document.getElementById('lang'),
    h('span', { class: 'sr-only' }, t('top.language')),
    ...Object.entries(LANGUAGES).map(([code, label]) => h('button', {
      class: 'link lang-choice',
      lang: code,
      'aria-pressed': String(code === lang()),
      'data-testid': `lang-${code}`,
      onclick: () => setLang(code),
    }, label)));
}

let connStatus = 'connecting';
function renderConn() {
  const el = document.getElementById('conn');
  el.textContent = t(`conn.${connStatus}`);
  el.title = t('conn.title');
  el.dataset.status = connStatus;
  document.body.dataset.conn = connStatus;
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
  connStatus = status;
  renderConn();
});

// A new language re-renders the whole page: the top bar, and the current screen from its route (a
// table keeps its game from the session cache and its subscription is renewed).
onLangChange(() => {
  renderLangSwitch();
  renderConn();
  route();
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
renderLangSwitch();
socket.connect();
route();
