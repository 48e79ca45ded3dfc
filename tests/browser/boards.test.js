// Every game at every player count, on a desktop (1366×768) and a phone (390×844): a game started
// with bots, a few moves played, then nothing of the board may be cut off, every board target is at
// least 24×24 px and none lies inside another, no label is drawn over (coveredLabels), and axe-core
// finds no serious or critical problem.
// Screenshots of the smallest and largest table of each game on both sizes land in
// artifacts/screenshots/ (<game>-<n>p-desktop.png, <game>-<n>p-phone.png).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, guest, quickGame, openTable, boardClipping, coveredLabels, targetProblems, moveOnce, rng, screenshot, PHONE } from './helpers.js';
import { axeProblems } from './axe.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

export const GAMES = [
  { id: 'templars-journey', min: 3, max: 5 },
  { id: 'secret-treasures', min: 2, max: 5 },
  { id: 'knights-templar', min: 2, max: 8 },
  { id: 'richard-the-lionheart', min: 2, max: 6 },
];
const DESKTOP = { width: 1366, height: 768 };

/** Plays up to `moves` of this seat's moves from the action list (bots play the others). */
async function playSome(page, moves, seed) {
  const random = rng(seed);
  for (let i = 0, idle = 0; i < moves && idle < 60;) {
    if (await moveOnce(page, random)) { i += 1; idle = 0; } else { idle += 1; await page.waitForTimeout(25); }
    if (await page.$eval('[data-testid="game"]', (el) => el.dataset.state === 'over')) break;
  }
}

async function check(page, what) {
  assert.deepEqual(await boardClipping(page), [], `${what}: nothing of the board is cut off`);
  assert.deepEqual(await targetProblems(page), [], `${what}: board targets are large enough and not nested`);
  assert.deepEqual(await coveredLabels(page), [], `${what}: no label is drawn over`);
}

test('a board measure waits until nothing slides, a slide begun as another ends included', async () => {
  // A bot's move can land just as a slide ends and start the next one; a measure taken then saw a
  // figure halfway between two places, over a place's name. Here a circle rests clear of a label
  // and slides in from over it, twice in a row: measured at rest, nothing covers the label.
  const page = await guest(browser, 'Ada', DESKTOP);
  await page.evaluate(() => {
    const ns = 'http://www.w3.org/2000/svg';
    const board = document.body.appendChild(document.createElement('div'));
    board.dataset.testid = 'board';
    board.style.width = '400px';
    const svg = board.appendChild(document.createElementNS(ns, 'svg'));
    svg.setAttribute('viewBox', '0 0 200 100');
    const text = svg.appendChild(document.createElementNS(ns, 'text'));
    Object.entries({ x: 10, y: 55, 'font-size': 12 }).forEach(([k, v]) => text.setAttribute(k, v));
    text.textContent = 'Sherwood';
    const circle = svg.appendChild(document.createElementNS(ns, 'circle'));
    Object.entries({ cx: 170, cy: 50, r: 10, fill: 'red' }).forEach(([k, v]) => circle.setAttribute(k, v));
    const slide = (ms) => circle.animate([{ transform: 'translate(-140px, 0px)' }, { transform: 'translate(0px, 0px)' }], { duration: ms, id: 'piece-move' });
    // The second slide starts the moment the first is over, before anyone waiting on the first hears of it.
    slide(200).finished.then(() => slide(1500).finished.then(() => { window.slidesOver = true; }));
  });
  assert.deepEqual(await coveredLabels(page), [], 'the label is clear once the circle rests');
  assert.equal(await page.evaluate(() => window.slidesOver === true), true, 'measured after the second slide');
  assert.deepEqual(await boardClipping(page), []);
  // A slide that a later task starts (as a patch from the socket does), just after another ends:
  // the measure must not fall between the wait and that task.
  await page.evaluate(() => {
    const circle = document.querySelector('[data-testid="board"] circle');
    const slide = (ms) => circle.animate([{ transform: 'translate(-140px, 0px)' }, { transform: 'translate(0px, 0px)' }], { duration: ms, id: 'piece-move' });
    slide(200).finished.then(() => setTimeout(() => slide(1500), 0));
  });
  assert.deepEqual(await coveredLabels(page), [], 'measured before the next slide began, not halfway through it');
  await page.context().close();
});

for (const game of GAMES) {
  test(`${game.id}: every player count fits the board on a desktop and a phone`, async () => {
    const page = await guest(browser, 'Ada', DESKTOP);
    const phoneContext = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, storageState: await page.context().storageState() });
    const phone = await phoneContext.newPage();
    for (let n = game.min; n <= game.max; n++) {
      const id = await quickGame(page, game.id, n);
      await openTable(page, id);
      await playSome(page, 6, n);
      await page.waitForTimeout(100);
      await check(page, `${game.id} ${n}p desktop`);
      const edge = n === game.min || n === game.max;
      if (edge) {
        await screenshot(page, `${game.id}-${n}p-desktop`);
        assert.deepEqual(await axeProblems(page), [], `${game.id} ${n}p: axe-core finds no serious or critical violation`);
      }
      await openTable(phone, id);
      await phone.waitForTimeout(100);
      await check(phone, `${game.id} ${n}p phone`);
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${game.id} ${n}p: the phone page does not scroll sideways (${overflow}px)`);
      if (edge) await screenshot(phone, `${game.id}-${n}p-phone`);
    }
    assert.deepEqual(page.errors, [], 'no script errors');
    await phoneContext.close();
    await page.context().close();
  });
}
