// The one WebSocket of the page: connects with the session's token, reconnects with backoff after a
// drop, and lets screens follow lobbies and games. Subscriptions are re-sent after every reconnect;
// a game subscription resumes from the last version its owner holds.

import { loadSession } from './session.js';
import { t } from './i18n.js';

export class Socket {
  constructor() {
    this.ws = null;
    this.listeners = new Set();
    this.statusListeners = new Set();
    this.subscriptions = new Map(); // key -> () => message to send on (re)connect
    this.nextReq = 1;
    this.retry = 0;
    this.status = 'connecting';
    this.closedByUs = false;
    this.token = null;
  }

  /** Opens (or re-opens, when the token changed) the connection. */
  connect() {
    const token = loadSession()?.token || null;
    if (this.ws && this.token === token && this.ws.readyState <= 1) return;
    this.token = token;
    if (this.ws) {
      this.closedByUs = true;
      this.ws.close();
    }
    this.closedByUs = false;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    // The token travels as a subprotocol, never in the URL, where logs and proxies keep it.
    const protocols = token ? ['chapterhouse', `chapterhouse.token.${token}`] : ['chapterhouse'];
    const ws = new WebSocket(`${proto}//${location.host}/ws`, protocols);
    this.ws = ws;
    this.setStatus(this.retry ? 'reconnecting' : 'connecting');
    ws.addEventListener('open', () => {
      if (ws !== this.ws) return;
      this.retry = 0;
      this.setStatus('online');
      for (const make of this.subscriptions.values()) this.sendNow(make());
    });
    ws.addEventListener('message', (event) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      for (const listener of [...this.listeners]) listener(msg);
    });
    ws.addEventListener('close', (event) => {
      if (ws !== this.ws || this.closedByUs) return;
      this.ws = null;
      if (event.code === 4401) {
        this.setStatus('signed-out');
        for (const listener of [...this.listeners]) listener({ type: 'error', code: 'auth/invalid_token', message: t('error.auth/invalid_token') });
        return;
      }
      this.setStatus('offline');
      const delay = Math.min(5000, 250 * 2 ** this.retry);
      this.retry += 1;
      setTimeout(() => this.connect(), delay);
    });
  }

  /** Drops the connection as a network failure would (it reconnects by itself). */
  drop() {
    if (this.ws) this.ws.close();
  }

  setStatus(status) {
    this.status = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }

  onStatus(listener) {
    this.statusListeners.add(listener);
    listener(this.status);
    return () => this.statusListeners.delete(listener);
  }

  on(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  sendNow(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Sends a request; returns its `req` number, or null when offline. */
  send(msg) {
    const req = this.nextReq++;
    return this.sendNow({ ...msg, req }) ? req : null;
  }

  /** Keeps `make()` subscribed across reconnects; returns a function that unsubscribes. */
  follow(key, make, unsubscribe) {
    this.subscriptions.set(key, make);
    this.sendNow(make());
    return () => {
      if (this.subscriptions.get(key) === make) this.subscriptions.delete(key);
      this.sendNow(unsubscribe);
    };
  }

  /** Sends the subscription of `key` again now (e.g. to ask for a fresh snapshot). */
  refresh(key) {
    const make = this.subscriptions.get(key);
    if (make) this.sendNow(make());
  }
}

export const socket = new Socket();
