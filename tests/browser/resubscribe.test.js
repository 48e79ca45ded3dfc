// A table whose game the server lost: in a cluster, the game's lease moved to another server,
// which could not take this socket over (docs/scaling.md). The server then sends the game's
// followers `server/unavailable` with the game and no `req`, and the table must subscribe again
// by itself rather than wait for patches that no longer come. A single server never loses a
// game this way, so the test hands the page that message as the socket would, and checks what
// the page sends the real server and what it shows.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, guest, quickGame, openTable, moveOnce, rng, version } from './helpers.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a table told that the server lost its game subscribes again, says so, and plays on', async () => {
  const page = await guest(browser, 'Ada');
  const id = await quickGame(page, 'knights-templar', 2);
  await openTable(page, id);
  // Nothing else happens meanwhile: the bot has moved and the game waits for Ada.
  await page.waitForFunction(() => document.querySelector('[data-testid="game"]').dataset.myTurn === 'true', null, { timeout: 20000 });
  // Every message the page sends from now on, as the server receives it.
  await page.evaluate(async () => {
    const { socket } = await import('/js/socket.js');
    window.sentToServer = [];
    const send = socket.ws.send.bind(socket.ws);
    socket.ws.send = (text) => { window.sentToServer.push(JSON.parse(text)); send(text); };
  });
  const subscribes = () => page.evaluate((game) => window.sentToServer.filter((m) => m.type === 'subscribe' && m.game === game).length, id);
  assert.equal(await subscribes(), 0);

  await page.evaluate(async (game) => {
    const { socket } = await import('/js/socket.js');
    const lost = { type: 'error', code: 'server/unavailable', message: 'The server is unavailable; try again.', game };
    for (const listener of [...socket.listeners]) listener(lost);
  }, id);
  // The player is told, and the table asks again (after a second) without being asked to.
  await page.waitForSelector('[data-testid="game"] p.error[role="alert"][data-code="server/unavailable"]', { timeout: 5000 });
  await page.waitForFunction((game) => window.sentToServer.some((m) => m.type === 'subscribe' && m.game === game), id, { timeout: 10000 });
  assert.equal(await subscribes(), 1, 'one subscribe, not a storm');
  // The real server answers it; the notice goes once the table is in step again.
  await page.waitForFunction(() => document.querySelector('[data-testid="game"] p.error[role="alert"]').dataset.code === '', null, { timeout: 10000 });
  // And Ada plays on: her move is answered by a patch on the subscription made again.
  const before = await version(page);
  assert.ok(await moveOnce(page, rng(3)), 'it is still her turn');
  await page.waitForFunction((v) => Number(document.querySelector('[data-testid="game"]').dataset.version) > v, before, { timeout: 10000 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
