// Issue 13's last gaps: pieces and cards that move slide from where they were (and stand still for
// players who ask for reduced motion); the "your turn" badge of the games list; and on a phone the
// options panel never covers the players list.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, guest, quickGame, openTable, moveOnce, rng, PHONE, apiCall, screenshot } from './helpers.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Counts the slide animations the page starts (motion.js names them `piece-move`). */
async function countSlides(context) {
  await context.addInitScript(() => {
    window.__slides = 0;
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (frames, options) {
      if (options && options.id === 'piece-move') window.__slides += 1;
      return animate.call(this, frames, options);
    };
  });
}

/**
 * Plays Knights Templar moves (bots play the other seat) until the board has redrawn a version in
 * which some card moved (a Fate card into a tableau); returns the page's counters then.
 */
async function playUntilACardMoves(page) {
  const random = rng(5);
  for (let i = 0; i < 60; i++) {
    const moved = await page.$eval('[data-testid="board"]', (b) => Number(b.dataset.moved || 0));
    if (moved > 0) break;
    await page.waitForFunction(() => {
      const g = document.querySelector('[data-testid="game"]');
      return g.dataset.myTurn === 'true' || g.dataset.state === 'over' || Number(document.querySelector('[data-testid="board"]').dataset.moved || 0) > 0;
    }, null, { timeout: 20000 });
    await moveOnce(page, random);
  }
  return page.evaluate(() => ({
    moved: Number(document.querySelector('[data-testid="board"]').dataset.moved || 0),
    motion: document.querySelector('[data-testid="board"]').dataset.motion,
    slides: window.__slides,
    running: document.getAnimations().filter((a) => a.id === 'piece-move').length,
  }));
}

test('a card that moves slides from where it was, unless the player prefers reduced motion', async () => {
  const host = await guest(browser, 'Moe');
  const state = await host.context().storageState();
  const id = await quickGame(host, 'knights-templar', 2);

  const moving = await browser.newContext({ viewport: { width: 1366, height: 900 }, storageState: state });
  await countSlides(moving);
  const page = await moving.newPage();
  await openTable(page, id);
  const seen = await playUntilACardMoves(page);
  assert.ok(seen.moved > 0, 'a card moved on the board');
  assert.equal(seen.motion, 'slide');
  assert.ok(seen.slides >= seen.moved, `every moved card slid (${seen.slides} slides for ${seen.moved} moved)`);

  const still = await browser.newContext({ viewport: { width: 1366, height: 900 }, storageState: state, reducedMotion: 'reduce' });
  await countSlides(still);
  const calm = await still.newPage();
  await openTable(calm, await quickGame(host, 'knights-templar', 2));
  const quiet = await playUntilACardMoves(calm);
  assert.ok(quiet.moved > 0, 'a card moved on the board');
  assert.equal(quiet.motion, 'reduced');
  assert.equal(quiet.slides, 0, 'no slide was started');
  assert.equal(quiet.running, 0);
  await moving.close();
  await still.close();
  await host.context().close();
});

test('the games list marks the games that wait for me with a "your turn" badge', async () => {
  const ana = await guest(browser, 'Ana');
  const ben = await guest(browser, 'Ben');
  const { lobby } = await apiCall(ana, 'POST', '/api/lobbies', { game: 'knights-templar' });
  await apiCall(ben, 'POST', `/api/lobbies/${lobby.id}/join`, { code: lobby.invite_code });
  await apiCall(ben, 'POST', `/api/lobbies/${lobby.id}/seat`, { seat: 1 });
  const { game } = await apiCall(ana, 'POST', `/api/lobbies/${lobby.id}/start`);
  const badge = async (page) => {
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector(`[data-testid="my-games"] [data-game="${game}"]`);
    return page.locator(`[data-testid="my-games"] [data-game="${game}"] [data-testid="your-turn-badge"]`).count();
  };
  const [a, b] = [await badge(ana), await badge(ben)];
  assert.equal(a + b, 1, `exactly one of the two is waited for (Ana ${a}, Ben ${b})`);
  const mover = a ? ana : ben;
  const other = a ? ben : ana;
  assert.equal(await mover.textContent('[data-testid="your-turn-badge"]'), 'your turn');
  // The one who is waited for moves; the badge follows the game.
  await openTable(mover, game);
  await mover.waitForFunction(() => document.querySelector('[data-testid="game"]').dataset.myTurn === 'true');
  const before = Number(await mover.getAttribute('[data-testid="game"]', 'data-version'));
  await mover.locator('[data-testid="legal-actions"] button.action').first().click();
  await mover.waitForFunction((v) => Number(document.querySelector('[data-testid="game"]').dataset.version) > v, before);
  const waiting = await mover.$eval('[data-testid="game"]', (g) => g.dataset.myTurn === 'true');
  // The home page asks again every few seconds, so the badge catches up with the move by itself.
  const shows = async (page, want) => {
    await badge(page);
    await page.waitForFunction(([g, n]) => document.querySelectorAll(`[data-testid="my-games"] [data-game="${g}"] [data-testid="your-turn-badge"]`).length === n, [game, want], { timeout: 12000 });
  };
  await shows(mover, waiting ? 1 : 0);
  await shows(other, waiting ? 0 : 1);
  await ana.context().close();
  await ben.context().close();
});

test('on a phone the options panel never covers the players list, and stays reachable from the board', async () => {
  const desk = await guest(browser, 'Pip');
  for (const game of ['knights-templar', 'templars-journey', 'richard-the-lionheart', 'secret-treasures']) {
    const id = await quickGame(desk, game, game === 'templars-journey' ? 3 : 2);
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, storageState: await desk.context().storageState() });
    const phone = await context.newPage();
    await openTable(phone, id);
    await phone.waitForFunction(() => document.querySelector('[data-testid="game"]').dataset.myTurn === 'true', null, { timeout: 20000 });
    await phone.waitForSelector('[data-testid="legal-actions"] button.action');
    const worst = await phone.evaluate(async () => {
      const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
      const options = document.querySelector('[data-testid="legal-actions"]');
      const players = document.querySelector('[data-testid="players"]');
      let most = 0;
      const end = document.documentElement.scrollHeight;
      for (let y = 0; y <= end; y += 60) {
        window.scrollTo(0, y);
        await new Promise((r) => requestAnimationFrame(r));
        most = Math.max(most, overlap(options.getBoundingClientRect(), players.getBoundingClientRect()));
      }
      window.scrollTo(0, 0);
      await new Promise((r) => requestAnimationFrame(r));
      // From the top of the board, the first option is on screen.
      const first = options.querySelector('button.action').getBoundingClientRect();
      return { most, firstOnScreen: first.top >= 0 && first.bottom <= window.innerHeight };
    });
    await screenshot(phone, `${game}-phone-options`);
    assert.equal(worst.most, 0, `${game}: the options panel overlaps the players list by ${worst.most} px² at some scroll position`);
    assert.ok(worst.firstOnScreen, `${game}: an option is on screen at the top of the board`);
    await context.close();
  }
  await desk.context().close();
});
