// Three people in three browser contexts: a private Knights Templar lobby hosted, joined through its
// invite link, and played to the end by clicking; live updates, a reload and a dropped connection
// mid-game, a spectator, escaped names, a phone-sized screen, and the replay viewer.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, guest, createLobby, joinAndSit, start, version, moveOnce, rng, playToEnd, screenshot, phoneMetrics, MIN_PHONE_TEXT } from './helpers.js';

const HOSTILE = '<img src=x onerror=__xss=1>Mal';
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function boardState(page) {
  return page.$eval('[data-testid="game"]', (el) => ({
    version: Number(el.dataset.version),
    board: el.querySelector('[data-testid="board"]').textContent,
    players: el.querySelector('[data-testid="players"]').textContent,
  }));
}

async function waitVersion(page, v) {
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="game"]')?.dataset.version) >= n, v, { timeout: 15000 });
}

test('a private lobby is hosted, joined by link and played to the end by clicking', async () => {
  const host = await guest(browser, 'Héloïse');
  const bob = await guest(browser, 'Bob');
  const mallory = await guest(browser, HOSTILE, { width: 390, height: 844 });
  const pages = [host, bob, mallory];

  const link = await createLobby(host, 'knights-templar');
  assert.match(link, /#\/lobby\/[^?]+\?code=\w+/, 'a private lobby shows an invite link with its code');
  await joinAndSit(bob, link);
  await joinAndSit(mallory, link);
  // The host sees the others sit down without reloading.
  await host.waitForFunction(() => document.querySelectorAll('[data-testid="seats"] [data-testid="seat-name"]').length === 3);
  const names = await host.$$eval('[data-testid="seats"] [data-testid="seat-name"]', (els) => els.map((e) => e.textContent));
  assert.deepEqual(names, ['Héloïse', 'Bob', HOSTILE], 'names are shown as text, in seat order');

  await start(host, pages);
  const gameUrl = host.url();
  assert.match(gameUrl, /#\/game\//);
  for (const p of pages) await p.waitForSelector('[data-testid="board"] svg');

  // Moves by clicking the board: whoever is to act clicks a highlighted element; the others see it.
  const random = rng(7);
  let seen = 0;
  for (let round = 0; round < 400 && seen < 6; round++) {
    for (const [i, p] of pages.entries()) {
      const before = await version(p);
      if (await moveOnce(p, random, { board: true })) {
        const after = await version(p);
        if (after > before) {
          for (const other of pages.filter((_, j) => j !== i)) {
            await waitVersion(other, after);
            const log = await other.$eval('[data-testid="log"]', (el) => el.textContent);
            assert.ok(log.length > 0, 'the other players see the move in their log');
          }
          seen += 1;
        }
      }
    }
  }
  assert.ok(seen >= 6, 'moves were played by clicking and seen by everyone');

  // A reload in the middle of the game returns to the same state.
  const beforeReload = await boardState(bob);
  await bob.reload();
  await bob.waitForSelector('[data-testid="game"][data-version] [data-testid="board"] svg');
  await bob.waitForFunction(() => document.querySelector('[data-testid="game"]').dataset.conn === 'online');
  assert.deepEqual(await boardState(bob), beforeReload, 'same version, same board, same player boards after a reload');

  // A dropped connection comes back by itself and catches up.
  await mallory.evaluate(() => window.chapterhouse.socket.drop());
  for (let i = 0; i < 50; i++) {
    let moved = false;
    for (const p of [host, bob]) moved = (await moveOnce(p, random, { board: true })) || moved;
    if (moved) break;
    await host.waitForTimeout(50);
  }
  const latest = Math.max(await version(host), await version(bob));
  await waitVersion(mallory, latest);
  await mallory.waitForFunction(() => document.body.dataset.conn === 'online');

  // A spectator with the link watches without seat or actions.
  const code = new URL(link.replace('#/lobby/', 'lobby/').replace('#', '')).searchParams.get('code') || link.split('code=')[1];
  const spectatorContext = await browser.newContext();
  const spectator = await spectatorContext.newPage();
  const gameId = gameUrl.split('#/game/')[1].split('?')[0];
  await spectator.goto(`${BASE}/#/game/${gameId}?code=${code}`);
  await spectator.waitForSelector('[data-testid="game"][data-seat="spectator"] [data-testid="board"] svg');
  assert.equal(await spectator.locator('[data-testid="legal-actions"] button.action').count(), 0, 'a spectator has no actions');
  await screenshot(host, 'knights-templar-board');
  await screenshot(mallory, 'knights-templar-phone');
  assert.ok((await phoneMetrics(mallory)).overflow <= 1, 'the phone-sized page does not scroll sideways');
  // The board fits the phone; zoomed ("Zoom board") its text is readable.
  await mallory.click('[data-testid="zoom"]');
  const phone = await phoneMetrics(mallory);
  assert.ok(phone.overflow <= 1, `the phone-sized page does not scroll sideways, zoomed either (${phone.overflow}px)`);
  assert.ok(phone.smallest >= MIN_PHONE_TEXT, `the board's text is readable on a phone: "${phone.smallestText}" is drawn at ${phone.smallest.toFixed(1)}px`);

  // Everyone plays on to the result.
  await playToEnd(pages, { seed: 11, board: true, maxMs: 150000 });
  for (const p of pages) {
    await p.waitForSelector('[data-testid="result"] [data-testid="breakdown"]');
    const rows = await p.$$eval('[data-testid="breakdown"] tbody tr', (trs) => trs.length);
    assert.ok(rows >= 3, 'the result shows ranks, the scoring breakdown and the scores');
  }
  await spectator.waitForSelector('[data-testid="result"]');
  await screenshot(host, 'knights-templar-result');

  // Names from other players were never run as HTML.
  for (const p of [...pages, spectator]) {
    assert.equal(await p.evaluate(() => window.__xss), undefined, 'a hostile name is not executed');
    assert.equal(await p.locator('img[src="x"]').count(), 0, 'a hostile name makes no element');
  }
  assert.ok((await host.textContent('[data-testid="breakdown"]')).includes(HOSTILE));

  // The replay viewer steps through the finished game.
  await host.click('text=Replay');
  await host.waitForSelector('[data-testid="replay"] [data-testid="replay-step"]');
  const end = await host.textContent('[data-testid="replay-step"]');
  await host.click('[data-testid="replay-prev"]');
  const back = await host.textContent('[data-testid="replay-step"]');
  assert.notEqual(back, end, 'stepping back shows the previous move');
  assert.match(back, /^Move \d+ of \d+/);
  await host.waitForSelector('[data-testid="replay"] [data-testid="board"] svg');
  await screenshot(host, 'knights-templar-replay');

  for (const p of [...pages, spectator]) assert.deepEqual(p.errors || [], [], 'no script errors');
  await spectatorContext.close();
  for (const p of pages) await p.context().close();
});
