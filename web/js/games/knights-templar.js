// Knights Templar: the Fate row, the Grand Master, the deck and discards, and each player's tableau.

import { h, s, seatDot } from '../dom.js';
import { svgRoot, textBlock, label, cross } from './svg.js';

const TYPES = ['legacy', 'ally', 'county', 'treasure', 'mission', 'power', 'battle', 'enemy', 'downfall'];
const TYPE_COLORS = {
  legacy: '#6c4f9e', ally: '#2e6fb0', county: '#3d8b3d', treasure: '#c99a1c', mission: '#a0522d',
  power: '#d46a1f', battle: '#9b1c1c', enemy: '#2d2d2d', downfall: '#7d7d7d',
};
const TYPE_LETTER = { legacy: 'L', ally: 'A', county: 'C', treasure: 'T', mission: 'M', power: 'P', battle: 'B', enemy: 'E', downfall: 'D' };

function cardName(view, id) {
  const all = [...view.fate, ...view.seats.flatMap((p) => p.tableau), ...view.discard.filter((d) => d.card).map((d) => d.card)];
  if (view.pending && view.pending.options) all.push(...view.pending.options.map(([, c]) => c));
  if (view.pending && view.pending.cards) all.push(...view.pending.cards);
  if (view.pending && view.pending.card) all.push(view.pending.card);
  const card = all.find((c) => c.id === id);
  return card ? card.name : `card ${id}`;
}

/** One card: a coloured frame, its type letter and its name. */
function card(x, y, w, hgt, c, attrs = {}) {
  const color = TYPE_COLORS[c.kind] || '#555';
  return s('g', { class: 'kt-card', ...attrs },
    s('rect', { class: 'hit', x, y, width: w, height: hgt, rx: 6, fill: '#fffdf7', stroke: color, 'stroke-width': 2.5 }),
    s('rect', { x, y, width: w, height: 18, rx: 6, fill: color }),
    s('text', { x: x + 6, y: y + 10, 'font-size': 11, fill: 'white', 'font-weight': 'bold', 'dominant-baseline': 'middle' }, `${TYPE_LETTER[c.kind] || '?'} · ${c.kind}`),
    textBlock(x + w / 2, y + 18 + (hgt - 18) / 2, c.name, { width: Math.max(6, Math.floor(w / 7)), size: w < 70 ? 10 : 12 }));
}

function cardBack(x, y, w, hgt, text) {
  return s('g', {},
    s('rect', { x, y, width: w, height: hgt, rx: 6, fill: '#5b3a1e', stroke: '#2b1a0c', 'stroke-width': 2 }),
    cross(x + w / 2, y + hgt / 2 - 8, 14, '#c0392b'),
    s('text', { x: x + w / 2, y: y + hgt - 14, 'font-size': 12, fill: '#f6efe2', 'text-anchor': 'middle' }, text));
}

export default {
  label(action, view, c) {
    switch (action.type) {
      case 'pick': return `Take ${cardName(view, action.card)}`;
      case 'nominate': return `Nominate ${c.name(action.seat)}`;
      case 'target': return `Target ${cardName(view, action.card)}`;
      case 'keep': return `Keep ${cardName(view, action.card)}`;
      default: return null;
    }
  },

  board(view, c) {
    const W = 1000;
    const rowH = 96;
    const top = 200;
    const H = top + view.seats.length * rowH + 10;
    const out = [];
    // The Fate row.
    out.push(label(16, 18, `Turn ${view.turn} · round ${view.round} · ${view.stage.replace('_', ' ')}`, { 'font-size': 15, 'font-weight': 'bold' }));
    out.push(label(16, 40, 'Fate row', { 'font-size': 13, fill: '#7a6a58' }));
    const fw = 104;
    view.fate.forEach((f, i) => {
      out.push(c.bind(card(16 + i * (fw + 10), 52, fw, 132, f, { dataset: { card: f.id } }), (a) => a.type === 'pick' && a.card === f.id));
    });
    // Deck and discard.
    const dx = 16 + Math.max(view.fate.length, 1) * (fw + 10) + 20;
    out.push(cardBack(dx, 52, 90, 132, `${view.deck_count} in deck`));
    const shown = view.discard.slice(-3);
    out.push(label(dx + 110, 40, `Discard pile (${view.discard.length})`, { 'font-size': 13, fill: '#7a6a58' }));
    shown.forEach((d, i) => {
      const x = dx + 110 + i * 70;
      if (d.card) out.push(card(x, 52, 64, 96, d.card));
      else out.push(cardBack(x, 52, 64, 96, 'face down'));
    });
    // The Ally choice, for its resolver.
    if (view.pending.kind === 'ally_choice' && view.pending.cards) {
      const ax = dx + 110 + Math.min(3, view.discard.length) * 70 + 16;
      out.push(label(ax, 40, 'Keep one Ally:', { 'font-size': 13, 'font-weight': 'bold', fill: '#8b1e1e' }));
      view.pending.cards.forEach((a, i) => out.push(c.bind(card(ax + i * 100, 52, 92, 132, a), (x) => x.type === 'keep' && x.card === a.id)));
    }
    // Each player's tableau.
    view.seats.forEach((p, i) => {
      const y = top + i * rowH;
      const acting = view.to_act.includes(p.seat);
      const plate = s('g', { dataset: { seat: p.seat } },
        s('rect', { class: 'hit', x: 8, y, width: 170, height: rowH - 8, rx: 8, fill: acting ? '#fff3c4' : '#fbf5e8', stroke: c.color(p.seat), 'stroke-width': 3 }),
        s('circle', { cx: 24, cy: y + 18, r: 7, fill: c.color(p.seat) }),
        label(36, y + 18, c.name(p.seat).length > 17 ? `${c.name(p.seat).slice(0, 16)}…` : c.name(p.seat), { 'font-weight': 'bold', 'font-size': 14 }),
        label(18, y + 42, `Score now: ${p.score_now}`, { 'font-size': 12 }),
        label(18, y + 60, `County VP ${p.county_vp} · picks ${p.fate_picks}`, { 'font-size': 11, fill: '#7a6a58' }),
        p.picked_this_round ? label(18, y + 77, '✓ picked this round', { 'font-size': 11, fill: '#2f6b3a' }) : null);
      if (view.grand_master === p.seat) {
        plate.append(s('g', {}, s('rect', { x: 118, y: y + 52, width: 54, height: 30, rx: 5, fill: '#8b1e1e' }),
          label(145, y + 67, 'GM ♛', { 'font-size': 12, fill: 'white', 'text-anchor': 'middle', 'font-weight': 'bold' })));
      }
      out.push(c.bind(plate, (a) => a.type === 'nominate' && a.seat === p.seat, `Nominate ${c.name(p.seat)}`));
      const n = p.tableau.length;
      const avail = W - 200;
      const cw = 66;
      if (n * (cw + 4) <= avail) {
        p.tableau.forEach((t, j) => {
          out.push(c.bind(card(192 + j * (cw + 4), y, cw, rowH - 8, t, { dataset: { card: t.id } }), (a) => a.type === 'target' && a.card === t.id));
        });
      } else {
        // Too many to lay out: one column per card type, a line per card.
        const groups = TYPES.map((t) => p.tableau.filter((x) => x.kind === t)).filter((g) => g.length);
        const gw = Math.floor(avail / groups.length) - 4;
        groups.forEach((group, gi) => {
          const gx = 192 + gi * (gw + 4);
          const color = TYPE_COLORS[group[0].kind];
          out.push(s('rect', { x: gx, y, width: gw, height: rowH - 8, rx: 6, fill: '#fffdf7', stroke: color, 'stroke-width': 2 }),
            s('rect', { x: gx, y, width: gw, height: 16, rx: 6, fill: color }),
            label(gx + 5, y + 8, `${group[0].kind} ×${group.length}`, { 'font-size': 10, fill: 'white', 'font-weight': 'bold' }));
          const per = Math.floor((rowH - 26) / 10);
          group.slice(0, per).forEach((t, k) => {
            const more = k === per - 1 && group.length > per ? ` +${group.length - per}` : '';
            const line = s('g', { dataset: { card: t.id } },
              s('rect', { class: 'hit', x: gx + 2, y: y + 18 + k * 10, width: gw - 4, height: 10, fill: 'transparent', stroke: 'none' }),
              label(gx + 4, y + 23 + k * 10, `${t.name.slice(0, Math.max(4, Math.floor(gw / 5.5)))}${more}`, { 'font-size': 9 }));
            out.push(c.bind(line, (a) => a.type === 'target' && a.card === t.id));
          });
        });
      }
      if (!n) out.push(label(196, y + rowH / 2 - 4, 'No cards in play yet', { fill: '#7a6a58' }));
    });
    return svgRoot(W, H, s('rect', { x: 0, y: 0, width: W, height: H, fill: '#efe4cc', rx: 10 }), ...out);
  },

  turn(view, c) {
    const p = view.pending;
    let text = '';
    if (p.kind === 'pick') text = `${c.name(p.seat)} picks a Fate card.`;
    else if (p.kind === 'nominate') text = `The Grand Master, ${c.name(p.gm)}, nominates who picks next (click a player).`;
    else if (p.kind === 'target') text = `${c.name(p.resolver)} chooses a card for ${p.card.name} (${p.card.kind}).`;
    else if (p.kind === 'ally_choice') text = `${c.name(p.resolver)} chooses which Ally to play.`;
    else if (view.end) text = view.end === 'five_downfall' ? 'A player reached five Downfall cards.' : 'The deck ran out.';
    const keep = p.kind === 'ally_choice' && p.cards
      ? h('div', { class: 'hand' }, ...p.cards.map((a) => {
        const chip = h('span', { class: 'chip', style: { borderColor: TYPE_COLORS[a.kind] } }, `${a.name}`);
        return c.bind(chip, (x) => x.type === 'keep' && x.card === a.id);
      }))
      : null;
    return h('div', {}, h('h2', {}, 'Now'), h('p', {}, text), keep);
  },

  players(view, c) {
    return h('div', { class: 'player-boards' }, ...view.seats.map((p) => h('div', {
      class: ['pboard', view.to_act.includes(p.seat) ? 'acting' : null], style: { '--seat': c.color(p.seat) },
    },
    h('div', {}, seatDot(p.seat), ' ', h('span', { class: 'pname' }, c.name(p.seat)), view.grand_master === p.seat ? h('span', { class: 'tag' }, 'Grand Master') : null, c.mine(p.seat) ? h('span', { class: 'tag' }, 'you') : null),
    h('div', { class: 'stats' },
      h('span', {}, 'Score ', h('b', {}, String(p.score_now))),
      ...TYPES.map((t, i) => (p.counts[i] ? h('span', { title: t, style: { color: TYPE_COLORS[t] } }, `${TYPE_LETTER[t]} ${p.counts[i]}`) : null))))));
  },
};
