// A registered account: created with a name and a password, it plays one game to the end and leaves
// another running, signs out, is refused with a wrong password (the server's own message), signs in
// again and finds both games on its home screen.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, createLobby, addBots, start, playToEnd } from './helpers.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function signInForm(page, name, password, button) {
  await page.fill('[data-testid="account-form"] input[name="account-name"]', name);
  await page.fill('[data-testid="account-form"] input[name="password"]', password);
  await page.click(`[data-testid="${button}"]`);
}

async function signOut(page) {
  await page.click('#who button');
  await page.waitForSelector('[data-testid="account-form"]');
  assert.equal(await page.locator('[data-testid="who"]').count(), 0, 'nobody is signed in');
}

test('a registered account signs out and in again and finds its finished and running games', async () => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e));
  const name = `Reg${Date.now().toString(36)}`;
  const password = 'correct horse battery';

  await page.goto(BASE + '/');
  await signInForm(page, name, password, 'register');
  await page.waitForSelector('[data-testid="create-lobby"]');
  assert.equal(await page.textContent('[data-testid="who"]'), name);
  assert.equal(await page.locator('#who .muted').count(), 0, 'a registered account is not marked as a guest');
  await page.waitForSelector('[data-testid="my-games"] li.muted');
  assert.equal(await page.textContent('[data-testid="my-games"]'), 'None yet.');

  // One game played to its end against bots …
  await createLobby(page, 'templars-journey');
  await addBots(page, 2);
  await start(page, [page]);
  const finished = page.url().split('#/game/')[1].split('?')[0];
  await playToEnd([page], { seed: 21, maxMs: 150000 });
  await page.waitForSelector('[data-testid="result"]');
  // … and one left running.
  await page.click('a.brand');
  await createLobby(page, 'richard-the-lionheart');
  await addBots(page, 2);
  await start(page, [page]);
  const running = page.url().split('#/game/')[1].split('?')[0];

  await signOut(page);
  // A repeated name is refused with the server's message.
  await signInForm(page, name.toUpperCase(), password, 'register');
  await page.waitForSelector('[data-testid="signin-error"][data-code="auth/name_taken"]');
  // A wrong password: the server's message, on the page.
  await signInForm(page, name, 'not the password', 'login');
  await page.waitForSelector('[data-testid="signin-error"][data-code="auth/bad_credentials"]');
  assert.equal(await page.textContent('[data-testid="signin-error"]'), 'wrong name or password');
  assert.equal(await page.locator('[data-testid="create-lobby"]').count(), 0, 'still signed out');

  // The right password (the name in another case) signs in; the home screen lists both games.
  await signInForm(page, name.toLowerCase(), password, 'login');
  await page.waitForSelector('[data-testid="create-lobby"]');
  assert.equal(await page.textContent('[data-testid="who"]'), name);
  await page.waitForSelector(`[data-testid="my-games"] li[data-game="${running}"]`);
  const games = await page.$$eval('[data-testid="my-games"] li[data-game]', (lis) => lis.map((li) => ({
    id: li.dataset.game, status: li.dataset.status, text: li.textContent, href: li.querySelector('a').getAttribute('href'),
  })));
  assert.equal(games.length, 2);
  assert.deepEqual(games.map((g) => [g.id, g.status]), [[running, 'running'], [finished, 'finished']], 'newest first');
  assert.match(games[0].text, /Richard the Lionheart.*\(running\)/);
  assert.match(games[1].text, /Journey.*won by/);
  assert.ok(games[0].text.includes(name) && games[1].text.includes(name));

  // Both open from there: the running game at its table, the finished one in the replay viewer.
  await page.click(`[data-testid="my-games"] li[data-game="${running}"] a`);
  await page.waitForSelector('[data-testid="game"][data-version] [data-testid="board"] svg');
  assert.notEqual(await page.getAttribute('[data-testid="game"]', 'data-seat'), 'spectator', 'the account holds its seat again');
  await page.click('a.brand');
  await page.click(`[data-testid="my-games"] li[data-game="${finished}"] a`);
  await page.waitForSelector('[data-testid="replay"] [data-testid="replay-step"]');

  assert.deepEqual(page.errors, [], 'no script errors');
  await context.close();
});
