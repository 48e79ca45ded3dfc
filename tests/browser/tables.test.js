// What a table teaches and shows, for each of the four games: rules-text tooltips on the board and
// the actions (hover, keyboard focus, long press on a phone), the "now" panel in plain words, the
// rules summary page, a refused click explained, the last move marked, "your turn" in the tab title,
// the log so far of the running game drawn step by step with readable labels and drawn icons, and
// axe-core on the rules page and the replay viewer.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, guest, quickGame, openTable, moveOnce, rng, PHONE, BASE, screenshot } from './helpers.js';
import { axeProblems } from './axe.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const GAMES = ['templars-journey', 'secret-treasures', 'knights-templar', 'richard-the-lionheart'];
const MIN = { 'templars-journey': 3, 'secret-treasures': 2, 'knights-templar': 2, 'richard-the-lionheart': 2 };

/** Waits until it is this seat's turn (bots play the others), or the game is over. */
async function myTurn(page) {
  await page.waitForFunction(() => {
    const g = document.querySelector('[data-testid="game"]');
    return g && (g.dataset.myTurn === 'true' || g.dataset.state === 'over');
  }, null, { timeout: 20000 });
}

for (const game of GAMES) {
  test(`${game}: the table explains itself and shows what happens`, async () => {
    const page = await guest(browser, 'Ada', { width: 1366, height: 768 });
    const id = await quickGame(page, game, MIN[game]);
    await openTable(page, id);
    await myTurn(page);
    await page.waitForSelector('[data-testid="step-help"]', { timeout: 10000 });

    // Tooltips: every termed thing on the board explains itself on hover and on focus.
    const termed = page.locator('[data-testid="board"] [data-term]');
    assert.ok(await termed.count() > 0, 'the board names things from the rules texts');
    const first = termed.first();
    const key = await first.getAttribute('data-term');
    const term = await page.evaluate(async ([g, k]) => (await (await fetch(`/api/catalog/${g}/texts`)).json()).terms[k], [game, key]);
    await first.hover();
    await page.waitForSelector('#tooltip:not([hidden])');
    assert.ok((await page.textContent('#tooltip')).includes(term.name), `hovering ${key} shows "${term.name}"`);
    await page.mouse.move(1, 1);
    await page.locator('[data-testid="legal-actions"] button.action').first().focus();
    const actionKey = await page.locator('[data-testid="legal-actions"] button.action').first().getAttribute('data-term');
    assert.ok(actionKey && actionKey.startsWith('action:'), 'the action buttons carry their rules text');
    if (game === 'knights-templar') {
      // The module labels its options from the view and the rules texts ("Take Myth"); the generic
      // fallback ("Pick — Card: 34") means its labeler failed.
      const labels = await page.locator('[data-testid="legal-actions"] button.action').allTextContents();
      assert.ok(labels.length && labels.every((l) => !/—/.test(l)), `the options name their cards: ${labels.join(' | ')}`);
    }
    await page.waitForFunction(() => !document.getElementById('tooltip').hidden);

    // The "now" panel explains the decision in plain words, from the same texts.
    const help = await page.textContent('[data-testid="step-help"]');
    assert.ok(help.length > 40, `the now panel explains the step: "${help}"`);
    assert.doesNotMatch(await page.textContent('.turn-panel'), /\b[a-z]+_[a-z_]+\b/, 'no engine identifiers in the now panel');
    assert.match(await page.title(), /Your turn/, 'the tab title says it is your turn');

    // A click on the board that is not an option says why nothing happens.
    const dead = page.locator('[data-testid="board"] [data-term]:not(.clickable)');
    if (await dead.count()) {
      await dead.first().click({ force: true });
      assert.match(await page.textContent('[role="alert"]'), /not one of your options|not your turn|Nothing can be done/);
    }

    // Within a few moves, what a move changed is marked on the board (hidden choices change nothing
    // visible, so the first moves may mark nothing).
    const random = rng(7);
    let marked = 0;
    for (let i = 0; i < 10 && !marked; i++) {
      await myTurn(page);
      const v = Number(await page.getAttribute('[data-testid="game"]', 'data-version'));
      await moveOnce(page, random);
      await page.waitForFunction((x) => Number(document.querySelector('[data-testid="game"]').dataset.version) > x, v);
      marked = await page.locator('[data-testid="board"] .changed').count();
    }
    assert.ok(marked > 0, 'the last move is marked on the board');
    // Motion follows the player's wish: the highlights pulse and flash, unless reduced motion is asked for.
    await myTurn(page);
    const moving = () => page.$$eval('[data-testid="board"] *', (els) => els.filter((el) => getComputedStyle(el).animationName !== 'none').length);
    const animated = await moving();
    // Knights Templar and Templars' Journey always offer board targets on this seat's turn.
    if (game === 'knights-templar' || game === 'templars-journey') assert.ok(animated > 0, 'targets pulse');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    assert.equal(await moving(), 0, `nothing moves under prefers-reduced-motion (${animated} did before)`);
    await page.emulateMedia({ reducedMotion: 'no-preference' });

    // The rules summary page, reachable from the table.
    const href = await page.getAttribute('[data-testid="rules-link"]', 'href');
    const rules = await page.context().newPage();
    await rules.goto(`${BASE}/${href}`);
    await rules.waitForSelector('[data-testid="rules"] .rules-section');
    assert.ok(await rules.locator('.rules-section').count() >= 7, 'summary sections and the glossary');
    assert.deepEqual(await axeProblems(rules), [], 'axe-core: the rules page');
    await rules.close();

    // "Log so far": the running game's moves, readable, with the board at each step.
    await page.click('text=Log so far');
    await page.waitForSelector('[data-testid="replay-list"] li');
    await page.click('[data-testid="replay-first"]');
    await page.click('[data-testid="replay-next"]');
    await page.waitForSelector('[data-testid="board"] svg');
    const note = await page.textContent('[data-testid="replay"]');
    assert.doesNotMatch(note, /sends no position per step/, 'the server sends the position of every step');
    const moves = await page.textContent('[data-testid="replay-list"]');
    assert.doesNotMatch(moves, /Card: \d|—\s*\w+: \w+_/, 'move labels are written out');
    for (const b of ['replay-first', 'replay-prev', 'replay-play', 'replay-next', 'replay-last']) {
      assert.equal(await page.locator(`[data-testid="${b}"] svg`).count(), 1, `${b} draws an SVG icon`);
    }
    assert.deepEqual(await axeProblems(page), [], 'axe-core: the replay viewer');
    assert.deepEqual(page.errors, [], 'no script errors');
    await page.context().close();
  });
}

test('a long press on a phone shows a rules tooltip without acting', async () => {
  const desk = await guest(browser, 'Pia');
  const id = await quickGame(desk, 'knights-templar', 2);
  const phoneContext = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, storageState: await desk.context().storageState() });
  const phone = await phoneContext.newPage();
  await openTable(phone, id);
  await myTurn(phone);
  const card = phone.locator('[data-testid="board"] .clickable[data-term]').first();
  const version = await phone.getAttribute('[data-testid="game"]', 'data-version');
  const box = await card.boundingBox();
  const cdp = await phoneContext.newCDPSession(phone);
  const point = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await phone.waitForTimeout(700);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await phone.waitForSelector('#tooltip:not([hidden])');
  await phone.waitForTimeout(300);
  assert.equal(await phone.getAttribute('[data-testid="game"]', 'data-version'), version, 'the long press did not play the card');
  await screenshot(phone, 'knights-templar-phone-tooltip');
  await phoneContext.close();
  await desk.context().close();
});

test('axe-core finds no serious or critical violation on the sign-in, home and lobby screens', async () => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  await page.goto(`${BASE}/`);
  await page.waitForSelector('input[name="guest-name"]');
  assert.deepEqual(await axeProblems(page), [], 'sign-in');
  await page.fill('input[name="guest-name"]', 'Ida');
  await page.click('[data-testid="guest-submit"]');
  await page.waitForSelector('[data-testid="create-lobby"] option', { state: 'attached' });
  assert.deepEqual(await axeProblems(page), [], 'home');
  await page.click('[data-testid="create-lobby"] button[type="submit"]');
  await page.waitForSelector('[data-testid="invite-link"]');
  assert.deepEqual(await axeProblems(page), [], 'lobby');
  // Only the status line and the log are live regions: the page as a whole is not announced.
  assert.equal(await page.locator('[aria-live]:not([role="status"]):not([role="log"]):not([role="alert"])').count(), 0, 'no other live regions');
  await context.close();
});

test('with a turn clock the table counts down and marks the move the clock made, in the log and the replay', async () => {
  const page = await guest(browser, 'Tim');
  const id = await quickGame(page, 'knights-templar', 2, { turnSeconds: 10 });
  await openTable(page, id);
  await myTurn(page);
  const left = await page.waitForSelector('[data-testid="clock"]:not([hidden]) [data-testid="clock-left"]');
  assert.match(await left.textContent(), /^0:0[0-2]$/, 'the seat to move sees its time left');
  // Ada does not move: the clock plays for her, and the log says so.
  await page.waitForSelector('[data-testid="log"] [data-testid="by-clock"]', { timeout: 10000 });
  await page.click('text=Log so far');
  await page.waitForSelector('[data-testid="replay-list"] [data-testid="by-clock"]');
  await screenshot(page, 'knights-templar-clock-replay');
  assert.deepEqual(page.errors, [], 'no script errors');
  await page.context().close();
});
