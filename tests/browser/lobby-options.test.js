// The host changes a lobby's options and its time limit per turn after creating it; the other member
// sees every change live, read-only; the game starts with the options the host chose last.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, guest, createLobby, joinAndSit } from './helpers.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const shown = (page, key) => page.textContent(`[data-testid="lobby-options"] dd[data-option="${key}"]`);

async function waitShown(page, key, text) {
  await page.waitForFunction(([k, t]) => document.querySelector(`[data-testid="lobby-options"] dd[data-option="${k}"]`)?.textContent === t,
    [key, text], { timeout: 10000 });
}

async function authed(page, path) {
  return page.evaluate(async (p) => {
    const { token } = JSON.parse(localStorage.getItem('chapterhouse.session'));
    const r = await fetch(p, { headers: { Authorization: `Bearer ${token}` } });
    return r.json();
  }, path);
}

test('the host changes options in the lobby; everyone sees them live; only the host can', async () => {
  const host = await guest(browser, 'Hostia');
  const ben = await guest(browser, 'Ben');
  const link = await createLobby(host, 'secret-treasures');
  await joinAndSit(ben, link);
  const lobbyId = link.split('#/lobby/')[1].split('?')[0];

  // The host has controls holding the options the lobby was created with.
  await host.waitForSelector('[data-testid="lobby-options"] [name="opt-stephanus"]');
  assert.equal(await host.isChecked('[name="opt-stephanus"]'), true);
  assert.equal(await host.isChecked('[name="opt-first_game_placement"]'), false);
  assert.equal(await host.inputValue('[data-testid="turn-seconds"]'), '');

  // The other member sees them as text, with nothing to change.
  await waitShown(ben, 'stephanus', 'on');
  assert.equal(await shown(ben, 'first_game_placement'), 'off');
  assert.equal(await shown(ben, 'turn_seconds'), 'no time limit');
  assert.equal(await ben.locator('[data-testid="lobby-options"] input, [data-testid="lobby-options"] select').count(), 0,
    'a member who is not the host has no option controls');

  // Every change of the host reaches the other member without a reload.
  await host.setChecked('[name="opt-stephanus"]', false);
  await waitShown(ben, 'stephanus', 'off');
  await host.setChecked('[name="opt-first_game_placement"]', true);
  await waitShown(ben, 'first_game_placement', 'on');
  await host.selectOption('[data-testid="turn-seconds"]', '90');
  await waitShown(ben, 'turn_seconds', '90 s per turn');
  assert.match(await ben.textContent('[data-testid="lobby-summary"]'), /Play with Stephanus: off.*90 s per turn/);
  // A seat change elsewhere does not reset the host's controls.
  await ben.click('text=Stand up');
  await host.waitForFunction(() => document.querySelectorAll('[data-testid="seats"] [data-testid="seat-name"]').length === 1);
  assert.equal(await host.isChecked('[name="opt-stephanus"]'), false);
  assert.equal(await host.inputValue('[data-testid="turn-seconds"]'), '90');
  await ben.locator('[data-testid="sit"]').first().click();
  await host.waitForFunction(() => document.querySelectorAll('[data-testid="seats"] [data-testid="seat-name"]').length === 2);

  // The server holds them (a reload shows the same), and the limit can be removed again.
  const { lobby } = await authed(ben, `/api/lobbies/${lobbyId}`);
  assert.deepEqual(lobby.options, { stephanus: false, first_game_placement: true });
  assert.equal(lobby.turn_seconds, 90);
  await host.selectOption('[data-testid="turn-seconds"]', '');
  await waitShown(ben, 'turn_seconds', 'no time limit');
  await host.selectOption('[data-testid="turn-seconds"]', '60');
  await waitShown(ben, 'turn_seconds', '1 min per turn');
  await host.reload();
  await host.waitForSelector('[data-testid="lobby-options"] [name="opt-stephanus"]');
  assert.equal(await host.isChecked('[name="opt-stephanus"]'), false);
  assert.equal(await host.isChecked('[name="opt-first_game_placement"]'), true);
  assert.equal(await host.inputValue('[data-testid="turn-seconds"]'), '60');

  // The game starts with them.
  await host.click('[data-testid="start"]');
  for (const p of [host, ben]) await p.waitForSelector('[data-testid="game"][data-version]', { timeout: 15000 });
  const gameId = host.url().split('#/game/')[1].split('?')[0];
  const { game } = await authed(host, `/api/games/${gameId}`);
  assert.deepEqual(game.options, { stephanus: false, first_game_placement: true });

  for (const p of [host, ben]) assert.deepEqual(p.errors, [], 'no script errors');
  for (const p of [host, ben]) await p.context().close();
});
