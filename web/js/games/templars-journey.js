// Templars' Journey: the map of territories with cities, knights, Templars and gold; the round track
// with the Pope, the edicts and their ships; player boards with gold, supply, temple and VP.

import { h, s, seatDot } from '../dom.js';
import { svgPanel, boardPanels, label, cross, pawn, coin, textBlock } from './svg.js';

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
const CARDS = { 1: 'Collect gold (safe)', 2: 'Collect gold (risky)', 3: 'Place knights (safe)', 4: 'Place knights (risky)', 5: 'Move Templar (risky)', 6: 'Move Templar (safe)' };
const MISSIONS = {
  M1: 'the most gold', M2: 'the most ships boarded', M3: 'the most knights in the temple', M4: 'the most knights in the seventh city',
  M5: 'the smallest distance between own Templars', M6: 'the most edicts from different countries',
  M7: 'the most edicts from the Holy Roman Empire', M8: 'the most edicts from France',
};
const STEP_NAMES = { setup_knight: 'Setup: place a knight', setup_templar: 'Setup: place a Templar', pope_step: 'The Pope moves', green_flag: 'Green flag', red_flag: 'Red flag', game_over: 'Game over' };

function territoryName(view, id) {
  const t = view && view.territories.find((x) => x.id === id);
  return t ? t.name : id;
}

function spaceName(space) {
  const m = /^L(\d)([GR])(\d)$/.exec(space);
  if (m) return `leg ${m[1]} ${m[2] === 'G' ? 'green' : 'red'} ${m[3]}`;
  if (space.startsWith('S')) return `start of leg ${space.slice(1)}`;
  if (space.startsWith('H')) return `harbour ${space.slice(1)}`;
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
  out.push(label(x0, y0 + 4, `Leg ${leg}`, { 'font-weight': 'bold', 'font-size': 13, fill: leg === view.leg ? '#8b1e1e' : '#7a6a58' }));
  for (const [spot, dx, dy, fill] of spots) {
    const id = sp(spot);
    const g = s('g', { dataset: { space: id } },
      s('circle', { class: 'hit', cx: x0 + dx, cy: y0 + dy, r: 15, fill: done ? '#e6e0d4' : fill, stroke: '#5a4a3a', 'stroke-width': 1.2 }),
      s('text', { x: x0 + dx, y: y0 + dy + 1, 'font-size': 10, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, spot));
    if (view.pope === id) {
      g.append(s('circle', { cx: x0 + dx, cy: y0 + dy, r: 10, fill: 'white', stroke: '#b8860b', 'stroke-width': 3 }),
        s('text', { x: x0 + dx, y: y0 + dy + 1, 'font-size': 12, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, '♝'));
    }
    out.push(c.bind(c.term(g, 'space', id), (a) => a.type === 'move_pope' && a.to === id, `Move the Pope to ${spaceName(id)}`));
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
    label(x + 6, y + 12, `${e.space} · ${e.edict ? territoryName(view, e.edict) : '—'}${e.evaluated ? ' ✓' : ''}`, { 'font-size': 11, 'font-weight': 'bold' }));
  if (e.ship_capacity) {
    g.append(label(x + 6, y + 30, `ship ${e.ship.reduce((a, b) => a + b, 0)}/${e.ship_capacity}`, { 'font-size': 11 }));
    e.ship.forEach((n, seat) => {
      for (let k = 0; k < n; k++) g.append(pawn(x + 10 + (seat * 3 + k) * 9, y + 46, 6, c.color(seat)));
    });
  } else {
    g.append(label(x + 6, y + 32, 'seventh city', { 'font-size': 11, fill: '#7a6a58' }));
  }
  return c.bind((e.edict ? c.term(g, 'edict', e.edict) : c.term(g, 'edict_space', e.space)), (a) => a.type === 'exchange_edict' && a.with === e.edict, e.edict ? `Exchange for the edict of ${territoryName(view, e.edict)}` : undefined);
}

function territory(view, c, t) {
  const [x, y] = POS[t.id] || [0, 0];
  const city = t.city ? view.cities.find((ci) => ci.id === t.city) : null;
  const [fill] = COUNTRY[t.country] || ['#eee'];
  const g = s('g', { dataset: { territory: t.id } },
    s('circle', { class: 'hit', cx: x, cy: y, r: 50, fill, stroke: '#6b5a45', 'stroke-width': 1.5, 'fill-opacity': city && !city.in_play ? 0.5 : 1 }),
    s('text', { x, y: y - 36, 'font-size': 12, 'text-anchor': 'middle', 'font-weight': 'bold' }, t.name));
  if (t.gold) g.append(coin(x + 34, y - 28, 10, t.gold));
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
      g.append(label(x, y - 9, 'out of play', { 'font-size': 10, 'text-anchor': 'middle', fill: '#666' }));
    }
  }
  // Crosses side by side with a gap, centred, below the city's knights.
  const n = t.templars.length;
  t.templars.forEach((seat, i) => g.append(cross(x - (n - 1) * 11 + i * 22, y + (city ? 38 : 8), 8, c.color(seat))));
  const matches = (a) => a.city === t.id || a.territory === t.id || (a.to === t.id && a.type === 'move_templar');
  return c.bind(c.term(g, ['territory', 'city'], t.id), (a) => matches(a) && a.type !== 'remove_knight' && a.type !== 'exchange_knight' || (matches(a) && !city));
}

export default {
  /** The decision now, as the rules texts name it. */
  steps(view) {
    const step = view.step;
    const id = typeof step === 'string' ? step : step.step;
    return [step && step.prompt && step.prompt.prompt, id];
  },

  label(action, view, c) {
    const n = (id) => territoryName(view, id);
    switch (action.type) {
      case 'setup_knight': return `Put a knight in ${n(action.city)}`;
      case 'setup_templar': return `Put a Templar in ${n(action.territory)}`;
      case 'move_pope': return `Move the Pope to ${spaceName(action.to)}`;
      case 'place_knight': return `Place a knight in ${n(action.city)}`;
      case 'remove_knight': return `Remove ${c.name(action.owner)}'s knight from ${n(action.city)}`;
      case 'exchange_knight': return `Replace ${c.name(action.owner)}'s knight in ${n(action.city)}`;
      case 'toss': return 'Pay 1: toss the chance marker';
      case 'new_chance': return 'Pay 1 temple knight: toss again';
      case 'decline': return 'Decline';
      case 'stop': return 'Stop';
      case 'forgo': return 'Use the cross for nothing';
      case 'accept': return 'Keep the first-player marker';
      case 'pass_leader': return `Pass the first-player marker to ${c.name(action.to)}`;
      case 'choose_card': return `Card ${action.card}: ${c.tname('card', action.card, CARDS[action.card] || '')}`;
      case 'take_gold': return `Take gold from ${n(action.territory)}`;
      case 'taxes': return `Taxes in ${n(action.territory)}`;
      case 'sacrifice': return `Sacrifice a knight in ${n(action.city)}`;
      case 'choose_city': return `Choose ${n(action.city)}`;
      case 'choose_templar': return `Move the Templar in ${n(action.territory)}`;
      case 'move_templar': return `Step to ${n(action.to)}`;
      case 'exchange_edict': return `Exchange for the edict of ${n(action.with)}`;
      case 'allow': return 'Allow the exchange';
      case 'veto': return 'Veto (4 temple knights)';
      default: return null;
    }
  },

  board(view, c) {
    // Two panels: the map (left) and the round track (right); stacked on a phone.
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
    for (const t of view.territories) out.push(territory(view, c, t));
    // Legend.
    out.push(textBlock(100, 640, `Leg ${view.leg} · card phases ${view.card_phases.join('/')}`, { width: 40, size: 12 }));
    // The round track with its edicts and ships.
    const track = [s('rect', { x: 728, y: 6, width: 266, height: H - 12, rx: 8, fill: '#f6efe2', stroke: '#8a7456' })];
    for (let leg = 1; leg <= 3; leg++) track.push(...trackLeg(view, c, leg, 736, 20 + (leg - 1) * 170));
    const e7 = view.edict_spaces.find((x) => x.space === 'E7');
    if (e7) track.push(edictBox(view, c, e7, 736, 540));
    track.push(label(736, 612, `Pope: ${spaceName(view.pope)}`, { 'font-size': 12 }));
    if (view.removed_edicts.length) {
      // Wrapped: the names of several lost edicts are wider than the panel.
      track.push(textBlock(861, 634, `Lost edicts: ${view.removed_edicts.map((e) => territoryName(view, e)).join(', ')}`, { width: 44, size: 11 }));
    }
    return boardPanels(
      { name: 'map', svg: svgPanel(0, 0, MW, H, ...out), width: MW, phoneMin: 600 },
      { name: 'track', svg: svgPanel(724, 0, 276, H, ...track), width: 276 },
    );
  },

  turn(view, c) {
    const step = view.step;
    const stepName = typeof step === 'string' ? step : step.step;
    let text = STEP_NAMES[stepName] || stepName;
    if (stepName === 'choose_cards') text = 'Everyone chooses an action card in secret';
    if (stepName === 'card' && step.prompt) text = `${c.name(step.seat)}'s card: ${(c.texts.step(step.prompt.prompt) || {}).title || String(step.prompt.prompt).replace(/_/g, ' ')}`;
    if (stepName === 'leader') text = `${c.name(step.holder)} holds the Leader favour`;
    const parts = [h('h2', {}, 'Now'), h('p', {}, text)];
    if (view.my_card) parts.push(h('p', {}, 'Your card: ', c.term(h('b', {}, `${view.my_card} — ${c.tname('card', view.my_card, CARDS[view.my_card])}`), 'card', view.my_card)));
    const cards = c.matching((a) => a.type === 'choose_card');
    if (cards.length) {
      parts.push(h('div', { class: 'hand' }, ...cards.map((a) => c.bind(c.term(h('span', { class: 'chip' }, `${a.card} · ${c.tname('card', a.card, CARDS[a.card])}`), 'card', a.card), (x) => x === a))));
    }
    if (view.card_phase) {
      parts.push(h('p', { class: 'small' }, 'Cards this phase: ', ...view.card_phase.cards.map((card, seat) => h('span', { class: 'chip' }, seatDot(seat), ` ${card}${view.card_phase.penalised[seat] ? ' (penalised)' : ''}`))));
    }
    const me = view.players.find((p) => c.mine(p.seat));
    const mission = (m) => c.term(h('span', { class: 'mission' }, c.tname('mission', m, `${m} (${MISSIONS[m] || ''})`)), 'mission', m);
    if (me && me.mission) parts.push(h('p', { class: 'small' }, 'Your mission: ', mission(me.mission)));
    if (view.face_up_missions.length) parts.push(h('p', { class: 'small' }, 'Face-up missions: ', ...view.face_up_missions.flatMap((m, i) => [i ? '; ' : '', mission(m)])));
    return h('div', {}, ...parts);
  },

  players(view, c) {
    return h('div', { class: 'player-boards' }, ...view.players.map((p) => {
      const board = h('div', { class: ['pboard', view.to_act.includes(p.seat) ? 'acting' : null], style: { '--seat': c.color(p.seat) } },
        h('div', {}, seatDot(p.seat), ' ', h('span', { class: 'pname' }, c.name(p.seat)),
          p.first_player ? h('span', { class: 'tag' }, 'first player') : null,
          c.mine(p.seat) ? h('span', { class: 'tag' }, 'you') : null,
          p.has_chosen_card === true ? h('span', { class: 'tag' }, 'chosen') : p.has_chosen_card === false ? h('span', { class: 'tag' }, 'choosing…') : null),
        h('div', { class: 'stats' },
          h('span', {}, 'VP ', h('b', {}, String(p.vp))),
          h('span', {}, 'Gold ', h('b', {}, String(p.gold))),
          h('span', {}, 'Supply ', h('b', {}, String(p.supply))),
          h('span', {}, 'Temple ', h('b', {}, String(p.temple))),
          h('span', {}, 'Templars: ', p.templars.map((t) => territoryName(view, t)).join(', ') || '—'),
          h('span', {}, 'Edicts: ', p.edicts.map((e) => territoryName(view, e)).join(', ') || '—'),
          p.mission ? h('span', {}, `Mission ${p.mission}`) : null));
      return c.bind(board, (a) => a.type === 'pass_leader' && a.to === p.seat);
    }));
  },
};
