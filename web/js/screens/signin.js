// Sign in: as a guest (a name only) or with an account (sign in or register).

import { h, mount } from '../dom.js';
import { post } from '../api.js';
import { saveSession } from '../session.js';

export function signInScreen(ctx) {
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'signin-error' });
  const invite = ctx.query && location.hash.startsWith('#/lobby/');

  async function finish(promise) {
    error.textContent = '';
    delete error.dataset.code;
    try {
      const session = await promise;
      saveSession({ token: session.token, account: session.account });
      ctx.onSignedIn();
    } catch (e) {
      // The server's own sentence; its stable code is kept for tests and styling.
      error.textContent = e.message;
      error.dataset.code = e.code;
    }
  }

  const guestName = h('input', { name: 'guest-name', required: true, maxlength: 32, autocomplete: 'nickname', placeholder: 'Your name' });
  const guestForm = h('form', {
    class: 'card',
    onsubmit: (e) => {
      e.preventDefault();
      finish(post('/api/guest', { name: guestName.value }));
    },
  },
  h('h2', {}, 'Play as a guest'),
  h('label', {}, 'Name ', guestName),
  h('button', { type: 'submit', class: 'primary', 'data-testid': 'guest-submit' }, 'Play as guest'));

  const accName = h('input', { name: 'account-name', required: true, maxlength: 32, autocomplete: 'username' });
  const accPass = h('input', { name: 'password', type: 'password', required: true, minlength: 8, autocomplete: 'current-password' });
  const accountForm = h('form', {
    class: 'card',
    'data-testid': 'account-form',
    onsubmit: (e) => {
      e.preventDefault();
      const register = e.submitter && e.submitter.value === 'register';
      finish(post(register ? '/api/register' : '/api/login', { name: accName.value, password: accPass.value }));
    },
  },
  h('h2', {}, 'Your account'),
  h('label', {}, 'Name ', accName),
  h('label', {}, 'Password ', accPass),
  h('div', { class: 'row' },
    h('button', { type: 'submit', value: 'login', class: 'primary', 'data-testid': 'login' }, 'Sign in'),
    h('button', { type: 'submit', value: 'register', 'data-testid': 'register' }, 'Create account')),
  h('p', { class: 'muted small' }, 'An account keeps your games: sign in from any browser to find them on the home page.'));

  mount(ctx.app,
    h('section', { class: 'signin' },
      h('h1', {}, invite ? 'Sign in to join the lobby' : 'Welcome to Chapterhouse'),
      h('p', { class: 'lead' }, 'Four board games of the crusader era — Templars\' Journey, The Secret Treasures, Knights Templar and Richard the Lionheart — played with friends in the browser.'),
      h('div', { class: 'cards' }, guestForm, accountForm),
      error));
  guestName.focus();
  return { dispose() {} };
}
