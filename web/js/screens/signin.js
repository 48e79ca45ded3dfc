// Sign in: as a guest (a name only) or with an account (sign in or register).

import { h, mount } from '../dom.js';
import { post, errorText } from '../api.js';
import { saveSession } from '../session.js';
import { t } from '../i18n.js';

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
      error.textContent = errorText(e);
      error.dataset.code = e.code;
    }
  }

  const guestName = h('input', { name: 'guest-name', required: true, maxlength: 32, autocomplete: 'nickname', placeholder: t('signin.your_name') });
  const guestForm = h('form', {
    class: 'card',
    onsubmit: (e) => {
      e.preventDefault();
      finish(post('/api/guest', { name: guestName.value }));
    },
  },
  h('h2', {}, t('signin.guest_title')),
  h('label', {}, `${t('signin.name')} `, guestName),
  h('button', { type: 'submit', class: 'primary', 'data-testid': 'guest-submit' }, t('signin.guest_submit')));

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
  h('h2', {}, t('signin.account_title')),
  h('label', {}, `${t('signin.name')} `, accName),
  h('label', {}, `${t('signin.password')} `, accPass),
  h('div', { class: 'row' },
    h('button', { type: 'submit', value: 'login', class: 'primary', 'data-testid': 'login' }, t('signin.login')),
    h('button', { type: 'submit', value: 'register', 'data-testid': 'register' }, t('signin.register'))),
  h('p', { class: 'muted small' }, t('signin.account_note')));

  mount(ctx.app,
    h('section', { class: 'signin' },
      h('h1', {}, invite ? t('signin.title_invite') : t('signin.title')),
      h('p', { class: 'lead' }, t('signin.lead')),
      h('div', { class: 'cards' }, guestForm, accountForm),
      error));
  guestName.focus();
  return { dispose() {} };
}
