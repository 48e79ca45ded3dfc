// Small SVG icons for buttons: drawn, so that they show on any font set.

import { s } from './dom.js';

const PATHS = {
  first: 'M4 3h2v14H4zM17 3v14L7 10z',
  prev: 'M15 3v14L5 10z',
  play: 'M5 3l9 7-9 7zM14 3h2v14h-2z',
  next: 'M5 3v14l10-7z',
  last: 'M14 3h2v14h-2zM3 3v14l10-7z',
  clock: 'M10 2a8 8 0 1 0 0 16a8 8 0 1 0 0-16zm0 2a6 6 0 1 1 0 12a6 6 0 1 1 0-12zM9 5h2v5h4v2H9z',
};

/** An icon by name (first, prev, play, next, last, clock), hidden from screen readers (its button is named). */
export function icon(name) {
  return s('svg', { class: 'icon', viewBox: '0 0 20 20', width: 18, height: 18, 'aria-hidden': 'true', focusable: 'false' },
    s('path', { d: PATHS[name], fill: 'currentColor' }));
}
