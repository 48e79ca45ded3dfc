// Around the table: chat in a lobby and at a game (spectators marked and hideable, the host's mute),
// "Play again" from the result screen with the other player accepting, and the profile page reached
// from the top bar.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, guest, createLobby, joinAndSit, start, playToEnd, screenshot, PHONE } from './helpers.js';
import { axeProblems } from './axe.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function say(page, text) {
  await page.fill('[data-testid="chat-input"]', text);
  await page.click('[data-testid="chat-send"]');
}

function waitLine(page, text) {
  return page.waitForFunction((t) => [...document.querySelectorAll('[data-testid="chat-line"]')].some((li) => li.textContent.includes(t)), text, { timeout: 10000 });
}

function lines(page) {
  return page.$$eval('[data-testid="chat-line"]', (els) => els.map((e) => e.textContent));
}

test('players chat in the lobby and at the table, spectators are marked and can be hidden, the host mutes players and spectators', async () => {
  const ana = await guest(browser, 'Ana');
  const bob = await guest(browser, 'Bob');
  const link = await createLobby(ana, 'knights-templar');
  await joinAndSit(bob, link);

  await say(ana, 'Welcome, Bob!');
  await waitLine(bob, 'Welcome, Bob!');
  await say(bob, 'Thanks <b>Ana</b>');
  await waitLine(ana, 'Thanks <b>Ana</b>');
  assert.equal(await ana.$$eval('[data-testid="chat-log"] b', (els) => els.length), 0, 'chat is shown as text');

  // The host mutes Bob from his message; Bob is told when he writes again.
  await ana.click('[data-testid="chat-mute"]');
  await bob.waitForSelector('[data-testid="chat-muted-mark"]');
  await say(bob, 'Can I still talk?');
  await bob.waitForFunction(() => document.querySelector('[data-testid="chat-error"]').textContent.length > 0);
  assert.match(await bob.textContent('[data-testid="chat-error"]'), /muted/);
  await ana.click('[data-testid="chat-unmute"]');
  await bob.waitForFunction(() => !document.querySelector('[data-testid="chat-muted-mark"]'));

  // At the table: the history of the game's chat is its own; a spectator with the link writes too.
  await start(ana, [ana, bob]);
  const gameUrl = ana.url();
  const sam = await guest(browser, 'Sam');
  const code = new URL(link).hash.split('code=')[1];
  const gameId = gameUrl.split('#/game/')[1].split('?')[0];
  await sam.goto(`${BASE}/#/game/${gameId}?code=${code}`);
  await sam.waitForSelector('[data-testid="chat-input"]');
  await say(bob, 'Good luck');
  await waitLine(sam, 'Good luck');
  await say(sam, 'Go Ana!');
  await waitLine(ana, 'Go Ana!');
  const samLine = (await lines(ana)).find((l) => l.includes('Go Ana!'));
  assert.match(samLine, /spectator/, "a spectator's message is marked");
  assert.ok(!(await lines(ana)).some((l) => l.includes('Welcome, Bob!')), "the lobby's chat stays in the lobby");

  await ana.check('[data-testid="chat-hide-spectators"]');
  await ana.waitForFunction(() => ![...document.querySelectorAll('[data-testid="chat-line"]')].some((li) => li.textContent.includes('Go Ana!')));
  assert.ok((await lines(ana)).some((l) => l.includes('Good luck')), "players' messages stay");
  await ana.uncheck('[data-testid="chat-hide-spectators"]');
  await waitLine(ana, 'Go Ana!');

  // The host mutes the spectator too, from the spectator's message.
  await ana.click('[data-testid="chat-line"]:has-text("Go Ana!") [data-testid="chat-mute"]');
  await sam.waitForSelector('[data-testid="chat-muted-mark"]');
  await say(sam, 'Still here');
  await sam.waitForFunction(() => document.querySelector('[data-testid="chat-error"]').textContent.length > 0);
  assert.match(await sam.textContent('[data-testid="chat-error"]'), /muted/);
  // The host's table with its chat and mute controls, on a desktop and on a phone, for people to
  // look at; axe-core on both.
  await ana.waitForSelector('[data-testid="chat-line"]:has-text("Go Ana!") [data-testid="chat-unmute"]');
  // From the top: a full-page capture of a scrolled page draws the sticky top bar mid-page.
  await ana.evaluate(() => window.scrollTo(0, 0));
  await screenshot(ana, 'table-chat-host-desktop');
  assert.deepEqual(await axeProblems(ana), [], 'axe-core: the table with the host\'s chat controls');
  await ana.setViewportSize(PHONE);
  await ana.evaluate(() => window.scrollTo(0, 0));
  await screenshot(ana, 'table-chat-host-phone');
  assert.deepEqual(await axeProblems(ana), [], 'axe-core: the same on a phone');
  for (const p of [ana, bob, sam]) assert.deepEqual(p.errors, []);
  for (const p of [ana, bob, sam]) await p.context().close();
});

test('"Play again" at the result opens a rematch the other player accepts; the profile lists the game', async () => {
  const ana = await guest(browser, 'Ana');
  const bob = await guest(browser, 'Bob');
  const link = await createLobby(ana, 'knights-templar');
  await joinAndSit(bob, link);
  await start(ana, [ana, bob]);
  await playToEnd([ana, bob], { seed: 7 });

  await ana.click('[data-testid="play-again"]');
  await ana.waitForSelector('[data-testid="rematch-waiting"]');
  assert.match(await ana.textContent('[data-testid="rematch-waiting"]'), /Bob/);
  await bob.waitForSelector('[data-testid="rematch-accept"]');
  assert.match(await bob.textContent('[data-testid="rematch-offer"]'), /Ana/);
  await bob.click('[data-testid="rematch-accept"]');
  await bob.waitForSelector('[data-testid="seats"]');
  await ana.waitForFunction(() => [...document.querySelectorAll('[data-testid="seats"] [data-testid="seat-name"]')].map((e) => e.textContent).join(',') === 'Ana,Bob');
  assert.equal(await ana.$('[data-testid="rematch-waiting"]'), null, 'nobody is waited for');

  // The profile, from the top bar: the finished game with its result, opponent and links.
  await ana.click('[data-testid="who"]');
  await ana.waitForSelector('[data-testid="profile-finished"]');
  assert.equal(await ana.textContent('[data-testid="profile-name"]'), 'Ana (guest)');
  const row = await ana.textContent('[data-testid="profile-finished"] tbody tr');
  assert.match(row, /Bob/);
  assert.match(await ana.textContent('[data-testid="profile-result"]'), /won|place \d/);
  assert.equal(await ana.$$eval('[data-testid="profile-finished"] a[href^="#/replay/"]', (els) => els.length), 1);
  assert.deepEqual(await axeProblems(ana), [], 'axe-core: the profile page');
  // The leaderboard of the game (guests are unrated, so it may be empty; it must still be readable).
  await ana.click('[data-testid="leaderboard-link"]');
  await ana.waitForSelector('[data-testid="leaderboard"] h1');
  assert.deepEqual(await axeProblems(ana), [], 'axe-core: the leaderboard');
  for (const p of [ana, bob]) assert.deepEqual(p.errors, []);
  for (const p of [ana, bob]) await p.context().close();
});
