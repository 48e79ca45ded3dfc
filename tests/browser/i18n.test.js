// The web client in German: Chromium with a German locale gets every screen in German (sign-in, home,
// lobby, each game's table, a result, the replay, the rules pages), with no English interface text
// left visible; the language switch of the top bar changes the page at once and is remembered.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE, quickGame, openTable, playToEnd, coveredLabels, screenshot, phoneView, MIN_PHONE_TEXT } from './helpers.js';
import { axeProblems } from './axe.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const GAMES = ['templars-journey', 'secret-treasures', 'knights-templar', 'richard-the-lionheart'];
const MIN = { 'templars-journey': 3, 'secret-treasures': 2, 'knights-templar': 2, 'richard-the-lionheart': 2 };

async function germanPage() {
  const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e));
  return page;
}

/**
 * The visible text nodes (HTML and SVG) of the page that are English: equal to an English catalog
 * text that differs from its German one, or matching such a text with placeholders (`Seat {n}`).
 * The catalogs are the interface's (`lang/en`, `lang/de`) and, on a table or rules page, the game's
 * rules texts (names, step titles, action names).
 */
async function englishLeft(page, game) {
  return page.evaluate(async (g) => {
    const en = (await import('/js/lang/en/index.js')).default;
    const de = (await import('/js/lang/de/index.js')).default;
    const pairs = Object.keys(en).map((k) => [en[k], de[k]]);
    if (g) {
      const load = async (l) => (await fetch(`/api/catalog/${g}/texts?lang=${l}`)).json();
      const [te, td] = await Promise.all([load('en'), load('de')]);
      for (const [k, v] of Object.entries(te.terms)) pairs.push([v.name, td.terms[k] && td.terms[k].name]);
      for (const [k, v] of Object.entries(te.steps)) pairs.push([v.title, td.steps[k] && td.steps[k].title]);
      for (const [k, v] of Object.entries(te.actions)) pairs.push([v.name, td.actions[k] && td.actions[k].name]);
    }
    const germanWords = new Set(pairs.map(([, d]) => d));
    const exact = new Set();
    const patterns = [];
    for (const [e, d] of pairs) {
      if (!e || e === d || germanWords.has(e)) continue;
      if (!e.includes('{')) { exact.add(e.trim()); continue; }
      // A template counts when enough of it is words, not placeholders.
      if (e.replace(/\{\w+\}/g, '').replace(/[^A-Za-z]/g, '').length < 4) continue;
      const rx = e.trim().replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '.+');
      patterns.push(new RegExp(`^${rx}$`));
    }
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.replace(/\s+/g, ' ').trim();
      if (!text || !n.parentElement) continue;
      const el = n.parentElement;
      if (el.closest('[hidden], noscript, script, style, title, option:not(:checked)')) continue;
      const r = el.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      if (getComputedStyle(el).visibility === 'hidden') continue;
      if (exact.has(text) || patterns.some((p) => p.test(text))) found.push(text);
    }
    return [...new Set(found)];
  }, game || null);
}

async function signInGerman(page, name) {
  await page.goto(`${BASE}/`);
  await page.waitForSelector('[data-testid="guest-submit"]');
  await page.fill('input[name="guest-name"]', name);
  await page.click('[data-testid="guest-submit"]');
  await page.waitForSelector('[data-testid="create-lobby"]');
}

test('in a German browser every screen is German, and the language switch is remembered', async () => {
  const page = await germanPage();
  await page.goto(`${BASE}/`);
  await page.waitForSelector('[data-testid="guest-submit"]');
  assert.equal(await page.getAttribute('html', 'lang'), 'de', 'the language follows navigator.languages');
  assert.equal(await page.textContent('[data-testid="guest-submit"]'), 'Als Gast spielen');
  assert.deepEqual(await englishLeft(page), [], 'sign-in');
  assert.deepEqual(await axeProblems(page), [], 'axe-core: the German sign-in (with the language switch)');

  await signInGerman(page, 'Ada');
  await page.waitForSelector('[data-testid="game-select"] option[value="secret-treasures"]', { state: 'attached' });
  await page.selectOption('[data-testid="game-select"]', 'secret-treasures');
  assert.deepEqual(await englishLeft(page), [], 'home, with the options of a game');

  // A lobby, as its host.
  await page.click('[data-testid="create-lobby"] button[type="submit"]');
  await page.waitForSelector('[data-testid="seats"]');
  await page.waitForSelector('[data-testid="lobby-options"] h2');
  assert.deepEqual(await englishLeft(page), [], 'lobby');

  // Each game's table at its smallest player count, with its rules texts in German.
  for (const game of GAMES) {
    const id = await quickGame(page, game, MIN[game]);
    await openTable(page, id);
    await page.waitForSelector('.turn-panel h2');
    // The German rules texts are in: the rules-text name of some board element is the German one.
    await page.waitForFunction(() => document.querySelector('[data-testid="board"] [data-term]'));
    const key = await page.getAttribute('[data-testid="board"] [data-term]', 'data-term');
    const de = await page.evaluate(async ([g, k]) => (await (await fetch(`/api/catalog/${g}/texts?lang=de`)).json()).terms[k].name, [game, key]);
    await page.hover(`[data-testid="board"] [data-term="${key}"]`);
    await page.waitForFunction((name) => { const t = document.getElementById('tooltip'); return t && !t.hidden && t.textContent.includes(name); }, de);
    await page.mouse.move(1, 1);
    assert.deepEqual(await englishLeft(page, game), [], `${game}: the table`);
    if (game === 'knights-templar') assert.deepEqual(await axeProblems(page), [], 'axe-core: a German table');
    // German words are longer: no label of any game's table runs under something drawn after it
    // (a card's type or name under the next card, say).
    assert.deepEqual(await coveredLabels(page), [], `${game}: no label of the German table is drawn over`);
    // The log lines are worded by the client from the events' data: none is the server's English sentence.
    await page.waitForSelector('[data-testid="log"] li');
    const english = await page.evaluate(async (g) => {
      const log = await (await fetch(`/api/games/${g}/log`, { headers: { Authorization: `Bearer ${JSON.parse(localStorage.getItem('chapterhouse.session')).token}` } })).json();
      const server = new Set([...(log.setup_events || []), ...(log.actions || []).flatMap((a) => a.events || [])].map((e) => e.text));
      return [...document.querySelectorAll('[data-testid="log"] li')].map((li) => li.firstChild.textContent).filter((text) => server.has(text));
    }, id);
    assert.deepEqual(english, [], `${game}: the log is German`);
    // The rules page of the game.
    await page.goto(`${BASE}/#/rules/${game}`);
    await page.waitForSelector('[data-testid="rules"] h1');
    await page.waitForSelector('.rules-section');
    assert.match(await page.textContent('[data-testid="rules"] h1'), /die Regeln in Kürze/);
    assert.deepEqual(await englishLeft(page, game), [], `${game}: the rules page`);
  }

  // A finished game: its result, and its replay.
  const id = await quickGame(page, 'knights-templar', 2);
  await openTable(page, id);
  // Every few moves the German board is looked at again: which labels are drawn depends on the
  // position (a seat that has picked, a tableau in front of a plate's longest line).
  const covered = [];
  let phone = null;
  await playToEnd([page], {
    seed: 11,
    maxMs: 150000,
    onMove: async (n) => {
      if (n % 3 === 0) covered.push(...(await coveredLabels(page)).map((c) => `move ${n}: ${c}`));
      if (n === 9) {
        await screenshot(page, 'knights-templar-de-desktop');
        phone = await phoneView(page, 'knights-templar-de-phone', { locale: 'de-DE' });
      }
    },
  });
  assert.deepEqual(covered, [], 'no label of the German board is drawn over during the game');
  assert.ok(phone, 'the German table was opened on a phone');
  assert.ok(phone.overflow <= 1, `the German phone page does not scroll sideways (${phone.overflow}px)`);
  assert.ok(phone.smallest >= MIN_PHONE_TEXT,
    `the German board's text is readable on a phone: "${phone.smallestText}" is drawn at ${phone.smallest.toFixed(1)}px`);
  assert.deepEqual(phone.errors, [], 'no script errors on the German phone');
  await page.waitForSelector('[data-testid="result"] [data-testid="breakdown"]');
  assert.match(await page.textContent('[data-testid="status"]'), /Spielende/);
  assert.deepEqual(await englishLeft(page, 'knights-templar'), [], 'the result');
  assert.deepEqual(await coveredLabels(page), [], 'no label of the German final board is drawn over');
  // Knights Templar's log lines are worded by the client from the events' data, in German.
  const lines = await page.$$eval('[data-testid="log"] li', (lis) => lis.map((li) => li.textContent));
  assert.ok(lines.length > 5, `the log has lines (${lines.length})`);
  const english = lines.filter((l) => /\b(took|drew|played|becomes|remains|chose|picks next|the game ends)\b/.test(l));
  assert.deepEqual(english, [], 'no English log line');
  assert.ok(lines.some((l) => /\bnahm\b/.test(l)), `a German log line: ${lines.slice(-3).join(' | ')}`);
  await page.goto(`${BASE}/#/replay/${id}`);
  await page.waitForSelector('[data-testid="replay-list"] li');
  await page.click('[data-testid="replay-first"]');
  await page.click('[data-testid="replay-next"]');
  await page.waitForFunction(() => /^Zug 1 von/.test(document.querySelector('[data-testid="replay-step"]').textContent));
  assert.deepEqual(await englishLeft(page, 'knights-templar'), [], 'the replay');

  // Home again, now with games in the list (dates formatted the German way).
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('[data-testid="my-games"] [data-game]');
  const date = await page.textContent('[data-testid="my-games"] [data-testid="game-date"]');
  assert.match(date, /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/, `a German date: ${date}`);
  assert.deepEqual(await englishLeft(page), [], 'home with games');

  // The switch: English at once, on this screen; remembered over a reload; and back.
  await page.click('[data-testid="lang-en"]');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await page.waitForSelector('text=Host a game');
  assert.equal(await page.getAttribute('[data-testid="lang-en"]', 'aria-pressed'), 'true');
  await page.reload();
  await page.waitForSelector('[data-testid="create-lobby"]');
  assert.equal(await page.getAttribute('html', 'lang'), 'en', 'remembered over a reload, whatever the browser says');
  assert.ok((await page.textContent('[data-testid="create-lobby"] h2')) === 'Host a game');
  await page.click('[data-testid="lang-de"]');
  await page.waitForSelector('text=Ein Spiel ausrichten');
  assert.deepEqual(await englishLeft(page), [], 'switched back to German');
  assert.deepEqual(page.errors, [], 'no script errors');
  await page.context().close();
});

test('switching the language on a table re-renders it in the other language and keeps the game', async () => {
  const page = await germanPage();
  await signInGerman(page, 'Bea');
  const id = await quickGame(page, 'richard-the-lionheart', 2);
  await openTable(page, id);
  await page.waitForSelector('.turn-panel h2');
  assert.equal(await page.textContent('.turn-panel h2'), 'Jetzt');
  const version = await page.getAttribute('[data-testid="game"]', 'data-version');
  await page.click('[data-testid="lang-en"]');
  await page.waitForFunction(() => document.querySelector('.turn-panel h2')?.textContent === 'Now');
  assert.equal(await page.getAttribute('[data-testid="game"]', 'data-version') >= version, true, 'the same game, not a new one');
  assert.equal(page.url().includes(`#/game/${id}`), true);
  // The game's rules texts follow: the English catalog's name of a board element is shown on hover.
  const key = await page.getAttribute('[data-testid="board"] [data-term]', 'data-term');
  const en = await page.evaluate(async (k) => (await (await fetch('/api/catalog/richard-the-lionheart/texts?lang=en')).json()).terms[k].name, key);
  await page.hover(`[data-testid="board"] [data-term="${key}"]`);
  await page.waitForFunction((name) => { const t = document.getElementById('tooltip'); return t && !t.hidden && t.textContent.includes(name); }, en);
  assert.deepEqual(page.errors, [], 'no script errors');
  await page.context().close();
});

