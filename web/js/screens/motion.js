// Pieces and cards that move are animated from where they were drawn to where they are now (FLIP:
// the board is drawn afresh at every version, so each moved thing is shifted back to its old place
// and slides home). A thing that moves is any board element with `data-piece` (pawns, Templars,
// monks, the Pope…) or `data-card` (a card, by id). Players who ask for reduced motion get no slide:
// the pieces simply stand in their new places.

const SELECTOR = 'svg [data-piece], svg [data-card]';
const DURATION = 450; // ms: long enough to follow, short enough not to hold up the next move

function keyOf(el) {
  return el.dataset.piece !== undefined ? `piece:${el.dataset.piece}` : `card:${el.dataset.card}`;
}

/** Where each moving thing of `box` is on the screen now (its centre), by key. */
export function capture(box) {
  const at = new Map();
  for (const el of box.querySelectorAll(SELECTOR)) {
    const key = keyOf(el);
    if (at.has(key)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    at.set(key, { x: r.left + r.width / 2, y: r.top + r.height / 2 });
  }
  return at;
}

export function reducedMotion() {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Slides every thing of `box` that `before` (a capture of the previous drawing) saw elsewhere from
 * there to its place. Returns how many moved; `box.dataset.moved` says it too, and
 * `box.dataset.motion` whether they were animated ("slide") or not ("reduced").
 */
export function animateMoves(box, before) {
  if (!before) return 0;
  const reduced = reducedMotion();
  let moved = 0;
  const seen = new Set();
  for (const el of box.querySelectorAll(SELECTOR)) {
    const key = keyOf(el);
    if (seen.has(key)) continue;
    seen.add(key);
    const old = before.get(key);
    if (!old) continue;
    const r = el.getBoundingClientRect();
    const dx = old.x - (r.left + r.width / 2);
    const dy = old.y - (r.top + r.height / 2);
    if (Math.hypot(dx, dy) < 2) continue;
    moved += 1;
    if (reduced || !el.animate) continue;
    // The shift in the SVG's own units: CSS transforms of SVG elements are in user units.
    const ctm = el.parentNode && el.parentNode.getScreenCTM ? el.parentNode.getScreenCTM() : null;
    const sx = ctm && ctm.a ? ctm.a : 1;
    const sy = ctm && ctm.d ? ctm.d : 1;
    el.classList.add('moving');
    const anim = el.animate(
      [{ transform: `translate(${dx / sx}px, ${dy / sy}px)` }, { transform: 'translate(0px, 0px)' }],
      { duration: DURATION, easing: 'cubic-bezier(0.2, 0.7, 0.3, 1)', id: 'piece-move' },
    );
    anim.onfinish = () => el.classList.remove('moving');
  }
  box.dataset.moved = String(moved);
  box.dataset.motion = reduced ? 'reduced' : 'slide';
  return moved;
}
