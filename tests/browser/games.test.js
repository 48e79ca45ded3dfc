// Each of the other three games played to its result screen in the browser: one person clicking
// (the board when it offers a highlighted element, else the list of legal actions) against bots.
// Mid-game the same player also opens the table on a phone: the page must not scroll sideways, the
// board fits the width, and zoomed ("Zoom board") its text is readable.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, guest, createLobby, addBots, start, playToEnd, screenshot, phoneView, boardClipping, MIN_PHONE_TEXT } from './helpers.js';
import { axeProblems } from './axe.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const GAMES = [
  { id: 'templars-journey', bots: 2, seed: 3 },
  { id: 'secret-treasures', bots: 1, seed: 5 },
  { id: 'richard-the-lionheart', bots: 2, seed: 9 },
];

for (const game of GAMES) {
  test(`${game.id}: a full game in the browser reaches its result`, async () => {
    const page = await guest(browser, 'Ada');
    await createLobby(page, game.id);
    await addBots(page, game.bots);
    await start(page, [page]);
    await page.waitForSelector('[data-testid="board"] svg');
    let shot = false;
    let phone = null;
    const moves = await playToEnd([page], {
      seed: game.seed,
      board: true,
      maxMs: 150000,
      onMove: async (n) => {
        if (n === 25 && !shot) {
          shot = true;
          await screenshot(page, `${game.id}-board`);
          phone = await phoneView(page, `${game.id}-phone`);
        }
      },
    });
    assert.ok(moves > 0, 'the person played');
    await page.waitForSelector('[data-testid="result"] [data-testid="breakdown"]');
    const status = await page.textContent('[data-testid="status"]');
    assert.match(status, /Game over/);
    const clickable = await page.locator('[data-testid="legal-actions"] button.action').count();
    assert.equal(clickable, 0, 'nothing is left to play');
    await screenshot(page, `${game.id}-result`);
    assert.deepEqual(await axeProblems(page), [], 'axe-core: the result screen');
    assert.deepEqual(await boardClipping(page), [], 'nothing of the final board is cut off');
    if (!shot) await screenshot(page, `${game.id}-board`);
    if (!phone) phone = await phoneView(page, `${game.id}-phone`);
    assert.ok(phone.overflow <= 1, `the phone-sized page does not scroll sideways (${phone.overflow}px)`);
    assert.ok(phone.fit <= 1, `the board fits the phone's width (${phone.fit}px beyond it)`);
    assert.ok(phone.smallest >= MIN_PHONE_TEXT,
      `the board's text is readable on a phone: "${phone.smallestText}" is drawn at ${phone.smallest.toFixed(1)}px`);
    assert.deepEqual(phone.errors, [], 'no script errors on the phone');
    assert.deepEqual(page.errors, [], 'no script errors');
    await page.context().close();
  });
}
