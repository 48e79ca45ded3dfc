// Knights Templar: the Fate row, the Grand Master, the deck and discards, and each player's tableau.

import { h, s, seatDot, listText } from '../dom.js';
import { svgRoot, textBlock, label, cross, seatMark, textWidth } from './svg.js';
import { t, formatNumber } from '../i18n.js';

/** `name`, cut to at most `max` characters with an ellipsis. */
const short = (name, max) => (name.length > max ? `${name.slice(0, max - 1)}…` : name);

const TYPES = ['legacy', 'ally', 'county', 'treasure', 'mission', 'power', 'battle', 'enemy', 'downfall'];
const TYPE_COLORS = {
  legacy: '#6c4f9e', ally: '#2e6fb0', county: '#3d8b3d', treasure: '#c99a1c', mission: '#a0522d',
  power: '#d46a1f', battle: '#9b1c1c', enemy: '#2d2d2d', downfall: '#7d7d7d',
};
// Darker shades for text on white (4.5:1 contrast).
const TYPE_TEXT = {
  legacy: '#5b3f8c', ally: '#245a91', county: '#2a6a2a', treasure: '#7a5a00', mission: '#8a4422',
  power: '#9a4a0e', battle: '#9b1c1c', enemy: '#2d2d2d', downfall: '#555555',
};
const TYPE_LETTER = { legacy: 'L', ally: 'A', county: 'C', treasure: 'T', mission: 'M', power: 'P', battle: 'B', enemy: 'E', downfall: 'D' };
// How many cards of each type, in TYPES order: ids 1–95 run through the types in this order
// (the engine's card list; crates/knights-templar/tests/web_client.rs checks this table against it).
const TYPE_SIZES = [10, 10, 8, 7, 16, 16, 7, 8, 13];

/** A card's type from its id (static card data: the view sends bare ids). */
function kindOf(id) {
  let last = 0;
  for (let i = 0; i < TYPES.length; i += 1) {
    last += TYPE_SIZES[i];
    if (id <= last) return TYPES[i];
  }
  return null;
}

/** Room for a line of a player's plate: from its text's left edge to the plate's right edge, less a margin. */
const PLATE_LINE = 156;

/**
 * A line of a player's plate, kept inside the plate whatever the language: a smaller font down to
 * 9px, then squeezed to the room (the tableau's cards start just right of the plate).
 */
function plateLine(x, y, text, size, attrs = {}) {
  let px = size;
  while (px > 9 && textWidth(text, px) > PLATE_LINE) px -= 1;
  const squeeze = textWidth(text, px) > PLATE_LINE ? { textLength: PLATE_LINE, lengthAdjust: 'spacingAndGlyphs' } : {};
  return label(x, y, text, { ...attrs, 'font-size': px, ...squeeze });
}

/** A card id as the drawing code uses it, with its type; names come from the rules texts ("card 12" until they load). */
function cardOf(id) {
  return { id, kind: kindOf(id), name: t('kt.card_n', { id }) };
}

/**
 * The view as the server sends it (lean, see docs/games/knights-templar.md: bare card ids, the
 * Fate row as an object keyed by card id, who picks as `pick_order`, the scores by seat)
 * expanded into what the drawing code reads: cards with their names and types, the Fate row as
 * a list, each seat's per-type counts, score, picks and pick flag, and who acts. Exported for
 * crates/knights-templar/tests/web_client.rs, which checks it against the engine's typed view.
 */
export function expand(view) {
  if (!view || Array.isArray(view.fate)) return view;
  const fate = Object.keys(view.fate || {}).map(Number).sort((a, b) => a - b).map(cardOf);
  const p = view.pending || { kind: 'over' };
  const order = view.pick_order || [];
  // While the Select Phase waits for anything but a nomination, the last seat called is still
  // picking; a pick is that seat's, a nomination the Grand Master's.
  const picking = view.stage === 'select' && p.kind !== 'nominate' && order.length ? order[order.length - 1] : null;
  let seat = typeof p.seat === 'number' ? p.seat : null;
  if (p.kind === 'pick') seat = picking;
  else if (p.kind === 'nominate') seat = view.grand_master;
  const seats = view.seats.map((x) => {
    const called = order.includes(x.seat);
    return {
      ...x,
      tableau: x.tableau.map(cardOf),
      // Cards of each type, counted by their printed type (the score and who is called to pick
      // come from the server: the client holds no rules).
      counts: TYPES.map((kind) => x.tableau.filter((id) => kindOf(id) === kind).length),
      score_now: (view.scores || [])[x.seat] || 0,
      picked_this_round: called && x.seat !== picking,
      // Every seat is called once per round; the seat still to take its card has not picked.
      fate_picks: Math.max(0, (view.round || 1) - 1) + (called && !(x.seat === picking && p.kind === 'pick') ? 1 : 0),
    };
  });
  const pending = { ...p, seat };
  if (p.kind === 'nominate') pending.gm = seat;
  if (typeof p.card === 'number') pending.card = cardOf(p.card);
  if (Array.isArray(p.options)) pending.options = p.options.map(([s, id]) => [s, cardOf(id)]);
  if (Array.isArray(p.cards)) pending.cards = p.cards.map(cardOf);
  if (p.kind === 'target' || p.kind === 'ally_choice') pending.resolver = seat;
  return {
    ...view,
    fate,
    seats,
    pending,
    discard: (view.discard || []).map((d) => ({ card: typeof d.card === 'number' ? cardOf(d.card) : null, face_down: !!d.face_down })),
    to_act: seat === null ? [] : [seat],
  };
}

function cardName(view, id) {
  const all = [...view.fate, ...view.seats.flatMap((p) => p.tableau), ...view.discard.filter((d) => d.card).map((d) => d.card)];
  if (view.pending && view.pending.options) all.push(...view.pending.options.map(([, c]) => c));
  if (view.pending && view.pending.cards) all.push(...view.pending.cards);
  if (view.pending && view.pending.card) all.push(view.pending.card);
  const card = all.find((c) => c.id === id);
  return card ? card.name : t('kt.card_n', { id });
}

// The rules texts of the game being drawn (names in the interface's language), set by each drawing.
let names = null;

/** A card's name in the interface's language (the rules texts'), else the view's. */
function cardTitle(card) {
  return (names && names.tname('card', card.id, null)) || card.name;
}

/** A card type's name ("ally"), from the rules texts' `type:<kind>`, else the interface catalog. */
function typeName(kind) {
  return (names && names.tname('type', kind, null)) || t(`kt.type.${kind}`);
}

/**
 * A card's header within `room` px: its type letter and name, or where that does not fit (a narrow
 * card, a long German type name) the name alone in a smaller size, cut short if even that is too
 * long: it would run past a tableau card, under the next card. Widths are measured in the board's
 * bold face.
 */
function cardHeader(kind, room) {
  const name = typeName(kind);
  const full = `${TYPE_LETTER[kind] || '?'} · ${name}`;
  const fits = (text, size) => textWidth(text, size, { bold: true }) <= room;
  if (fits(full, 11)) return { text: full, size: 11 };
  let max = name.length;
  while (max > 1 && !fits(short(name, max), 10)) max -= 1;
  return { text: short(name, max), size: 10 };
}

/**
 * `text` with every word wider than `room` px (what fits across the card at `size` px) split into
 * even pieces that end in a hyphen, as few as fit: a long German name ("Handelsunternehmen") would
 * run past a narrow card.
 */
function hyphenate(text, room, size) {
  const fits = (piece) => textWidth(piece, size) <= room;
  return String(text).split(' ').map((word) => {
    if (fits(word)) return word;
    for (let pieces = 2; pieces < word.length; pieces += 1) {
      const step = Math.ceil(word.length / pieces);
      const out = [];
      for (let i = 0; i < word.length; i += step) out.push(word.slice(i, i + step));
      const hyphened = out.map((piece, i) => (i < out.length - 1 ? `${piece}-` : piece));
      if (hyphened.every(fits)) return hyphened.join(' ');
    }
    return word;
  }).join(' ');
}

/** One card: a coloured frame, its type letter and its name. */
function card(x, y, w, hgt, c, attrs = {}) {
  const color = TYPE_COLORS[c.kind] || '#555';
  const header = cardHeader(c.kind, w - 10);
  const width = Math.max(6, Math.floor(w / 7));
  const size = w < 70 ? 10 : 12;
  return s('g', { class: 'kt-card', ...attrs },
    s('rect', { class: 'hit', x, y, width: w, height: hgt, rx: 6, fill: '#fffdf7', stroke: color, 'stroke-width': 2.5 }),
    s('rect', { x, y, width: w, height: 18, rx: 6, fill: color }),
    s('text', { x: x + 6, y: y + 10, 'font-size': header.size, fill: 'white', 'font-weight': 'bold', 'dominant-baseline': 'middle' }, header.text),
    textBlock(x + w / 2, y + 18 + (hgt - 18) / 2, hyphenate(cardTitle(c), w - 6, size), { width, size }));
}

function cardBack(x, y, w, hgt, text) {
  return s('g', {},
    s('rect', { x, y, width: w, height: hgt, rx: 6, fill: '#5b3a1e', stroke: '#2b1a0c', 'stroke-width': 2 }),
    cross(x + w / 2, y + hgt / 2 - 8, 14, '#c0392b'),
    s('text', { x: x + w / 2, y: y + hgt - 14, 'font-size': 12, fill: '#f6efe2', 'text-anchor': 'middle' }, text));
}

/** An event's template key: its type, or a variant of it (`picked_auto`, `grand_master_new`…). */
function logKey(e) {
  switch (e.type) {
    case 'picked': return e.automatic ? 'picked_auto' : 'picked';
    case 'nominated': return e.automatic ? 'nominated_auto' : 'nominated';
    case 'power_drawers': return e.seats && e.seats.length ? 'power_drawers' : 'power_none';
    case 'grand_master': return e.changed ? 'grand_master_new' : 'grand_master_stays';
    case 'county_point': return e.seat === null || e.seat === undefined ? 'county_none' : 'county_point';
    case 'game_ended': return `game_ended_${e.reason}`;
    default: return e.type;
  }
}

const SEAT_FIELDS = ['seat', 'gm', 'owner', 'from'];
const CARD_FIELDS = ['card', 'enemy', 'battle', 'ally'];

export default {
  /**
   * A log line in the interface's language from the event's data (`kt.log.<type>` templates, names
   * from the rules texts); null for an event it does not know, whose server sentence is shown.
   */
  logText(e, c) {
    if (!e || typeof e.type !== 'string') return null;
    const key = `kt.log.${logKey(e)}`;
    if (t(key) === key) return null;
    const card = (id) => c.tname('card', id, t('kt.card_n', { id }));
    const p = {};
    for (const [k, v] of Object.entries(e)) {
      if (SEAT_FIELDS.includes(k) && typeof v === 'number') p[k] = c.name(v);
      else if (CARD_FIELDS.includes(k) && typeof v === 'number') p[k] = card(v);
      else if (k === 'cards' && Array.isArray(v)) p[k] = listText(v.map(card));
      else if (k === 'fate' && Array.isArray(v)) p[k] = listText(v.map(card));
      else if (k === 'seats' && Array.isArray(v)) p[k] = listText(v.map(c.name));
      else if (typeof v === 'number') p[k] = formatNumber(v);
    }
    if (e.type === 'setup_draw') {
      p.hands = (e.hands || []).map((hand) => t('kt.log.setup_hand', { seat: c.name(hand.seat), cards: listText(hand.cards.map(card)), missions: formatNumber(hand.missions) })).join('; ');
    }
    return t(key, p);
  },

  /** The decision now, as the rules texts name it. */
  steps(lean) {
    const view = expand(lean);
    return [view.pending && view.pending.kind, view.stage];
  },

  label(action, lean, c) {
    const view = expand(lean);
    // Names from the rules texts first: the replay labels moves without a view of that moment.
    const n = (id) => c.tname('card', id, view ? cardName(view, id) : t('kt.card_n', { id }));
    switch (action.type) {
      case 'pick': return t('kt.a.pick', { card: n(action.card) });
      case 'nominate': return t('kt.a.nominate', { name: c.name(action.seat) });
      case 'target': return t('kt.a.target', { card: n(action.card) });
      case 'keep': return t('kt.a.keep', { card: n(action.card) });
      default: return null;
    }
  },

  board(lean, c) {
    names = c;
    const view = expand(lean);
    const W = 1000;
    const rowH = 96;
    const out = [];
    // Row 1: the Fate row, its cards narrowed so that any number of them fits the board's width.
    out.push(label(16, 18, t('kt.heading', { turn: view.turn, round: view.round, stage: c.tname('stage', view.stage, view.stage.replace('_', ' ')) }), { 'font-size': 15, 'font-weight': 'bold' }));
    out.push(label(16, 40, t('kt.fate_row'), { 'font-size': 13, fill: '#6a5a48' }));
    const nFate = Math.max(view.fate.length, 1);
    const fw = Math.min(104, Math.floor((W - 32 - (nFate - 1) * 8) / nFate));
    view.fate.forEach((f, i) => {
      out.push(c.bind(c.term(card(16 + i * (fw + 8), 52, fw, 132, f, { dataset: { card: f.id } }), 'card', f.id), (a) => a.type === 'pick' && a.card === f.id));
    });
    // Row 2: the deck, the discard pile, and the Ally choice for its resolver.
    const r2 = 200;
    out.push(c.term(s('g', { dataset: { card: 'deck' } }, cardBack(16, r2 + 18, 76, 96, t('kt.in_deck', { n: formatNumber(view.deck_count) }))), 'field', 'deck_count'));
    out.push(label(110, r2 + 8, t('kt.discard', { n: formatNumber(view.discard.length) }), { 'font-size': 13, fill: '#6a5a48' }));
    view.discard.slice(-3).forEach((d, i) => {
      const x = 110 + i * 70;
      if (d.card) out.push(c.term(card(x, r2 + 18, 64, 96, d.card, { dataset: { card: d.card.id } }), 'card', d.card.id));
      else out.push(cardBack(x, r2 + 18, 64, 96, t('kt.face_down')));
    });
    if (view.pending.kind === 'ally_choice' && view.pending.cards) {
      const ax = 340;
      const n = view.pending.cards.length;
      const aw = Math.min(96, Math.floor((W - 16 - ax - (n - 1) * 8) / Math.max(n, 1)));
      out.push(label(ax, r2 + 8, t('kt.keep_one_ally'), { 'font-size': 13, 'font-weight': 'bold', fill: '#8b1e1e' }));
      view.pending.cards.forEach((a, i) => out.push(c.bind(c.term(card(ax + i * (aw + 8), r2 + 18, aw, 96, a, { dataset: { card: a.id } }), 'card', a.id), (x) => x.type === 'keep' && x.card === a.id)));
    }
    const top = r2 + 130;
    const cols = view.seats.length > 4 ? 2 : 1;
    const colW = W / cols;
    const rows = Math.ceil(view.seats.length / cols);
    const H = top + rows * rowH + 10;
    // Each player's tableau: one column of rows, two side by side past four players, so that a big
    // table is not drawn as a thin strip.
    view.seats.forEach((p, i) => {
      const col = Math.floor(i / rows);
      const x0 = col * colW;
      const y = top + (i % rows) * rowH;
      const acting = view.to_act.includes(p.seat);
      const gm = view.grand_master === p.seat;
      const plate = s('g', { dataset: { seat: p.seat } },
        s('rect', { class: 'hit', x: x0 + 8, y, width: 170, height: rowH - 8, rx: 8, fill: acting ? '#fff3c4' : '#fbf5e8', stroke: c.color(p.seat), 'stroke-width': 3 }),
        s('circle', { cx: x0 + 24, cy: y + 18, r: 8, fill: c.color(p.seat), stroke: '#1b1b1b' }),
        seatMark(x0 + 24, y + 18, 4, p.seat),
        label(x0 + 36, y + 18, short(c.name(p.seat), gm ? 10 : 17), { 'font-weight': 'bold', 'font-size': 14 }),
        plateLine(x0 + 18, y + 42, t('kt.score_now', { n: formatNumber(p.score_now) }), 12),
        plateLine(x0 + 18, y + 60, t('kt.county_picks', { vp: formatNumber(p.county_vp), picks: formatNumber(p.fate_picks) }), 11, { fill: '#7a6a58' }),
        p.picked_this_round ? plateLine(x0 + 18, y + 77, `✓ ${t('kt.picked')}`, 11, { fill: '#2f6b3a' }) : null);
      if (gm) {
        // Top right, beside a name shortened to make room: the lines below keep the plate's width.
        plate.append(c.term(s('g', {}, s('rect', { x: x0 + 128, y: y + 6, width: 44, height: 24, rx: 5, fill: '#8b1e1e' }),
          label(x0 + 150, y + 18, `${t('kt.gm')} ♛`, { 'font-size': 12, fill: 'white', 'text-anchor': 'middle', 'font-weight': 'bold' })), 'field', 'grand_master'));
      }
      out.push(c.bind(plate, (a) => a.type === 'nominate' && a.seat === p.seat, t('kt.a.nominate', { name: c.name(p.seat) })));
      const n = p.tableau.length;
      const avail = colW - 200;
      const cw = 66;
      if (n * (cw + 4) <= avail) {
        p.tableau.forEach((tc, j) => {
          out.push(c.bind(c.term(card(x0 + 192 + j * (cw + 4), y, cw, rowH - 8, tc, { dataset: { card: tc.id } }), 'card', tc.id), (a) => a.type === 'target' && a.card === tc.id));
        });
      } else {
        // Too many to lay out: one column per card type, a line per card.
        const groups = TYPES.map((kind) => p.tableau.filter((x) => x.kind === kind)).filter((g) => g.length);
        const gw = Math.floor(avail / groups.length) - 4;
        groups.forEach((group, gi) => {
          const gx = x0 + 192 + gi * (gw + 4);
          const color = TYPE_COLORS[group[0].kind];
          // One target per group (a line per card would be a 10px target): a click lists its cards.
          const box = s('g', { dataset: { group: `${p.seat}-${group[0].kind}` } },
            s('rect', { class: 'hit', x: gx, y, width: gw, height: rowH - 8, rx: 6, fill: '#fffdf7', stroke: color, 'stroke-width': 2 }),
            s('rect', { x: gx, y, width: gw, height: 16, rx: 6, fill: color }),
            label(gx + 3, y + 8, `${gw < 80 ? TYPE_LETTER[group[0].kind] : typeName(group[0].kind)} ×${group.length}`, { 'font-size': 10, fill: 'white', 'font-weight': 'bold' }));
          const per = Math.floor((rowH - 26) / 12);
          group.slice(0, per).forEach((tc, k) => {
            const more = k === per - 1 && group.length > per ? ` +${group.length - per}` : '';
            box.append(label(gx + 3, y + 25 + k * 12, `${cardTitle(tc).slice(0, Math.max(3, Math.floor((gw - 6) / 6) - more.length))}${more}`, { 'font-size': 10 }));
          });
          out.push(c.bind(c.term(box, 'type', group[0].kind), (a) => a.type === 'target' && group.some((tc) => tc.id === a.card)));
        });
      }
      if (!n) out.push(label(x0 + 196, y + rowH / 2 - 4, t('kt.no_cards'), { fill: '#6a5a48' }));
    });
    return svgRoot(W, H, s('rect', { x: 0, y: 0, width: W, height: H, fill: '#efe4cc', rx: 10 }), ...out);
  },

  turn(lean, c) {
    names = c;
    const view = expand(lean);
    const p = view.pending;
    let text = '';
    if (p.kind === 'pick') text = t('kt.now.pick', { name: c.name(p.seat) });
    else if (p.kind === 'nominate') text = t('kt.now.nominate', { name: c.name(p.gm) });
    else if (p.kind === 'target') text = t('kt.now.target', { name: c.name(p.resolver), card: cardTitle(p.card), type: typeName(p.card.kind) });
    else if (p.kind === 'ally_choice') text = t('kt.now.ally_choice', { name: c.name(p.resolver) });
    else if (view.end) text = view.end === 'five_downfall' ? t('kt.now.five_downfall') : t('kt.now.deck_empty');
    const keep = p.kind === 'ally_choice' && p.cards
      ? h('div', { class: 'hand' }, ...p.cards.map((a) => {
        const chip = h('span', { class: 'chip', style: { borderColor: TYPE_COLORS[a.kind] } }, cardTitle(a));
        return c.bind(c.term(chip, 'card', a.id), (x) => x.type === 'keep' && x.card === a.id);
      }))
      : null;
    return h('div', {}, h('h2', {}, t('board.now')), h('p', {}, text), keep);
  },

  players(lean, c) {
    const view = expand(lean);
    return h('div', { class: 'player-boards' }, ...view.seats.map((p) => h('div', {
      class: ['pboard', view.to_act.includes(p.seat) ? 'acting' : null], style: { '--seat': c.color(p.seat) },
    },
    h('div', {}, seatDot(p.seat), ' ', h('span', { class: 'pname' }, c.name(p.seat)), view.grand_master === p.seat ? h('span', { class: 'tag' }, t('kt.grand_master')) : null, c.mine(p.seat) ? h('span', { class: 'tag' }, t('board.you')) : null),
    h('div', { class: 'stats' },
      h('span', {}, `${t('kt.score')} `, h('b', {}, formatNumber(p.score_now))),
      ...TYPES.map((kind, i) => (p.counts[i] ? c.term(h('span', { class: 'type-count', style: { color: TYPE_TEXT[kind] } }, `${TYPE_LETTER[kind]} ${p.counts[i]}`), 'type', kind) : null))))));
  },
};
