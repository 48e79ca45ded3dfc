// Templar: The Secret Treasures: the abbey's 13 rooms with the door, the characters and the stashed
// valuables; the harbor's storehouses and the bag; each player's stock, reserve and score.

import { h, s, seatDot, titleCase, SEAT_LETTERS, seatInk, listText } from '../dom.js';
import { svgPanel, boardPanels, label, seatMark } from './svg.js';
import { logLine, sortedEntries } from './common.js';
import { t, formatNumber } from '../i18n.js';

const PASSAGES = [[1, 2], [1, 3], [1, 11], [2, 4], [2, 10], [3, 5], [4, 6], [4, 13], [5, 6], [6, 7], [7, 8], [8, 13], [9, 10], [9, 12], [9, 13], [10, 11], [12, 13]];
// Room → [column, row] of the schematic abbey.
const GRID = { 1: [2, 3], 2: [2, 2], 3: [1, 3], 4: [1, 2], 5: [0, 3], 6: [0, 2], 7: [0, 1], 8: [1, 1], 9: [3, 1], 10: [3, 2], 11: [3, 3], 12: [2, 0], 13: [2, 1] };
const RW = 150;
const RH = 122;
const GAP = 34;
const X0 = 16;
const Y0 = 16;
const CARD_NAMES = { anselmus: 'Anselmus', josua: 'Josua', lucas: 'Lucas', benjamin: 'Benjamin', maria: 'Maria', stephanus: 'Stephanus', porticus: 'Porticus', remigius: 'Remigius', severus: 'Severus', bells: 'Bells' };
/** A valuable's kind in words ("chalice", "X"), for stock and reserve lines. */
const kindWord = (k) => t(`st.kind.${k}`);
const KIND_COLOR = { chalice: '#d4a017', book: '#7b4a1e', x: '#555', y: '#555', z: '#555' };

/** A score category's name ("chalices"): `st.score.<key>`, else the key written out. */
function scoreWord(key) {
  const text = t(`st.score.${key}`);
  return text === `st.score.${key}` ? titleCase(key) : text;
}

function roomBox(room) {
  const [col, row] = GRID[room];
  return { x: X0 + col * (RW + GAP), y: Y0 + row * (RH + GAP) };
}
function centre(room) {
  const { x, y } = roomBox(room);
  return [x + RW / 2, y + RH / 2];
}

/** A valuable: chalice, book or ring, in its owner's colour; an empty hiding place is dashed. */
function piece(x, y, space, c, kind) {
  if (!space) {
    return s('circle', { cx: x, cy: y, r: 7, fill: 'none', stroke: '#a99', 'stroke-dasharray': '2 2' });
  }
  const color = c.color(space.owner);
  const k = space.kind || kind;
  const g = s('g', { opacity: space.scored ? 0.55 : 1 });
  if (k === 'chalice') g.append(s('path', { d: `M${x - 6},${y - 7} h12 q0,8 -5,9 v4 h4 v2 h-10 v-2 h4 v-4 q-5,-1 -5,-9z`, fill: color, stroke: '#222', 'stroke-width': 0.8 }));
  else if (k === 'book') g.append(s('rect', { x: x - 6, y: y - 7, width: 12, height: 14, fill: color, stroke: '#222', 'stroke-width': 0.8 }), s('line', { x1: x - 3, y1: y - 7, x2: x - 3, y2: y + 7, stroke: '#222' }));
  else g.append(s('circle', { cx: x, cy: y, r: 7, fill: 'white', stroke: color, 'stroke-width': 4 }), s('text', { x, y: y + 1, 'font-size': 9, 'text-anchor': 'middle', 'dominant-baseline': 'middle', 'font-weight': 'bold' }, k.toUpperCase()));
  return g;
}

function figure(x, y, letter, fill, title, ink = 'white') {
  return s('g', { role: 'img', 'aria-label': title }, s('circle', { cx: x, cy: y, r: 11, fill, stroke: '#222', 'stroke-width': 1.2 }),
    s('text', { x, y: y + 1, 'font-size': 11, 'text-anchor': 'middle', 'dominant-baseline': 'middle', fill: ink, 'font-weight': 'bold' }, letter));
}

function myRoom(view, c) {
  const me = view.seats.find((p) => c.mine(p.seat));
  return me && me.token && me.token.room;
}

// How each field of an event is written in a log line (see logLine in common.js).
const LOG_SPEC = {
  seat: 'seat', owner: 'seat', winners: 'seats', figure: 'character', card: 'character', single: 'kind', ring: 'kind',
  kind: 'kind', tile: 'kind', tiles: ['kind'], received: ['kind'], portal: 'portal', trigger: 'trigger',
};

function logKey(e) {
  if (e.type === 'stashed') return e.area === null || e.area === undefined ? 'stashed' : 'stashed_area';
  if (e.type === 'scored') return `scored_${e.source}`;
  if (e.type === 'end_triggered') return `end_triggered_${e.trigger}`;
  return e.type;
}

export default {
  /** A log line in the interface's language from the event's data; null for one it cannot word. */
  logText(e, c) {
    if (!e || typeof e.type !== 'string') return null;
    const extra = {};
    if (e.type === 'cards_revealed') extra.cards = (e.cards || []).map(([seat, card]) => `${c.name(seat)} ${c.tname('character', card, card)}`).join(', ');
    if (e.type === 'door_moved') Object.assign(extra, { from: (e.from || []).join('–'), to: (e.to || []).join('–') });
    if (e.type === 'game_over') extra.winners = listText((e.winners || []).map((s) => c.name(s)));
    return logLine('st', logKey(e), e, c, LOG_SPEC, extra);
  },

  /** The decision now, as the rules texts name it. */
  steps(view) {
    const ph = view.phase || {};
    return [ph.step, ph.phase];
  },

  label(action, view, c) {
    if (action === 'stop') return t('st.a.stop');
    if (action === 'stash_chalice') return t('st.a.stash_chalice');
    if (action === 'stash_book') return t('st.a.stash_book');
    if (typeof action !== 'object') return null;
    if ('room' in action) return t('st.room', { n: action.room });
    if ('single' in action) return t('st.a.single', { ring: action.single.toUpperCase() });
    if ('card' in action) return t('st.a.card', { name: c.tname('character', action.card, CARD_NAMES[action.card] || action.card) });
    if ('portal' in action) return t(action.portal === 'main' ? 'st.a.portal_main' : 'st.a.portal_side');
    if ('stash_ring' in action) return t('st.a.stash_ring', { ring: action.stash_ring.ring.toUpperCase(), area: action.stash_ring.area });
    if ('pickup' in action) return t('st.a.pickup', { name: c.name(action.pickup.owner), ring: action.pickup.ring.toUpperCase(), area: action.pickup.area });
    if ('stash' in action) return t('st.a.stash', { area: action.stash.area });
    if ('storehouse' in action) return t('st.storehouse', { n: action.storehouse });
    if ('passage' in action) return t('st.a.passage', { passage: action.passage.join('–') });
    return null;
  },

  board(view, c) {
    // Two panels: the abbey (left) and the harbor (right); stacked on a phone.
    const AW = 760;
    const H = 4 * RH + 3 * GAP + 2 * Y0 + 30;
    const out = [s('rect', { x: 0, y: 0, width: AW, height: H, fill: '#cdbf9f', rx: 10 })];
    // Passages, with the door on one of them.
    for (const [a, b] of PASSAGES) {
      const [x1, y1] = centre(a);
      const [x2, y2] = centre(b);
      const door = view.door && view.door[0] === a && view.door[1] === b;
      const g = s('g', { dataset: { passage: `${a}-${b}` } },
        s('line', { class: 'hit', x1, y1, x2, y2, stroke: door ? '#5a2d0c' : '#efe4cc', 'stroke-width': door ? 16 : 12, 'stroke-linecap': 'round' }));
      if (door) g.append(s('rect', { x: (x1 + x2) / 2 - 12, y: (y1 + y2) / 2 - 12, width: 24, height: 24, rx: 3, fill: '#8b4513', stroke: '#2b1a0c', 'stroke-width': 2 }), label((x1 + x2) / 2, (y1 + y2) / 2 + 1, t('st.door'), { 'text-anchor': 'middle', 'font-size': 9, fill: 'white' }));
      out.push(c.bind(g, (act) => act && act.passage && act.passage[0] === a && act.passage[1] === b));
    }
    const here = myRoom(view, c);
    for (const room of view.rooms) {
      const { x, y } = roomBox(room.room);
      const g = s('g', { dataset: { room: room.room } },
        s('rect', { class: 'hit', x, y, width: RW, height: RH, rx: 6, fill: room.church ? '#e8dcf0' : '#f7f0df', stroke: '#5a4a3a', 'stroke-width': 2 }),
        label(x + 8, y + 13, `${room.room}${room.church ? ' ✝' : ''}`, { 'font-weight': 'bold', 'font-size': 14 }));
      room.chalices.forEach((sp, i) => g.append(sp ? c.term(s('g', {}, piece(x + 40 + i * 18, y + 13, sp, c, 'chalice')), 'kind', 'chalice') : piece(x + 40 + i * 18, y + 13, sp, c, 'chalice')));
      room.books.forEach((sp, i) => g.append(sp ? c.term(s('g', {}, piece(x + 40 + (room.chalices.length + i) * 18, y + 13, sp, c, 'book')), 'kind', 'book') : piece(x + 40 + (room.chalices.length + i) * 18, y + 13, sp, c, 'book')));
      room.areas.forEach((area, ai) => {
        const ay = y + 34 + ai * 22;
        const ag = s('g', { dataset: { area: ai + 1 } },
          s('rect', { class: 'hit', x: x + 6, y: ay - 9, width: RW - 12, height: 18, rx: 4, fill: '#efe6d2', stroke: '#b7a78a' }),
          label(x + 10, ay, `a${ai + 1}`, { 'font-size': 9, fill: '#7a6a58' }));
        area.forEach((sp, si) => {
          const p = sp && sp.kind ? c.term(s('g', { dataset: { ring: `${room.room}-${ai}-${si}` } }, piece(x + 34 + si * 18, ay, sp, c)), 'ring', sp.kind) : piece(x + 34 + si * 18, ay, sp, c);
          if (sp) ag.append(c.bind(s('g', {}, p), (act) => act && act.pickup && act.pickup.owner === sp.owner && act.pickup.area === ai + 1 && act.pickup.ring === sp.kind && room.room === here));
          else ag.append(p);
        });
        g.append(room.room === here ? c.bind(ag, (act) => act && ((act.stash_ring && act.stash_ring.area === ai + 1) || (act.stash && act.stash.area === ai + 1))) : ag);
      });
      // Who is here: monks (players' tokens) and the characters.
      const figures = [];
      view.seats.forEach((p) => { if (p.token && p.token.room === room.room) figures.push([SEAT_LETTERS[p.seat], c.color(p.seat), t('st.monk', { name: c.name(p.seat) }), null, seatInk(p.seat)]); });
      if (view.remigius === room.room) figures.push(['R', '#2c5f2d', 'Remigius', 'remigius']);
      if (view.severus === room.room) figures.push(['S', '#6b1d1d', 'Severus', 'severus']);
      if (view.vitus && view.vitus.room === room.room) figures.push(['V', '#1d3d6b', 'Vitus', 'vitus']);
      figures.forEach(([letter, fill, title, key, ink], i) => {
        const fig = key ? c.term(figure(x + 18 + i * 24, y + RH - 16, letter, fill, title), 'character', key) : figure(x + 18 + i * 24, y + RH - 16, letter, fill, title, ink);
        // Monks and characters move from room to room: animated (motion.js).
        fig.dataset.piece = key || `monk-${letter}`;
        g.append(fig);
      });
      out.push(c.bind(c.term(g, 'room', room.room), (act) => act && act.room === room.room, t('st.room', { n: room.room })));
    }
    // Portals.
    const [mx, my] = centre(1);
    const main = s('g', { dataset: { portal: 'main' } },
      s('rect', { class: 'hit', x: mx - 40, y: my + RH / 2 + 4, width: 80, height: 22, rx: 4, fill: '#8b4513' }),
      label(mx, my + RH / 2 + 15, t('st.main_portal'), { 'text-anchor': 'middle', fill: 'white', 'font-size': 11 }));
    const atMain = view.seats.filter((p) => p.token && p.token.portal === 'main');
    atMain.forEach((p, i) => main.append(s('circle', { cx: mx + 50 + i * 16, cy: my + RH / 2 + 15, r: 7, fill: c.color(p.seat), stroke: '#222' }), seatMark(mx + 50 + i * 16, my + RH / 2 + 15, 3.5, p.seat)));
    if (view.vitus && view.vitus.portal) main.append(figure(mx - 56, my + RH / 2 + 15, 'V', '#1d3d6b', 'Vitus'));
    out.push(c.bind(c.term(main, 'portal', 'main'), (act) => act && act.portal === 'main'));
    const [sx, sy] = centre(9);
    out.push(c.bind(s('g', { dataset: { portal: 'side' } },
      s('rect', { class: 'hit', x: sx + RW / 2 + 4, y: sy - 30, width: 22, height: 60, rx: 4, fill: '#8b4513' }),
      s('text', { x: sx + RW / 2 + 15, y: sy, 'font-size': 10, fill: 'white', 'text-anchor': 'middle', transform: `rotate(90 ${sx + RW / 2 + 15} ${sy})` }, t('st.side_portal'))),
    (act) => act && act.portal === 'side'));
    c.term(out[out.length - 1], 'portal', 'side');
    out.push(label(16, H - 12, t('st.round', { n: view.round, name: c.name(view.start_player) }), { 'font-size': 12 }));
    // The harbor: storehouses, the bag, what is out of the game.
    const hx = 776;
    const HW = 276;
    const harbor = [];
    harbor.push(label(hx + 4, 26, t('st.harbor', { n: formatNumber(view.bag) }), { 'font-weight': 'bold', 'font-size': 14 }));
    view.storehouses.forEach((st, i) => {
      const y = 40 + i * 62;
      const g = s('g', { dataset: { storehouse: st.number } },
        s('rect', { class: 'hit', x: hx + 4, y, width: 260, height: 54, rx: 5, fill: '#f6efe2', stroke: '#5a4a3a' }),
        label(hx + 12, y + 14, `${st.number === 1 ? `(${t('st.ship')}) ` : ''}${t('st.storehouse', { n: st.number })} (${st.tiles.length}/${st.capacity})`, { 'font-size': 11, 'font-weight': 'bold' }));
      st.tiles.forEach((tile, k) => g.append(s('rect', { x: hx + 12 + k * 30, y: y + 24, width: 26, height: 24, rx: 3, fill: tile === 'chalice' ? '#f3d98b' : tile === 'book' ? '#c9a27a' : '#ddd', stroke: '#555' }),
        label(hx + 25 + k * 30, y + 36, tile === 'chalice' || tile === 'book' ? t(`st.tile.${tile}`) : tile.toUpperCase(), { 'text-anchor': 'middle', 'font-size': 11, 'font-weight': 'bold' })));
      view.seats.forEach((p, k) => { if (p.token && p.token.storehouse === st.number) g.append(s('circle', { cx: hx + 250 - k * 16, cy: y + 14, r: 7, fill: c.color(p.seat), stroke: '#222' }), seatMark(hx + 250 - k * 16, y + 14, 3.5, p.seat)); });
      harbor.push(c.bind(c.term(g, 'storehouse', st.number), (act) => act && act.storehouse === st.number));
    });
    const ry = 40 + view.storehouses.length * 62 + 8;
    const removed = sortedEntries(view.removed).map(([k, n]) => `${kindWord(k)} ${n}`).join(', ');
    harbor.push(label(hx + 4, ry, t('st.out_of_game'), { 'font-size': 11 }), label(hx + 4, ry + 16, removed || t('st.nothing'), { 'font-size': 11 }));
    let hy = ry + 16;
    if (view.raphael) {
      hy += 20;
      harbor.push(label(hx + 4, hy, t('st.raphael', { n: view.raphael.deck_size, top: view.raphael.top || '—' }), { 'font-size': 11 }));
    }
    if (view.final_turns_left !== null && view.final_turns_left !== undefined) {
      hy += 20;
      harbor.push(label(hx + 4, hy, t('st.final_turns', { n: view.final_turns_left }), { 'font-size': 12, fill: '#8b1e1e', 'font-weight': 'bold' }));
    }
    const HH = hy + 20;
    harbor.unshift(s('rect', { x: hx - 8, y: 8, width: HW + 8, height: HH - 16, rx: 8, fill: '#a9cbe0', stroke: '#5a7a90' }));
    return boardPanels(
      { name: 'abbey', svg: svgPanel(0, 0, AW, H, ...out), width: AW, phoneMin: 660 },
      { name: 'harbor', svg: svgPanel(hx - 10, 0, HW + 12, HH, ...harbor), width: HW + 12 },
    );
  },

  turn(view, c) {
    const ph = view.phase;
    const stepTitle = (c.texts.step(ph.step) || c.texts.step(ph.phase) || {}).title;
    const step = stepTitle || String(ph.step).replace(/_/g, ' ');
    const phaseName = (c.texts.step(ph.phase) || {}).title || titleCase(ph.phase);
    let text = ph.phase === 'turn'
      ? (ph.card ? t('st.now.turn_with', { name: c.name(ph.seat), card: c.tname('character', ph.card, CARD_NAMES[ph.card] || ph.card), step }) : t('st.now.turn', { name: c.name(ph.seat), step }))
      : phaseName + (ph.seat !== undefined ? ` — ${c.name(ph.seat)}` : '');
    if (ph.phase === 'first_round') text = t('st.now.first_round');
    const parts = [h('h2', {}, t('board.now')), h('p', {}, text)];
    if (view.my_choice) parts.push(h('p', {}, `${t('st.face_down_card')} `, c.term(h('b', {}, c.tname('character', view.my_choice, CARD_NAMES[view.my_choice] || view.my_choice)), 'character', view.my_choice)));
    if (view.hand) {
      parts.push(h('div', { class: 'hand', 'data-testid': 'hand' }, h('span', { class: 'muted small' }, `${t('board.your_hand')} `), ...view.hand.map((card) => c.bind(c.term(h('span', { class: 'chip' }, c.tname('character', card, CARD_NAMES[card] || card)), 'character', card), (a) => a && a.card === card))));
    }
    const singles = c.matching((a) => a && a.single);
    if (singles.length) parts.push(h('div', { class: 'hand' }, ...singles.map((a) => c.bind(c.term(h('span', { class: 'chip' }, t('st.one_ring', { ring: c.tname('ring', a.single, t('st.ring', { ring: a.single.toUpperCase() })) })), 'ring', a.single), (x) => x === a))));
    return h('div', {}, ...parts);
  },

  players(view, c) {
    const kinds = ['chalice', 'book', 'x', 'y', 'z'];
    return h('div', { class: 'player-boards' }, ...view.seats.map((p) => h('div', { class: ['pboard', view.to_act.includes(p.seat) ? 'acting' : null], style: { '--seat': c.color(p.seat) } },
      h('div', {}, seatDot(p.seat), ' ', h('span', { class: 'pname' }, c.name(p.seat)), c.mine(p.seat) ? h('span', { class: 'tag' }, t('board.you')) : null,
        view.start_player === p.seat ? h('span', { class: 'tag' }, t('st.start_player')) : null,
        p.has_chosen ? h('span', { class: 'tag' }, t('st.chosen')) : null),
      h('div', { class: 'stats' },
        h('span', {}, `${t('st.score')} `, h('b', {}, formatNumber(p.total))),
        h('span', {}, t(p.pile_top ? 'st.hand_pile_top' : 'st.hand_pile', { hand: p.hand_size, pile: p.pile_size, top: p.pile_top ? c.tname('character', p.pile_top, CARD_NAMES[p.pile_top] || p.pile_top) : '' })),
        h('span', {}, `${t('st.stock')} `, kinds.map((k) => `${kindWord(k)} ${p.stock[k]}`).join(', ')),
        h('span', { class: 'muted' }, `${t('st.reserve')} `, kinds.map((k) => `${kindWord(k)} ${p.reserve[k]}`).join(', '))),
      h('div', { class: 'stats small muted' }, Object.entries(p.score).map(([k, v]) => `${scoreWord(k)} ${v}`).join(' · ')))));
  },
};
