// Templars' Journey: the map of territories with cities, knights, Templars and gold; the round track
// with the Pope, the edicts and their ships; player boards with gold, supply, temple and VP.

import { h, s, seatDot, listText } from '../dom.js';
import { svgPanel, boardPanels, label, cross, pawn, coin, textBlock, textWidth } from './svg.js';
import { t, formatNumber } from '../i18n.js';

// Schematic positions of the territories on a 700×640 map.
const POS = {
  LON: [150, 95], BRE: [80, 235], PAR: [250, 215], BOR: [140, 370], LYO: [320, 350], PRO: [360, 490],
  BAR: [220, 520], CAS: [70, 560], BUR: [420, 230], COE: [400, 90], BAY: [555, 175], WIE: [664, 120],
  LOM: [500, 410], VEN: [640, 330], ROM: [590, 500], NAP: [664, 596],
};
// Sea lines (spec: the five dotted lines); every other neighbour shares a land border.
const SEA = new Set(['BRE-LON', 'LON-PAR', 'COE-LON', 'LOM-PRO', 'BAR-ROM']);
const COUNTRY = {
  ENG: ['#f2c4c4', 'England'], FRA: ['#c7d8f2', 'France'], ARA: ['#f3e2a6', 'Aragon'],
  HRE: ['#d5dfc8', 'Holy Roman Empire'], ITA: ['#cfe8cf', 'Italy'],
};
// The action cards' and missions' names when the rules texts are missing: `tj.card.<n>`, `tj.mission.<id>`.
const CARDS = (n) => t(`tj.card.${n}`);
const MISSIONS = (m) => t(`tj.mission.${m}`);
const STEP_NAMES = ['setup_knight', 'setup_templar', 'pope_step', 'green_flag', 'red_flag', 'game_over'];

/** A territory's name: the rules texts' (in the interface's language), else the view's. */
function territoryName(view, id, c) {
  const named = c && c.tname(['territory', 'city'], id, null);
  if (named) return named;
  const found = view && view.territories.find((x) => x.id === id);
  return found ? found.name : id;
}

function spaceName(space) {
  const m = /^L(\d)([GR])(\d)$/.exec(space);
  if (m) return t(m[2] === 'G' ? 'tj.space.green' : 'tj.space.red', { leg: m[1], n: m[3] });
  if (space.startsWith('S')) return t('tj.space.start', { leg: space.slice(1) });
  if (space.startsWith('H')) return t('tj.space.harbour', { leg: space.slice(1) });
  return space;
}

function trackLeg(view, c, leg, x0, y0) {
  const out = [];
  const sp = (spot) => (spot === 'S' ? `S${leg}` : spot === 'H' ? `H${leg}` : `L${leg}${spot}`);
  const spots = [
    ['S', 20, 45, '#ddd'], ['G1', 70, 28, '#8fd18f'], ['G2', 120, 28, '#8fd18f'], ['G3', 170, 28, '#8fd18f'],
    ['R1', 70, 68, '#f08c8c'], ['R2', 120, 68, '#f08c8c'], ['R3', 170, 68, '#f08c8c'], ['R4', 212, 68, '#f08c8c'], ['H', 238, 45, '#9cc3e6'],
  ];
  const done = leg < view.leg;
  out.push(label(x0, y0 + 4, t('tj.leg', { leg }), { 'font-weight': 'bold', 'font-size': 13, fill: leg === view.leg ? '#8b1e1e' : '#7a6a58' }));
  for (const [spot, dx, dy, fill] of spots) {
    const id = sp(spot);
    // The Pope stands on his space as a gold ring with ♝ in its upper half, and the space's name moves
    // down to make room: a marker laid over the name hid it.
    const pope = view.pope === id;
    const g = s('g', { dataset: { space: id } },
      s('circle', { class: 'hit', cx: x0 + dx, cy: y0 + dy, r: 15, fill: done ? '#e6e0d4' : fill, stroke: '#5a4a3a', 'stroke-width': 1.2 }),
      s('text', { x: x0 + dx, y: y0 + dy + (pope ? 7 : 1), 'font-size': 10, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, spot));
    if (pope) {
      g.append(s('g', { dataset: { piece: 'pope' } }, s('circle', { cx: x0 + dx, cy: y0 + dy, r: 15, fill: 'none', stroke: '#b8860b', 'stroke-width': 3.5 }),
        s('text', { x: x0 + dx, y: y0 + dy - 6, 'font-size': 11, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, '♝')));
    }
    out.push(c.bind(c.term(g, 'space', id), (a) => a.type === 'move_pope' && a.to === id, t('tj.a.move_pope', { space: spaceName(id) })));
  }
  // The two edict spaces of this leg, each with its ship.
  ['a', 'b'].forEach((suffix, i) => {
    const e = view.edict_spaces.find((x) => x.space === `E${leg}${suffix}`);
    if (!e) return;
    out.push(edictBox(view, c, e, x0 + i * 130, y0 + 92));
  });
  return out;
}

function edictBox(view, c, e, x, y) {
  const g = s('g', { dataset: { edict: e.edict || '' } },
    s('rect', { class: 'hit', x, y, width: 124, height: 54, rx: 6, fill: e.evaluated ? '#e6e0d4' : '#fffaf0', stroke: '#5a4a3a' }),
    label(x + 6, y + 12, `${e.space} · ${e.edict ? territoryName(view, e.edict, c) : '—'}${e.evaluated ? ' ✓' : ''}`, { 'font-size': 11, 'font-weight': 'bold' }));
  if (e.ship_capacity) {
    g.append(label(x + 6, y + 30, t('tj.ship', { n: e.ship.reduce((a, b) => a + b, 0), capacity: e.ship_capacity }), { 'font-size': 11 }));
    // The figures in a row, seat after seat with a small gap between seats: at most 7 (the largest
    // ship) fit the box. Three places per seat ran a fourth figure into the next seat's and a fifth
    // player's past the box.
    let fx = x + 10;
    e.ship.forEach((n, seat) => {
      for (let k = 0; k < n; k++, fx += 12) g.append(pawn(fx, y + 46, 6, c.color(seat)));
      if (n) fx += 4;
    });
  } else {
    g.append(label(x + 6, y + 32, t('tj.seventh_city'), { 'font-size': 11, fill: '#7a6a58' }));
  }
  return c.bind((e.edict ? c.term(g, 'edict', e.edict) : c.term(g, 'edict_space', e.space)), (a) => a.type === 'exchange_edict' && a.with === e.edict, e.edict ? t('tj.a.exchange_edict', { name: territoryName(view, e.edict, c) }) : undefined);
}

// The engine's free-text `what` of a forfeited or declined step, by its English words: `tj.what.<key>`.
const WHAT = {
  'the gold take: no gold within reach': 'gold_take',
  'the sacrifice: no own knight in any city': 'sacrifice',
  'the gold of the penalised move: none in the territories entered': 'penalty_gold',
  'Place knights (safe): no city where anything can be done': 'safe_city',
  'Place knights (risky): nothing to exchange': 'risky_city',
  'the removals of the penalty: nothing to remove': 'penalty_city',
  'Taxes: no gold within reach': 'taxes',
  'the green flag action': 'green_flag',
  'the red flag action': 'red_flag',
  'the green flag action: nothing to do': 'green_flag_nothing',
  'the red flag action: nothing to do': 'red_flag_nothing',
};

/** A log line from a Templars' Journey event's data (`tj.log.*`), or null when it cannot be worded. */
function logText(e, c) {
  const seat = (s) => (typeof s === 'number' ? c.name(s) : '');
  const place = (id) => territoryName(null, id, c);
  const seats = (list) => listText((list || []).map(seat));
  const perSeat = (values) => (values || []).map((v, s) => `${c.name(s)} ${formatNumber(v)}`).join(', ');
  const p = {
    seat: seat(e.seat), by: seat(e.by), owner: seat(e.owner), first: seat(e.first),
    city: place(e.city), territory: place(e.territory), edict: place(e.edict), with: place(e.with),
    vp: Array.isArray(e.vp) ? perSeat(e.vp) : formatNumber(e.vp || 0), knights: perSeat(e.knights),
    winners: seats(e.winners), seats: seats(e.seats),
  };
  let key = e.event;
  switch (e.event) {
    case 'setup_done':
      p.edicts = (e.edicts || []).map(([space, city]) => `${space} ${place(city)}`).join(', ');
      p.tiles = (e.tiles || []).map(([city, tile]) => `${place(city)} ${c.tname('tile', tile, tile)}`).join(', ');
      p.missions = (e.face_up_missions || []).length ? e.face_up_missions.map((m) => c.tname('mission', m, m)).join(', ') : t('tj.log.none');
      break;
    case 'mission_dealt': Object.assign(p, { id: e.mission, mission: c.tname('mission', e.mission, e.mission) }); break;
    case 'knight_placed': key = `knight_placed_${e.cause}`; break;
    case 'knight_removed': key = `knight_removed_${e.cause}`; break;
    case 'pope_moved': key = e.forced ? 'pope_moved_forced' : 'pope_moved'; p.space = spaceName(e.to); break;
    case 'forfeited':
    case 'declined': {
      const what = WHAT[e.what];
      if (!what) return null;
      p.what = t(`tj.what.${what}`);
      break;
    }
    case 'favour_used': Object.assign(p, { favour: c.tname('favour', e.favour, e.favour), cost: formatNumber(e.cost) }); break;
    case 'leader_passed': Object.assign(p, { from: seat(e.from), to: seat(e.to) }); break;
    case 'card_chosen_secret': p.card = `${e.card} (${c.tname('card', e.card, CARDS(e.card))})`; break;
    case 'cards_revealed':
      key = (e.penalised || []).length ? 'cards_revealed_penalty' : 'cards_revealed';
      Object.assign(p, { cards: (e.cards || []).map((card, s) => `${c.name(s)} ${card}`).join(', '), penalised: seats(e.penalised), order: seats(e.order) });
      break;
    case 'card_action_started':
      key = e.penalty ? 'card_action_penalty' : 'card_action_started';
      Object.assign(p, { card: e.card, name: c.tname('card', e.card, CARDS(e.card)) });
      break;
    case 'gold_taken':
      key = e.cause === 'taxes' ? 'gold_taken_taxes' : e.cause === 'risky_move' || e.cause === 'penalty_move' ? 'gold_taken_move' : 'gold_taken';
      p.amount = formatNumber(e.amount);
      break;
    case 'tossed':
      key = e.paid > 0 ? 'tossed_paid' : 'tossed_again';
      Object.assign(p, { paid: formatNumber(e.paid), result: c.tname('toss', e.result, e.result) });
      break;
    case 'templar_moved': Object.assign(p, { from: place(e.from), to: place(e.to) }); break;
    case 'edicts_exchanged': Object.assign(p, { a: place(e.a[0]), a_space: e.a[1], b: place(e.b[0]), b_space: e.b[1] }); break;
    case 'marker_passed': p.to = seat(e.to); break;
    case 'shipping_round': p.round = formatNumber(e.round); break;
    case 'ship_loaded': p.space = e.space; break;
    case 'tile_removed': p.tile = c.tname('tile', e.tile, e.tile); break;
    case 'temple_majority': p.vp = formatNumber(e.vp); break;
    case 'gold_dealt': Object.assign(p, { with_city: formatNumber(e.with_city), without_city: formatNumber(e.without_city) }); break;
    case 'seventh_city': key = e.winner === null || e.winner === undefined ? 'seventh_city_none' : 'seventh_city'; p.winner = seat(e.winner); break;
    case 'missions_revealed': p.missions = (e.missions || []).map((m, s) => `${c.name(s)} ${c.tname('mission', m, m)}`).join(', '); break;
    case 'mission_scored': Object.assign(p, { id: e.mission, mission: c.tname('mission', e.mission, e.mission) }); break;
    default:
  }
  const template = `tj.log.${key}`;
  return t(template) === template ? null : t(template, p);
}

// How many Templars of each seat the drawing has placed so far (reset by each board drawing).
let templarCount = {};

function territory(view, c, tr) {
  const [x, y] = POS[tr.id] || [0, 0];
  const city = tr.city ? view.cities.find((ci) => ci.id === tr.city) : null;
  const [fill] = COUNTRY[tr.country] || ['#eee'];
  const g = s('g', { dataset: { territory: tr.id } },
    s('circle', { class: 'hit', cx: x, cy: y, r: 50, fill, stroke: '#6b5a45', 'stroke-width': 1.5, 'fill-opacity': city && !city.in_play ? 0.5 : 1 }),
    s('text', { x, y: y - 36, 'font-size': 12, 'text-anchor': 'middle', 'font-weight': 'bold' }, territoryName(view, tr.id, c)));
  if (city) {
    const inPlay = city.in_play;
    g.append(s('rect', { x: x - 30, y: y - 24, width: 60, height: 30, rx: 3, fill: inPlay ? '#f4ead6' : '#ccc', stroke: '#6b5a45' }),
      s('path', { d: `M${x - 30},${y - 24} l6,-7 l6,7 l6,-7 l6,7 l6,-7 l6,7 l6,-7 l6,7 l6,-7 l6,7`, fill: 'none', stroke: '#6b5a45' }));
    if (inPlay) {
      const total = city.knights.reduce((a, b) => a + b, 0);
      g.append(label(x, y - 9, `${total}/${city.capacity}`, { 'font-size': 11, 'text-anchor': 'middle' }));
      let k = 0;
      city.knights.forEach((n, seat) => {
        if (!n) return;
        const kg = s('g', { dataset: { owner: seat } });
        for (let i = 0; i < n; i++, k++) kg.append(pawn(x - 28 + (k % 8) * 8, y + 18 + Math.floor(k / 8) * 12, 6, c.color(seat)));
        g.append(c.bind(kg, (a) => (a.type === 'remove_knight' || a.type === 'exchange_knight') && a.city === city.id && a.owner === seat));
      });
    } else {
      // On two lines when wider than the city ("nicht im Spiel"): it ran out of the frame.
      const words = t('tj.out_of_play');
      g.append(textWidth(words, 10) <= 54
        ? label(x, y - 9, words, { 'font-size': 10, 'text-anchor': 'middle', fill: '#666' })
        : textBlock(x, y - 9, words, { width: Math.ceil(words.length / 2) + 1, size: 10, fill: '#666' }));
    }
  }
  // The gold on the circle's right rim, beside the city and drawn after it: at the top right a long
  // name ran under the coin, and the city's frame covered a two-digit number.
  if (tr.gold) g.append(coin(x + 41, y - 9, 10, tr.gold));
  // Crosses side by side with a gap, centred, below the city's knights.
  const n = tr.templars.length;
  tr.templars.forEach((seat, i) => {
    const piece = cross(x - (n - 1) * 11 + i * 22, y + (city ? 38 : 8), 8, c.color(seat));
    // Keyed by seat and count, so that a Templar that steps slides over (motion.js).
    templarCount[seat] = (templarCount[seat] || 0) + 1;
    piece.dataset.piece = `templar-${seat}-${templarCount[seat]}`;
    g.append(piece);
  });
  const matches = (a) => a.city === tr.id || a.territory === tr.id || (a.to === tr.id && a.type === 'move_templar');
  return c.bind(c.term(g, ['territory', 'city'], tr.id), (a) => matches(a) && a.type !== 'remove_knight' && a.type !== 'exchange_knight' || (matches(a) && !city));
}

export default {
  /** A log line in the interface's language from the event's data; null for one it cannot word. */
  logText(e, c) {
    return e && typeof e.event === 'string' ? logText(e, c) : null;
  },

  /** The decision now, as the rules texts name it. */
  steps(view) {
    const step = view.step;
    const id = typeof step === 'string' ? step : step.step;
    return [step && step.prompt && step.prompt.prompt, id];
  },

  label(action, view, c) {
    const n = (id) => territoryName(view, id, c);
    const p = { city: n(action.city), territory: n(action.territory), name: n(action.with || action.to), space: action.to ? spaceName(action.to) : '' };
    switch (action.type) {
      case 'setup_knight': return t('tj.a.setup_knight', p);
      case 'setup_templar': return t('tj.a.setup_templar', p);
      case 'move_pope': return t('tj.a.move_pope', p);
      case 'place_knight': return t('tj.a.place_knight', p);
      case 'remove_knight': return t('tj.a.remove_knight', { ...p, owner: c.name(action.owner) });
      case 'exchange_knight': return t('tj.a.exchange_knight', { ...p, owner: c.name(action.owner) });
      case 'toss': return t('tj.a.toss');
      case 'new_chance': return t('tj.a.new_chance');
      case 'decline': return t('tj.a.decline');
      case 'stop': return t('tj.a.stop');
      case 'forgo': return t('tj.a.forgo');
      case 'accept': return t('tj.a.accept');
      case 'pass_leader': return t('tj.a.pass_leader', { name: c.name(action.to) });
      case 'choose_card': return t('tj.a.choose_card', { n: action.card, name: c.tname('card', action.card, CARDS(action.card)) });
      case 'take_gold': return t('tj.a.take_gold', p);
      case 'taxes': return t('tj.a.taxes', p);
      case 'sacrifice': return t('tj.a.sacrifice', p);
      case 'choose_city': return t('tj.a.choose_city', p);
      case 'choose_templar': return t('tj.a.choose_templar', p);
      case 'move_templar': return t('tj.a.move_templar', p);
      case 'exchange_edict': return t('tj.a.exchange_edict', p);
      case 'allow': return t('tj.a.allow');
      case 'veto': return t('tj.a.veto');
      default: return null;
    }
  },

  board(view, c) {
    // Two panels: the map (left) and the round track (right); stacked on a phone.
    templarCount = {};
    const MW = 724;
    const H = 660;
    const out = [s('rect', { x: 0, y: 0, width: MW, height: H, fill: '#a9cbe0', rx: 10 })];
    // Land and roads.
    out.push(s('path', { d: 'M20,40 Q250,0 716,44 L716,640 Q400,664 20,620 Z', fill: '#e9dfc6', stroke: 'none' }));
    const drawn = new Set();
    for (const t of view.territories) {
      for (const n of t.neighbours) {
        const key = [t.id, n].sort().join('-');
        if (drawn.has(key) || !POS[t.id] || !POS[n]) continue;
        drawn.add(key);
        // A sea line is a blue dotted crossing; a land border a plain brown road, so the two never look alike.
        out.push(SEA.has(key)
          ? s('line', { class: 'sea-line', x1: POS[t.id][0], y1: POS[t.id][1], x2: POS[n][0], y2: POS[n][1], stroke: '#1f5f9a', 'stroke-width': 3, 'stroke-dasharray': '2 6', 'stroke-linecap': 'round' })
          : s('line', { class: 'land-line', x1: POS[t.id][0], y1: POS[t.id][1], x2: POS[n][0], y2: POS[n][1], stroke: '#8a7456', 'stroke-width': 4 }));
      }
    }
    for (const tr of view.territories) out.push(territory(view, c, tr));
    // Legend.
    out.push(textBlock(100, 640, t('tj.legend', { leg: view.leg, phases: view.card_phases.join('/') }), { width: 40, size: 12 }));
    // The round track with its edicts and ships.
    const track = [s('rect', { x: 728, y: 6, width: 266, height: H - 12, rx: 8, fill: '#f6efe2', stroke: '#8a7456' })];
    for (let leg = 1; leg <= 3; leg++) track.push(...trackLeg(view, c, leg, 736, 20 + (leg - 1) * 170));
    const e7 = view.edict_spaces.find((x) => x.space === 'E7');
    if (e7) track.push(edictBox(view, c, e7, 736, 540));
    track.push(label(736, 612, t('tj.pope', { space: spaceName(view.pope) }), { 'font-size': 12 }));
    if (view.removed_edicts.length) {
      // Wrapped: the names of several lost edicts are wider than the panel.
      track.push(textBlock(861, 634, t('tj.lost_edicts', { names: view.removed_edicts.map((e) => territoryName(view, e, c)).join(', ') }), { width: 44, size: 11 }));
    }
    return boardPanels(
      { name: 'map', svg: svgPanel(0, 0, MW, H, ...out), width: MW, phoneMin: 600 },
      { name: 'track', svg: svgPanel(724, 0, 276, H, ...track), width: 276 },
    );
  },

  turn(view, c) {
    const step = view.step;
    const stepName = typeof step === 'string' ? step : step.step;
    let text = STEP_NAMES.includes(stepName) ? t(`tj.step.${stepName}`) : ((c.texts.step(stepName) || {}).title || stepName);
    if (stepName === 'choose_cards') text = t('tj.step.choose_cards');
    if (stepName === 'card' && step.prompt) text = t('tj.step.card', { name: c.name(step.seat), step: (c.texts.step(step.prompt.prompt) || {}).title || String(step.prompt.prompt).replace(/_/g, ' ') });
    if (stepName === 'leader') text = t('tj.step.leader', { name: c.name(step.holder) });
    const parts = [h('h2', {}, t('board.now')), h('p', {}, text)];
    if (view.my_card) parts.push(h('p', {}, `${t('tj.your_card')} `, c.term(h('b', {}, `${view.my_card} — ${c.tname('card', view.my_card, CARDS(view.my_card))}`), 'card', view.my_card)));
    const cards = c.matching((a) => a.type === 'choose_card');
    if (cards.length) {
      parts.push(h('div', { class: 'hand' }, ...cards.map((a) => c.bind(c.term(h('span', { class: 'chip' }, `${a.card} · ${c.tname('card', a.card, CARDS(a.card))}`), 'card', a.card), (x) => x === a))));
    }
    if (view.card_phase) {
      parts.push(h('p', { class: 'small' }, `${t('tj.cards_this_phase')} `, ...view.card_phase.cards.map((card, seat) => h('span', { class: 'chip' }, seatDot(seat), ` ${card}${view.card_phase.penalised[seat] ? ` (${t('tj.penalised')})` : ''}`))));
    }
    const me = view.players.find((p) => c.mine(p.seat));
    const mission = (m) => c.term(h('span', { class: 'mission' }, c.tname('mission', m, `${m} (${MISSIONS(m)})`)), 'mission', m);
    if (me && me.mission) parts.push(h('p', { class: 'small' }, `${t('tj.your_mission')} `, mission(me.mission)));
    if (view.face_up_missions.length) parts.push(h('p', { class: 'small' }, `${t('tj.face_up_missions')} `, ...view.face_up_missions.flatMap((m, i) => [i ? '; ' : '', mission(m)])));
    return h('div', {}, ...parts);
  },

  players(view, c) {
    return h('div', { class: 'player-boards' }, ...view.players.map((p) => {
      const board = h('div', { class: ['pboard', view.to_act.includes(p.seat) ? 'acting' : null], style: { '--seat': c.color(p.seat) } },
        h('div', {}, seatDot(p.seat), ' ', h('span', { class: 'pname' }, c.name(p.seat)),
          p.first_player ? h('span', { class: 'tag' }, t('tj.first_player')) : null,
          c.mine(p.seat) ? h('span', { class: 'tag' }, t('board.you')) : null,
          p.has_chosen_card === true ? h('span', { class: 'tag' }, t('tj.chosen')) : p.has_chosen_card === false ? h('span', { class: 'tag' }, t('tj.choosing')) : null),
        h('div', { class: 'stats' },
          h('span', {}, `${t('tj.vp')} `, h('b', {}, formatNumber(p.vp))),
          h('span', {}, `${t('tj.gold')} `, h('b', {}, formatNumber(p.gold))),
          h('span', {}, `${t('tj.supply')} `, h('b', {}, formatNumber(p.supply))),
          h('span', {}, `${t('tj.temple')} `, h('b', {}, formatNumber(p.temple))),
          h('span', {}, `${t('tj.templars')} `, p.templars.map((x) => territoryName(view, x, c)).join(', ') || '—'),
          h('span', {}, `${t('tj.edicts')} `, p.edicts.map((e) => territoryName(view, e, c)).join(', ') || '—'),
          p.mission ? h('span', {}, t('tj.mission', { id: p.mission })) : null));
      return c.bind(board, (a) => a.type === 'pass_leader' && a.to === p.seat);
    }));
  },
};
