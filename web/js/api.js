// HTTP calls to the server's /api routes, with the session's bearer token.

import { loadSession } from './session.js';
import { t, lang } from './i18n.js';

/** An error answered by the server: `code` is stable (e.g. `lobby/seat_taken`), `message` is a sentence. */
export class ApiError extends Error {
  constructor(code, message, status, details) {
    super(message);
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

export async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  const session = loadSession();
  if (session) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError('net/unreachable', t('error.net/unreachable'), 0);
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(error.code || `http/${response.status}`, error.message || response.statusText, response.status, error.details);
  }
  return data;
}

/**
 * What to show for an error. In English, the server's own sentence. In another language, the
 * catalog's sentence for its code when there is one (`error.<code>`, with the server's `details` as
 * placeholders), else the server's sentence, so that a code the client does not know yet still
 * explains itself. (The English `error.*` texts are the reference for translators, and the words of
 * the errors the client makes itself.)
 */
export function errorText(e) {
  if (lang() === 'en' && e && e.message) return e.message;
  const key = `error.${e && e.code}`;
  const text = t(key, { ...((e && e.details) || {}) });
  return text === key ? (e && e.message) || String(e) : text;
}

export const get = (path) => api('GET', path);
export const post = (path, body) => api('POST', path, body === undefined ? {} : body);

let catalogPromise = null;

/** The games this server hosts (cached for the page's life). */
export function catalog() {
  if (!catalogPromise) catalogPromise = get('/api/catalog').then((c) => c.games).catch((e) => { catalogPromise = null; throw e; });
  return catalogPromise;
}

export async function gameInfo(id) {
  const games = await catalog();
  return games.find((g) => g.id === id) || { id, name: id, options: [] };
}
