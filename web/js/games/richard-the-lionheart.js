// Richard the Lionheart: the England map with the players' figures, the four Crusade tracks, the
// round, the event; each player's coins, prestige, hand and purchases.

import { h, s, seatDot, titleCase, listText } from '../dom.js';
import { svgPanel, boardPanels, label, coin, pawn, seatMark, textWidth } from './svg.js';
import { logLine, sortedEntries } from './common.js';
import { t, formatNumber } from '../i18n.js';

const POS = {
  york: [430, 150], grimsby: [560, 215], sherwood: [450, 275], nottingham: [400, 345], chester: [240, 245],
  shrewsbury: [260, 360], norwich: [640, 390], cambridge: [530, 430], oxford: [400, 470], gloucester: [290, 465],
  cardiff: [150, 520], bristol: [250, 560], bridgewater: [170, 630], salisbury: [330, 620], london: [510, 545], canterbury: [640, 600],
};
const RED = new Set(['bridgewater', 'canterbury', 'norwich', 'oxford', 'salisbury', 'sherwood', 'shrewsbury', 'york']);
const SEGMENTS = [
  ['bridgewater', 'bristol'], ['bridgewater', 'salisbury'], ['bristol', 'gloucester'], ['bristol', 'salisbury'], ['cambridge', 'london'],
  ['cambridge', 'norwich'], ['cambridge', 'nottingham'], ['canterbury', 'london'], ['canterbury', 'salisbury'], ['cardiff', 'gloucester'],
  ['chester', 'shrewsbury'], ['chester', 'york'], ['gloucester', 'oxford'], ['gloucester', 'shrewsbury'], ['grimsby', 'sherwood'],
  ['grimsby', 'york'], ['london', 'salisbury'], ['nottingham', 'oxford'], ['nottingham', 'sherwood'], ['nottingham', 'shrewsbury'],
  ['oxford', 'salisbury'], ['sherwood', 'york'],
];
const WATER = [['bridgewater', 'cardiff'], ['bristol', 'cardiff'], ['canterbury', 'norwich'], ['cardiff', 'chester'], ['grimsby', 'norwich'], ['london', 'oxford']];
// The figures that stand on a location: field name, ink and paper of their tag.
const NPCS = [['merchant', '#5a4100', '#fff6d8'], ['mercenary', '#6b1d1d', '#fbe6e2']];
// A tag under Sherwood stands to the right: straight below, Nottingham's name is there.
const TAG_DX = { sherwood: 30 };
const CARD_TYPES = ['RB', 'RH', 'RC', 'GB', 'GH', 'GC'];
const CARD_NAMES = { RB: "Richard's Banner", RH: 'Empty Hourglass', RC: 'Full Chest', GB: "Saladin's Banner", GH: 'Full Hourglass', GC: 'Empty Chest' };
const TRACKS = [['ra', "Richard's Army", '#c0392b', false], ['sa', "Saladin's Army", '#2f9e44', false], ['kr', 'King’s Return', '#b8860b', true], ['kt', 'King’s Treasure', '#5a4a9a', true]];

// The rules texts of the game being drawn (names in the interface's language), set by each drawing
// and label; the English names above are the fallback.
let names = null;
const named = (kind, id, fallback) => (names ? names.tname(kind, id, fallback) : fallback);

/** The ending condition in words: `condition:<n>` of the rules texts, else the interface catalog's. */
function condition(n) {
  return named('condition', n, t('rl.condition', { n }));
}

function place(id) {
  return named('location', id, titleCase(id));
}
function purchase(p) {
  if (!p) return '';
  if (p.item === 'specific_card') return `${p.card} (${named('card', p.card, CARD_NAMES[p.card] || '')})`;
  return named('purchase', p.item, titleCase(p.item));
}
const TRACK_NAMES = { RA: "Richard's Army", SA: "Saladin's Army", KR: "King's Return", KT: "King's Treasure" };
function choice(ch, cn = (code) => CARD_NAMES[code] || code) {
  if (!ch) return '';
  const track = (key) => named('track', key, TRACK_NAMES[key]);
  switch (ch.kind) {
    case 'plain': return '';
    case 'take': return `: ${t('rl.choice.take', { card: cn(ch.card) })}`;
    case 'return': return `: ${t('rl.choice.return', { card: cn(ch.card) })}`;
    case 'track': return `: ${t('rl.choice.track', { track: track(String(ch.track).toUpperCase()) || ch.track })}`;
    case 'clauses': return `: ${listText([ch.treasure ? t('rl.choice.chests', { track: track('KT') }) : null, ch.king_return ? t('rl.choice.hourglasses', { track: track('KR') }) : null].filter(Boolean)) || t('rl.nothing')}`;
    default: return ` — ${JSON.stringify(ch)}`;
  }
}

// How each field of an event is written in a log line (see logLine in common.js).
const LOG_SPEC = {
  seat: 'seat', first: 'seat', thief: 'seat', victim: 'seat', winners: 'seats', character: 'character', event: 'event',
  side: 'side', location: 'location', to: 'location', card: 'card', track: 'track', edict: 'edict', merchant: 'location',
  mercenary: 'location', winning_side: 'faction',
};

function logKey(e) {
  switch (e.kind) {
    case 'coins': return e.delta >= 0 ? 'coins_gained' : 'coins_paid';
    case 'prestige': return e.delta >= 0 ? 'prestige_gained' : 'prestige_lost';
    case 'event_resolved': return e.applied ? 'event_applied' : 'event_no_effect';
    case 'game_ended': return e.winning_side ? 'game_ended_side' : 'game_ended_ten_rounds';
    default: return e.kind;
  }
}

/** Card counts (`[RB, RH, RC, GB, GH, GC]`) in words: "2 Richard's Banner, 1 Full Chest". */
function countsText(counts, c) {
  const parts = CARD_TYPES.map((code, i) => (counts && counts[i] ? `${counts[i]} ${c.tname('card', code, CARD_NAMES[code])}` : null)).filter(Boolean);
  return parts.length ? parts.join(', ') : t('rl.nothing');
}

/** Whose side a player is on, in one short word for the board (Richard, John, Neutral); the players list has it in full. */
function leaderName(p) {
  const id = p.side || p.faction;
  return id ? titleCase(id) : '?';
}

/** A player's side or faction as the rules texts name it. */
function sideName(p) {
  if (p.side) return named('side', p.side, p.side);
  if (p.faction) return named('faction', p.faction, p.faction);
  return '';
}

/** Where a player stands now: the end of the path while moving. */
function whereIs(view, p) {
  const m = view.stage.movement;
  if (m && view.stage.seat === p.seat && m.path && m.path.length) return m.path[m.path.length - 1];
  return p.location;
}

export default {
  /** The decision now, as the rules texts name it. */
  steps(view) {
    return [view.stage && view.stage.name];
  },

  /** A log line in the interface's language from the event's data; null for one it cannot word. */
  logText(e, c) {
    if (!e || typeof e.kind !== 'string') return null;
    names = c;
    const extra = { delta: formatNumber(Math.abs(e.delta || 0)) };
    if (e.cards && Array.isArray(e.cards)) extra.cards = countsText(e.cards, c);
    if (e.drawn) extra.drawn = countsText(e.drawn, c);
    if (e.verdicts) for (const k of ['banners', 'hourglasses', 'chests']) extra[k] = named('verdict', e.verdicts[k], e.verdicts[k]);
    if (e.purchase) extra.purchase = purchase(e.purchase);
    return logLine('rl', logKey(e), e, c, LOG_SPEC, extra);
  },

  label(action, view, c) {
    if (c) names = c;
    const cn = (code) => (c ? c.tname('card', code, CARD_NAMES[code] || code) : CARD_NAMES[code] || code);
    switch (action.type) {
      case 'choose_character': return t('rl.a.choose_character', { name: c ? c.tname('character', action.character, titleCase(action.character)) : titleCase(action.character) });
      case 'choose_side': return named('side', action.side, t('rl.a.choose_side', { side: titleCase(action.side) }));
      case 'use_captor': return t('rl.a.use_captor');
      case 'decline': return t('rl.a.decline');
      case 'place': return t('rl.a.place', { place: place(action.location) });
      case 'step': return t('rl.a.step', { place: place(action.to) });
      case 'steal': return t('rl.a.steal');
      case 'stop': return t('rl.a.stop');
      case 'perform': {
        const me = view && view.players && view.players.find((p) => p.hand);
        return `${me && me.location ? t('rl.a.perform_at', { place: place(me.location) }) : t('rl.a.perform')}${choice(action.choice, cn)}`;
      }
      case 'keep_edict': return t('rl.a.keep_edict', { edict: c ? c.tname('edict', action.edict, action.edict) : action.edict });
      case 'take_card': return t('rl.a.take_card', { card: cn(action.card) });
      case 'return_card': return t('rl.a.return_card', { card: cn(action.card) });
      case 'buy': return t('rl.a.buy', { item: purchase(action.purchase) });
      case 'trade': return t('rl.a.trade', { card: cn(action.card) });
      case 'contribute': return t('rl.a.contribute', { card: cn(action.card) });
      case 'end_contribution': return t('rl.a.end_contribution');
      default: return null;
    }
  },

  board(view, c) {
    // Two panels: the map of England (left) and the round, tracks and market (right); stacked on a phone.
    names = c;
    const MX = 80;
    const MY = 40;
    const MW = 640;
    const MH = 660;
    const out = [s('rect', { x: MX, y: MY, width: MW, height: MH, fill: '#a9cbe0', rx: 10 })];
    out.push(s('path', { d: 'M380,60 Q520,80 600,190 Q700,330 690,420 Q720,560 690,640 Q500,690 300,675 Q120,690 110,600 Q90,520 200,480 Q180,400 210,300 Q200,200 300,150 Q330,80 380,60Z', fill: '#dfe8c8', stroke: '#7d8f5a', 'stroke-width': 2 }));
    for (const [a, b] of SEGMENTS) out.push(s('line', { x1: POS[a][0], y1: POS[a][1], x2: POS[b][0], y2: POS[b][1], stroke: '#8a7456', 'stroke-width': 4 }));
    for (const [a, b] of WATER) out.push(s('line', { x1: POS[a][0], y1: POS[a][1], x2: POS[b][0], y2: POS[b][1], stroke: '#3a78b0', 'stroke-width': 3, 'stroke-dasharray': '8 6' }));
    const path = view.stage.movement ? view.stage.movement.path || [] : [];
    for (const [id, [x, y]] of Object.entries(POS)) {
      const red = RED.has(id);
      const g = s('g', { dataset: { location: id } },
        s('circle', { class: 'hit', cx: x, cy: y, r: 26, fill: red ? '#f4c7c0' : '#c8e6c4', stroke: red ? '#a33' : '#2f7a3a', 'stroke-width': path.includes(id) ? 4 : 2 }),
        label(x, y - 34, place(id), { 'text-anchor': 'middle', 'font-size': 12, 'font-weight': 'bold' }));
      const here = view.players.filter((p) => whereIs(view, p) === id);
      here.forEach((p, i) => g.append(pawn(x - (here.length - 1) * 8 + i * 16, y + 4, 11, c.color(p.seat), { dataset: { piece: `player-${p.seat}` } })));
      out.push(c.bind(c.term(g, 'location', id), (a) => (a.type === 'place' && a.location === id) || (a.type === 'step' && a.to === id), undefined));
    }
    // The Merchant and the Mercenary: a tag under their location's circle, drawn after every location
    // so that nothing covers it (at its side a figure standing there or a neighbour's name did).
    for (const [key, ink, paper] of NPCS) {
      const id = view[key];
      if (!POS[id]) continue;
      const name = named('field', key, t(`rl.${key}`));
      const w = textWidth(name, 10, { italic: true }) + 12;
      const x = POS[id][0] + (TAG_DX[id] || 0);
      const y = POS[id][1] + 38;
      out.push(c.term(s('g', { dataset: { piece: key } },
        s('rect', { x: x - w / 2, y: y - 7, width: w, height: 14, rx: 7, fill: paper, stroke: ink, 'stroke-width': 0.8 }),
        label(x, y, name, { 'font-size': 10, fill: ink, 'font-style': 'italic', 'text-anchor': 'middle' })), 'field', key));
    }
    const map = out;
    // The side panel: round, Crusade tracks, event, decks.
    const px = 720;
    const PW = 276;
    const side = [];
    side.push(label(px + 4, 28, t('rl.round', { n: view.round }), { 'font-weight': 'bold', 'font-size': 15 }));
    for (let r = 1; r <= 10; r++) {
      side.push(s('rect', { x: px + 4 + (r - 1) * 26, y: 40, width: 22, height: 18, rx: 3, fill: r === view.round ? '#8b1e1e' : r < view.round ? '#d9c9ad' : 'white', stroke: '#8a7456' }),
        label(px + 15 + (r - 1) * 26, 50, String(r), { 'text-anchor': 'middle', 'font-size': 10, fill: r === view.round ? 'white' : '#333' }));
    }
    TRACKS.forEach(([key, name, color], i) => {
      const y = 84 + i * 52;
      const value = view.tracks[key];
      const tg = s('g', { dataset: { track: key } }, label(px + 4, y, `${c.tname('track', key, name)}: ${value}`, { 'font-size': 12, 'font-weight': 'bold', fill: color }));
      for (let v = 0; v <= 10; v++) {
        tg.append(s('rect', { x: px + 4 + v * 23, y: y + 10, width: 20, height: 20, rx: 3, fill: v === value ? color : 'white', stroke: color }),
          label(px + 14 + v * 23, y + 20, String(v), { 'text-anchor': 'middle', 'font-size': 10, fill: v === value ? 'white' : '#444' }));
      }
      side.push(c.term(tg, 'track', key));
    });
    let y = 300;
    if (view.active_event) {
      side.push(c.term(s('g', { dataset: { event: view.active_event.id } },
        label(px + 4, y, t('rl.event', { name: named('event', view.active_event.id, view.active_event.name) }), { 'font-size': 12, 'font-weight': 'bold' }),
        label(px + 4, y + 16, `(${view.active_event.timing === 'end' ? t('rl.at_round_end') : t('rl.this_round')})`, { 'font-size': 11, fill: '#6a5a48' })), 'event', view.active_event.id));
      y += 40;
    }
    side.push(label(px + 4, y, t('rl.decks', { provisions: view.decks.provisions, crusade: view.decks.crusade, events: view.decks.events }), { 'font-size': 11 }));
    y += 20;
    // The reserve and the display: one line per card type, its name written out, in two columns.
    for (const [title, counts] of [['Reserve', view.reserve], ['Display', view.display]]) {
      side.push(label(px + 4, y, `${t(`rl.${title.toLowerCase()}`)}:`, { 'font-size': 11, 'font-weight': 'bold' }));
      CARD_TYPES.forEach((code, i) => {
        const x = px + 4 + (i % 2) * 138;
        const ly = y + 16 + Math.floor(i / 2) * 15;
        side.push(c.term(s('g', { dataset: { card: `${title}-${code}` } }, label(x, ly, `${counts[i] || 0} ${c.tname('card', code, CARD_NAMES[code])}`, { 'font-size': 11, fill: code.startsWith('R') ? '#8b1e1e' : '#1e5a2a' })), 'card', code));
      });
      y += 16 + 3 * 15 + 4;
    }
    if (view.verdicts) {
      // One verdict per line, in two columns: on one line they run past the panel's edge.
      side.push(label(px + 4, y, `${t('rl.verdicts')}:`, { 'font-size': 11, 'font-weight': 'bold' }));
      ['banners', 'hourglasses', 'chests'].forEach((k, i) => {
        side.push(label(px + 4 + (i % 2) * 138, y + 16 + Math.floor(i / 2) * 15, `${t(`rl.verdict.${k}`)}: ${view.verdicts[k]}`, { 'font-size': 11 }));
      });
      y += 16 + 2 * 15 + 4;
    }
    y += 12;
    side.push(label(px + 4, y, t('rl.prices'), { 'font-size': 12, 'font-weight': 'bold' }));
    // Every price is a purchase of the rules texts but the third Crusade card's, which is a field.
    const priceName = (k) => named(k === 'third_card' ? 'field' : 'purchase', k, titleCase(k));
    // In key order: a snapshot lists the members as the engine declares them, a patch's value in
    // key order, and the prices should not move about between the two.
    sortedEntries(view.costs || {}).forEach(([k, v], i) => {
      side.push(coin(px + 14 + (i % 2) * 135, y + 22 + Math.floor(i / 2) * 26, 9, v), label(px + 28 + (i % 2) * 135, y + 22 + Math.floor(i / 2) * 26, priceName(k), { 'font-size': 11 }));
    });
    y += 22 + Math.ceil(Object.keys(view.costs || {}).length / 2) * 26 + 6;
    view.players.forEach((p, i) => {
      side.push(s('g', { dataset: { seat: p.seat } },
        s('circle', { cx: px + 12, cy: y + i * 20, r: 7, fill: c.color(p.seat), stroke: '#1b1b1b' }), seatMark(px + 12, y + i * 20, 3.5, p.seat),
        label(px + 24, y + i * 20, `${c.name(p.seat)}: ${p.character ? c.tname('character', p.character, titleCase(p.character)) : '?'} (${leaderName(p)})`, { 'font-size': 11 })));
    });
    const SH = y + view.players.length * 20 + 4;
    side.unshift(s('rect', { x: px - 8, y: 8, width: PW + 8, height: SH - 8, rx: 8, fill: '#f6efe2', stroke: '#8a7456' }));
    return boardPanels(
      { name: 'map', svg: svgPanel(MX, MY, MW, MH, ...map), width: MW, phoneMin: 560 },
      { name: 'side', svg: svgPanel(px - 10, 0, PW + 12, SH + 4, ...side), width: PW + 12 },
    );
  },

  turn(view, c) {
    names = c;
    const st = view.stage;
    const stageName = (c.texts.step(st.name) || {}).title || titleCase(st.name);
    const parts = [h('h2', {}, t('board.now')), h('p', {}, `${stageName}${st.seat !== null && st.seat !== undefined ? ` — ${c.name(st.seat)}` : ''}`)];
    if (st.movement) parts.push(h('p', { class: 'small' }, t('rl.moving', { place: place(st.movement.start), mp: st.movement.mp }), st.movement.path.length ? `; ${t('rl.path', { path: st.movement.path.map(place).join(' → ') })}` : ''));
    if (st.drawn_edict) parts.push(h('p', { class: 'small' }, `${t('rl.drew_edict')} `, c.term(h('b', {}, c.tname('edict', st.drawn_edict, st.drawn_edict)), 'edict', st.drawn_edict)));
    const me = view.players.find((p) => p.hand);
    if (me) {
      parts.push(h('div', { class: 'hand', 'data-testid': 'hand' }, h('span', { class: 'muted small' }, `${t('board.your_hand')} `),
        ...CARD_TYPES.map((code, i) => (me.hand[i] ? c.bind(c.term(h('span', { class: 'chip' }, `${me.hand[i]}× ${c.tname('card', code, CARD_NAMES[code])}`), 'card', code), (a) => (a.type === 'contribute' || a.type === 'return_card' || a.type === 'trade') && a.card === code) : null))));
      if (me.edict) parts.push(h('p', { class: 'small' }, `${t('rl.secret_edict')} `, c.term(h('b', {}, c.tname('edict', me.edict, me.edict)), 'edict', me.edict)));
    }
    const chars = c.matching((a) => a.type === 'choose_character');
    if (chars.length) parts.push(h('div', { class: 'hand' }, ...chars.map((a) => c.bind(c.term(h('span', { class: 'chip' }, c.tname('character', a.character, titleCase(a.character))), 'character', a.character), (x) => x === a))));
    if (view.result) parts.push(h('p', {}, view.result.winning_side ? t('rl.ended_side', { why: condition(view.result.condition), faction: named('faction', view.result.winning_side, titleCase(view.result.winning_side)) }) : t('rl.ended_none', { why: condition(view.result.condition) })));
    return h('div', {}, ...parts);
  },

  players(view, c) {
    return h('div', { class: 'player-boards' }, ...view.players.map((p) => h('div', { class: ['pboard', view.to_act.includes(p.seat) ? 'acting' : null], style: { '--seat': c.color(p.seat) } },
      h('div', {}, seatDot(p.seat), ' ', h('span', { class: 'pname' }, c.name(p.seat)), ' · ', p.character ? c.term(h('span', {}, c.tname('character', p.character, titleCase(p.character))), 'character', p.character) : '?',
        h('span', { class: 'tag' }, sideName(p)), c.mine(p.seat) ? h('span', { class: 'tag' }, t('board.you')) : null,
        view.first_player === p.seat ? h('span', { class: 'tag' }, t('rl.first')) : null),
      h('div', { class: 'stats' },
        h('span', {}, `${t('rl.prestige')} `, h('b', {}, formatNumber(p.prestige))),
        h('span', {}, `${t('rl.coins')} `, h('b', {}, formatNumber(p.coins))),
        h('span', {}, `${t('rl.cards')} `, h('b', {}, formatNumber(p.hand_count))),
        h('span', {}, whereIs(view, p) ? t('rl.at', { place: place(whereIs(view, p)) }) : t('rl.not_placed')),
        p.horse ? h('span', {}, named('purchase', 'horse', t('rl.horse'))) : null, p.ship ? h('span', {}, named('purchase', 'ship', t('rl.ship'))) : null, p.skill ? h('span', {}, named('purchase', 'skill', t('rl.skill'))) : null,
        p.contributed ? h('span', {}, t('rl.contributed', { n: p.contributed })) : null,
        p.edict ? c.term(h('span', {}, t('rl.edict', { name: c.tname('edict', p.edict, p.edict) })), 'edict', p.edict) : null))));
  },

  result(g) {
    const r = g.view && g.view.result;
    if (!r) return null;
    // Condition 5 has no winning faction: everyone who may win competes on Prestige Points, which is
    // what the "in the winning faction (may win)" line of the breakdown then counts.
    const why = condition(r.condition);
    return h('p', { class: 'muted', 'data-testid': 'result-condition' }, r.winning_side
      ? t('rl.result_side', { why, faction: named('faction', r.winning_side, titleCase(r.winning_side)) })
      : t('rl.result_none', { why }));
  },
};
