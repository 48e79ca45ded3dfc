// The signed-in account and its token, kept in localStorage so that a reload keeps the player in.

const KEY = 'chapterhouse.session';

export function loadSession() {
  try {
    const raw = localStorage.getItem(KEY);
    const session = raw ? JSON.parse(raw) : null;
    return session && session.token && session.account ? session : null;
  } catch {
    return null;
  }
}

export function saveSession(session) {
  if (session) localStorage.setItem(KEY, JSON.stringify(session));
  else localStorage.removeItem(KEY);
}

/** The last version and view seen of a game, so that a reload can resume from it. */
export function saveGameCache(game, data) {
  try {
    sessionStorage.setItem(`chapterhouse.game.${game}`, JSON.stringify(data));
  } catch {
    // Storage full or unavailable: a snapshot will do.
  }
}

export function loadGameCache(game) {
  try {
    const raw = sessionStorage.getItem(`chapterhouse.game.${game}`);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}
