// Shared helpers of the browser tests: Chromium, players signing in, lobbies, and playing by clicks.

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

export const BASE = process.env.CHAPTERHOUSE_URL || 'http://127.0.0.1:8080';
const SHOTS = process.env.SCREENSHOT_DIR || path.resolve(import.meta.dirname || '.', '../../artifacts/screenshots');

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
      '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}

/** A person in their own browser context, signed in as a guest called `name`. */
export async function guest(browser, name, viewport = { width: 1366, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e));
  // Script errors fail a test; a failed request does not (the replay viewer probes an optional route).
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) page.errors.push(new Error(msg.text()));
  });
  await page.goto(BASE + '/');
  await page.fill('input[name="guest-name"]', name);
  await page.click('[data-testid="guest-submit"]');
  await page.waitForSelector('[data-testid="create-lobby"]');
  return page;
}

/** The host creates a private lobby for `game` and returns the invite link shown on the page. */
export async function createLobby(page, game, { options = {} } = {}) {
  await page.waitForSelector(`[data-testid="game-select"] option[value="${game}"]`, { state: 'attached' });
  await page.selectOption('[data-testid="game-select"]', game);
  for (const [key, value] of Object.entries(options)) {
    const el = page.locator(`[name="opt-${key}"]`);
    if (typeof value === 'boolean') await el.setChecked(value);
    else await el.selectOption(String(value));
  }
  await page.click('[data-testid="create-lobby"] button[type="submit"]');
  await page.waitForSelector('[data-testid="invite-link"]');
  return page.inputValue('[data-testid="invite-link"]');
}

/** A signed-in person opens the invite link, which joins the lobby, and takes the first free seat. */
export async function joinAndSit(page, link) {
  await page.goto(link);
  await page.waitForSelector('[data-testid="seats"]');
  await page.locator('[data-testid="sit"]').first().click();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="seats"] li')].some((li) => li.querySelector('button') && li.textContent.includes('Stand up')));
}

export async function addBots(page, count) {
  for (let i = 0; i < count; i++) {
    const before = await page.locator('[data-testid="add-bot"]').count();
    await page.locator('[data-testid="add-bot"]').first().click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="add-bot"]').length === n - 1, before);
  }
}

/** The host starts; every page given lands on the game table. */
export async function start(host, pages) {
  await host.click('[data-testid="start"]');
  for (const p of pages) await p.waitForSelector('[data-testid="game"][data-version]', { timeout: 15000 });
}

export function version(page) {
  return page.$eval('[data-testid="game"]', (el) => Number(el.dataset.version));
}

/** A small seeded random generator, so that a failing run can be repeated. */
export function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x / 4294967296;
  };
}

/**
 * Plays one move on `page` if it is that seat's turn: prefers a highlighted board element (when
 * `board` is true), else a random button of the legal-action list. Returns whether it moved.
 */
export async function moveOnce(page, random, { board = false } = {}) {
  const ready = await page.$eval('[data-testid="game"]', (el) => el.dataset.myTurn === 'true' && el.dataset.pending !== 'true' && el.dataset.state !== 'over').catch(() => false);
  if (!ready) return false;
  const before = await version(page);
  if (board) {
    const clickable = page.locator('[data-testid="board"] .clickable[data-clickable="1"]');
    const n = await clickable.count();
    if (n > 0) {
      await clickable.nth(Math.floor(random() * n)).click({ timeout: 3000 }).catch(() => {});
      await page.waitForFunction((v) => { const g = document.querySelector('[data-testid="game"]'); return !g || Number(g.dataset.version) > v || g.dataset.pending !== 'true'; }, before, { timeout: 10000 }).catch(() => {});
      return true;
    }
  }
  const buttons = page.locator('[data-testid="legal-actions"] button.action');
  const n = await buttons.count();
  if (!n) return false;
  await buttons.nth(Math.floor(random() * n)).click({ timeout: 3000 }).catch(() => {});
  await page.waitForFunction((v) => { const g = document.querySelector('[data-testid="game"]'); return !g || Number(g.dataset.version) > v || g.dataset.pending !== 'true'; }, before, { timeout: 10000 }).catch(() => {});
  return true;
}

/**
 * Plays on every page until the game is over on all of them (or `maxMs` passes). The pages ask for
 * reduced motion while they play: a piece that slides for 450 ms is not "stable" to Playwright, so
 * every click on it would wait for the slide, and a whole game of that is minutes on a busy
 * machine. The slides themselves are tested in feedback.test.js.
 */
export async function playToEnd(pages, { seed = 1, maxMs = 120000, board = false, onMove } = {}) {
  for (const p of pages) await p.emulateMedia({ reducedMotion: 'reduce' });
  const random = rng(seed);
  const deadline = Date.now() + maxMs;
  let moves = 0;
  for (;;) {
    const states = await Promise.all(pages.map((p) => p.$eval('[data-testid="game"]', (el) => el.dataset.state)));
    if (states.every((s) => s === 'over')) return moves;
    if (Date.now() > deadline) throw new Error(`the game did not end in ${maxMs} ms (${moves} moves played)`);
    let moved = false;
    for (const p of pages) {
      if (await moveOnce(p, random, { board: board && random() < 0.7 })) {
        moved = true;
        moves += 1;
        if (onMove) await onMove(moves);
      }
    }
    if (!moved) await pages[0].waitForTimeout(15);
  }
}

// Run in the page: waits until no piece or card slides (motion.js), a slide begun as another
// ends included.
const UNTIL_STILL = `for (let sliding; (sliding = document.getAnimations().filter((a) => a.id === 'piece-move' && a.playState === 'running')).length;) {
  await Promise.all(sliding.map((a) => a.finished.catch(() => {})));
}`;

/** Waits until no piece or card is sliding, so a picture shows where things are. */
export async function settled(page) {
  await page.evaluate(`(async () => { ${UNTIL_STILL} })()`);
}

/**
 * `measure` (a function of no arguments, run in the page) once nothing slides. The wait and the
 * measure run in one evaluation with no yield between them: with two, a bot's move could arrive in
 * between and start a slide, and a pawn halfway past a place's name "covers" it.
 */
async function atRest(page, measure) {
  return page.evaluate(`(async () => { ${UNTIL_STILL}\n  return (${measure})(); })()`);
}

export async function screenshot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await settled(page);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export const PHONE = { width: 390, height: 844 };

/** The smallest board text a phone may draw, in CSS pixels. */
export const MIN_PHONE_TEXT = 7;

/**
 * How a game page reads on a phone: the sideways overflow of the page (px), and the smallest text of
 * the board as drawn (CSS px, the SVG font size times the scale the board is drawn at).
 */
export async function phoneMetrics(page) {
  return page.evaluate(() => {
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    let smallest = Infinity;
    let smallestText = '';
    for (const svg of document.querySelectorAll('[data-testid="board"] svg')) {
      const box = svg.viewBox.baseVal;
      if (!box || !box.width) continue;
      const rect = svg.getBoundingClientRect();
      // preserveAspectRatio "meet": the smaller of the two scales.
      const scale = Math.min(rect.width / box.width, rect.height / box.height);
      for (const text of svg.querySelectorAll('text')) {
        if (!text.textContent.trim()) continue;
        const size = parseFloat(getComputedStyle(text).fontSize) * scale;
        if (size < smallest) { smallest = size; smallestText = text.textContent; }
      }
    }
    return { overflow, smallest, smallestText };
  });
}

/**
 * The player of `page` opens the same game in a phone-sized browser (in `locale`'s language when
 * given): its metrics and a screenshot.
 */
export async function phoneView(page, name, { locale } = {}) {
  const state = await page.context().storageState();
  const context = await page.context().browser().newContext({ viewport: PHONE, storageState: state, isMobile: true, hasTouch: true, ...(locale ? { locale } : {}) });
  const phone = await context.newPage();
  const errors = [];
  phone.on('pageerror', (e) => errors.push(e));
  try {
    await phone.goto(page.url());
    await phone.waitForSelector('[data-testid="game"][data-version] [data-testid="board"] svg');
    await phone.waitForTimeout(100);
    // Fitted to the screen, the whole board is in view; zoomed, its text is readable.
    const fit = await phone.evaluate(() => Math.max(...[...document.querySelectorAll('[data-testid="board"] svg')].map((s) => s.getBoundingClientRect().right)) - window.innerWidth);
    await screenshot(phone, name);
    await phone.click('[data-testid="zoom"]');
    await phone.waitForTimeout(50);
    const metrics = await phoneMetrics(phone);
    await screenshot(phone, `${name}-zoomed`);
    return { ...metrics, fit, errors };
  } finally {
    await context.close();
  }
}

/** Calls the server's HTTP API as the person signed in on `page`. */
export async function apiCall(page, method, path, body) {
  return page.evaluate(async ([m, p, b]) => {
    const { token } = JSON.parse(localStorage.getItem('chapterhouse.session'));
    const r = await fetch(p, { method: m, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
    const data = await r.json().catch(() => null);
    if (!r.ok) throw new Error(`${m} ${p}: ${r.status} ${JSON.stringify(data)}`);
    return data;
  }, [method, path, body]);
}

/**
 * A game of `game` for `players` seats started at once through the API: the person on `page` in
 * seat 0 and bots in the others. Returns the game's id. Quicker than clicking through a lobby, for
 * tests about the table rather than the lobby.
 */
export async function quickGame(page, game, players, { options = {}, turnSeconds } = {}) {
  const { lobby } = await apiCall(page, 'POST', '/api/lobbies', { game, options, ...(turnSeconds ? { turn_seconds: turnSeconds } : {}) });
  for (let seat = 1; seat < players; seat++) await apiCall(page, 'POST', `/api/lobbies/${lobby.id}/bots`, { seat });
  const started = await apiCall(page, 'POST', `/api/lobbies/${lobby.id}/start`);
  return started.game;
}

/** Opens the table of game `id` on `page` and waits for its board. */
export async function openTable(page, id) {
  await page.goto(`${BASE}/#/game/${id}`);
  await page.waitForSelector('[data-testid="game"][data-version] [data-testid="board"] svg');
}

/**
 * What of the board is drawn outside its SVG's viewBox (and so cut off): one line per element, with
 * its text or tag, how far it sticks out, and where. Empty when nothing is clipped.
 */
export async function boardClipping(page) {
  return atRest(page, () => {
    const out = [];
    for (const svg of document.querySelectorAll('[data-testid="board"] svg')) {
      const vb = svg.viewBox.baseVal;
      if (!vb || !vb.width) continue;
      const toSvg = svg.getScreenCTM().inverse();
      for (const el of svg.querySelectorAll('text, rect, circle, ellipse, path, line, polygon, polyline')) {
        if (el.closest('title') || el.classList.contains('pad') || el.getAttribute('visibility') === 'hidden') continue;
        const b = el.getBBox();
        if (!b.width && !b.height) continue;
        const m = toSvg.multiply(el.getScreenCTM());
        const pts = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
          .map(([x, y]) => new DOMPoint(x, y).matrixTransform(m));
        const minX = Math.min(...pts.map((p) => p.x));
        const maxX = Math.max(...pts.map((p) => p.x));
        const minY = Math.min(...pts.map((p) => p.y));
        const maxY = Math.max(...pts.map((p) => p.y));
        const over = Math.max(vb.x - minX, maxX - (vb.x + vb.width), vb.y - minY, maxY - (vb.y + vb.height));
        if (over > 1) {
          const what = el.tagName === 'text' ? `"${el.textContent}"` : el.tagName;
          out.push(`${what} sticks out by ${over.toFixed(0)} (at ${minX.toFixed(0)},${minY.toFixed(0)}–${maxX.toFixed(0)},${maxY.toFixed(0)} of ${vb.x},${vb.y} ${vb.width}×${vb.height})`);
        }
      }
      // The SVG itself must not be cut by its box (a board wider than the page).
      const box = svg.parentElement.getBoundingClientRect();
      const r = svg.getBoundingClientRect();
      if (r.right > box.right + 1 && getComputedStyle(svg.parentElement).overflowX === 'visible') out.push(`the svg (${r.width.toFixed(0)}px) is wider than its box`);
    }
    return out;
  });
}

/**
 * Board labels that something painted later covers: another label, or a filled shape (a badge
 * laid over a line of a seat's plate, say), overlapping the label's box by more than 1 px each way.
 * SVG paints in document order, so only what comes after a label can hide it.
 */
export async function coveredLabels(page) {
  return atRest(page, () => {
    const out = [];
    const painted = (el) => {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) return false;
      if (el.tagName === 'text') return el.textContent.trim() !== '';
      return style.fill !== 'none' && style.fill !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(style.fill) && Number(style.fillOpacity) > 0;
    };
    for (const svg of document.querySelectorAll('[data-testid="board"] svg')) {
      const items = [...svg.querySelectorAll('text, rect, circle, ellipse, path, polygon')]
        .filter((el) => !el.closest('title') && painted(el))
        .map((el) => ({ el, r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.width && r.height);
      items.forEach(({ el, r }, i) => {
        if (el.tagName !== 'text') return;
        for (const { el: top, r: tr } of items.slice(i + 1)) {
          if (top.contains(el) || el.contains(top)) continue;
          const w = Math.min(r.right, tr.right) - Math.max(r.left, tr.left);
          const h = Math.min(r.bottom, tr.bottom) - Math.max(r.top, tr.top);
          if (w > 1 && h > 1) {
            const what = top.tagName === 'text' ? `"${top.textContent}"` : `a ${top.tagName}`;
            out.push(`"${el.textContent}" is covered by ${what} (${w.toFixed(0)}×${h.toFixed(0)} px)`);
            break;
          }
        }
      });
    }
    return out;
  });
}

/** Board targets smaller than 24×24 CSS px, and targets nested inside other targets. */
export async function targetProblems(page) {
  return page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('[data-testid="board"] .clickable, [data-testid="game"] .chip.clickable')) {
      const r = el.getBoundingClientRect();
      const name = el.getAttribute('aria-label') || el.textContent.slice(0, 30);
      if (r.width < 24 || r.height < 24) out.push(`"${name}" is ${r.width.toFixed(0)}×${r.height.toFixed(0)}px`);
      if (el.parentElement && el.parentElement.closest('.clickable')) out.push(`"${name}" lies inside another target`);
    }
    return out;
  });
}
