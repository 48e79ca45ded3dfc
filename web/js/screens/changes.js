// Marks what the last move changed on a board: every board element that names a thing of the game
// (a territory, room, location, card, seat, space…) is compared with how it was drawn before the
// last version; those that differ get the class `changed` (an outline, and a short flash unless the
// player prefers reduced motion). Generic: no game module has to say what changed.

const KEYED = ['territory', 'space', 'edict', 'room', 'passage', 'storehouse', 'portal', 'location', 'card', 'seat', 'group', 'track'];
const SELECTOR = KEYED.map((k) => `svg [data-${k}]`).join(', ');
// Attributes that say how an element may be clicked, not what it shows.
const VOLATILE = ['class', 'tabindex', 'role', 'aria-label', 'aria-describedby', 'data-clickable', 'data-tip', 'data-term'];

function keyOf(el) {
  return KEYED.map((k) => (el.dataset[k] !== undefined ? `${k}=${el.dataset[k]}` : '')).join('|');
}

function signature(el) {
  const copy = el.cloneNode(true);
  for (const node of [copy, ...copy.querySelectorAll('*')]) for (const a of VOLATILE) node.removeAttribute(a);
  return copy.outerHTML;
}

/**
 * Compares the board in `box` with `before` (what markChanges returned for the previous drawing):
 * marks what changed when `version` moved on, keeps the marks while it did not. Returns the state
 * to pass next time.
 */
export function markChanges(box, before, version) {
  const now = new Map();
  for (const el of box.querySelectorAll(SELECTOR)) {
    const key = keyOf(el);
    if (!now.has(key)) now.set(key, { el, sig: signature(el) });
  }
  let changed;
  if (before && before.version !== version && before.sigs) {
    changed = new Set();
    for (const [key, { sig }] of now) {
      const old = before.sigs.get(key);
      if (old !== undefined && old !== sig) changed.add(key);
      if (old === undefined && before.sigs.size) changed.add(key);
    }
  } else {
    changed = before ? before.changed : new Set();
  }
  // Only the innermost changed element of a nest is marked, so a moved card is not lost in its row.
  for (const [key, { el }] of now) {
    if (!changed.has(key)) continue;
    const inner = [...el.querySelectorAll(SELECTOR)].some((d) => changed.has(keyOf(d)));
    if (!inner) el.classList.add('changed');
  }
  return { version, sigs: new Map([...now].map(([k, v]) => [k, v.sig])), changed };
}
