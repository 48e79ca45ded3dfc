// Small SVG drawing helpers shared by the boards.

import { s, SEAT_COLORS, seatInk } from '../dom.js';
import { t } from '../i18n.js';

/**
 * A seat's shape mark centred on (x, y), `r` its radius: circle, square, triangle, diamond, bar,
 * plus, ring, star for seats 0..7, so that pieces differ by shape as well as colour.
 */
export function seatMark(x, y, r, seat) {
  const ink = seatInk(seat);
  const k = seat % 8;
  const attrs = { fill: ink, class: 'seat-mark', 'data-mark': k };
  switch (k) {
    case 0: return s('circle', { cx: x, cy: y, r: r * 0.8, ...attrs });
    case 1: return s('rect', { x: x - r * 0.75, y: y - r * 0.75, width: r * 1.5, height: r * 1.5, ...attrs });
    case 2: return s('path', { d: `M${x},${y - r} L${x + r},${y + r * 0.8} L${x - r},${y + r * 0.8}Z`, ...attrs });
    case 3: return s('path', { d: `M${x},${y - r} L${x + r},${y} L${x},${y + r} L${x - r},${y}Z`, ...attrs });
    case 4: return s('rect', { x: x - r, y: y - r * 0.35, width: r * 2, height: r * 0.7, ...attrs });
    case 5: return s('path', { d: `M${x - r * 0.3},${y - r}h${r * 0.6}v${r * 0.7}h${r * 0.7}v${r * 0.6}h${-r * 0.7}v${r * 0.7}h${-r * 0.6}v${-r * 0.7}h${-r * 0.7}v${-r * 0.6}h${r * 0.7}z`, ...attrs });
    case 6: return s('circle', { cx: x, cy: y, r: r * 0.65, fill: 'none', stroke: ink, 'stroke-width': r * 0.45, class: 'seat-mark', 'data-mark': k });
    default: return s('path', { d: `M${x},${y - r} L${x + r * 0.3},${y - r * 0.3} L${x + r},${y} L${x + r * 0.3},${y + r * 0.3} L${x},${y + r} L${x - r * 0.3},${y + r * 0.3} L${x - r},${y} L${x - r * 0.3},${y - r * 0.3}Z`, ...attrs });
  }
}

function seatOf(fill) {
  return SEAT_COLORS.indexOf(fill);
}

/** Splits `text` into lines of at most about `width` characters. */
export function wrap(text, width) {
  const lines = [];
  let line = '';
  for (const word of String(text).split(/\s+/)) {
    if (line && (line + ' ' + word).length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

// A canvas measures text in the board's own font (SVG text inherits the page's), and the widths are
// kept: a board is drawn afresh at every version with mostly the same words.
let measurer = null;
let family = '';
const widths = new Map();

/**
 * The width of `text` drawn `size` px high in the board's font, bold and/or italic: measured, so that
 * a label can be fitted to its room. Without a canvas (no document) an estimate of 0.6 of the size
 * per character, which errs wide.
 */
export function textWidth(text, size, { bold = false, italic = false } = {}) {
  const str = String(text);
  if (measurer === null) {
    const canvas = typeof document !== 'undefined' ? document.createElement('canvas') : null;
    measurer = (canvas && canvas.getContext && canvas.getContext('2d')) || false;
    // Read once: asking for the computed style at every label would make the browser work out the
    // page's styles again in the middle of drawing a board.
    if (measurer) family = getComputedStyle(document.body).fontFamily;
  }
  if (!measurer) return str.length * size * 0.6;
  const font = `${italic ? 'italic ' : ''}${bold ? 'bold ' : ''}${size}px ${family}`;
  const key = `${font}\n${str}`;
  if (!widths.has(key)) {
    measurer.font = font;
    widths.set(key, measurer.measureText(str).width);
  }
  return widths.get(key);
}

/** A multi-line text centred on (x, y). */
export function textBlock(x, y, text, { width = 12, size = 11, lineHeight = 1.15, ...attrs } = {}) {
  const lines = wrap(text, width);
  const top = y - ((lines.length - 1) * size * lineHeight) / 2;
  return s('text', { x, y: top, 'font-size': size, 'text-anchor': 'middle', 'dominant-baseline': 'middle', ...attrs },
    ...lines.map((l, i) => s('tspan', { x, dy: i === 0 ? 0 : size * lineHeight }, l)));
}

/** A text label. */
export function label(x, y, text, attrs = {}) {
  return s('text', { x, y, 'font-size': 12, 'dominant-baseline': 'middle', ...attrs }, text);
}

/** A Templar-style cross marker centred on (x, y). */
export function cross(x, y, r, fill, attrs = {}) {
  const a = r * 0.38;
  const d = `M${x - a},${y - r}h${2 * a}v${r - a}h${r - a}v${2 * a}h${-(r - a)}v${r - a}h${-2 * a}v${-(r - a)}h${-(r - a)}v${-2 * a}h${r - a}z`;
  const seat = seatOf(fill);
  const path = s('path', { d, fill, stroke: '#1b1b1b', 'stroke-width': 1, ...attrs });
  return seat >= 0 ? s('g', {}, path, seatMark(x, y, a * 0.8, seat)) : path;
}

/** A pawn (knight) centred on (x, y). */
export function pawn(x, y, r, fill, attrs = {}) {
  const g = s('g', attrs,
    s('circle', { cx: x, cy: y - r * 0.55, r: r * 0.45, fill, stroke: '#1b1b1b', 'stroke-width': 1 }),
    s('path', { d: `M${x - r * 0.7},${y + r * 0.8} Q${x},${y - r * 0.6} ${x + r * 0.7},${y + r * 0.8} Z`, fill, stroke: '#1b1b1b', 'stroke-width': 1 }));
  const seat = seatOf(fill);
  if (seat >= 0) g.append(seatMark(x, y + r * 0.4, r * 0.28, seat));
  return g;
}

/** A coin with a number. */
export function coin(x, y, r, n) {
  return s('g', {},
    s('circle', { cx: x, cy: y, r, fill: '#e8bd35', stroke: '#8a6a10', 'stroke-width': 1.2 }),
    s('text', { x, y: y + 0.5, 'font-size': r * 1.1, 'text-anchor': 'middle', 'dominant-baseline': 'middle', 'font-weight': 'bold', fill: '#5a4100' }, String(n)));
}

/** An <svg> root with a viewBox. */
export function svgRoot(width, height, ...children) {
  // A group, not an image: it holds buttons and focusable pieces with names of their own.
  return s('svg', { viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': t('game.board'), preserveAspectRatio: 'xMidYMid meet' }, ...children);
}

/** An <svg> showing the part (x, y, width, height) of a board's coordinates. */
export function svgPanel(x, y, width, height, ...children) {
  return s('svg', { viewBox: `${x} ${y} ${width} ${height}`, role: 'group', 'aria-label': t('game.board'), preserveAspectRatio: 'xMidYMin meet' }, ...children);
}

/**
 * A board drawn as several panels (e.g. the map and its side panel), each `{svg, width, phoneMin}`.
 * Side by side on a wide screen, sized in proportion to their widths; stacked on a phone, where a
 * panel is never drawn narrower than `phoneMin` CSS pixels (so its text stays readable) and scrolls
 * sideways inside its own box instead of widening the page.
 */
export function boardPanels(...panels) {
  const box = document.createElement('div');
  box.className = 'board-panels';
  for (const { svg, width, phoneMin, name } of panels) {
    const panel = document.createElement('div');
    panel.className = 'board-panel';
    if (name) panel.dataset.panel = name;
    panel.style.flexGrow = String(width);
    if (phoneMin) panel.style.setProperty('--phone-min', `${phoneMin}px`);
    panel.append(svg);
    box.append(panel);
  }
  return box;
}
