// "Your turn" signals: the tab's title, and an optional short sound (off unless the player turns it
// on; the choice is remembered in this browser).

import { h } from '../dom.js';
import { t } from '../i18n.js';

const SOUND_KEY = 'chapterhouse.turn-sound';
let wasMine = null; // null: no table shown yet

function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === 'on';
  } catch {
    return false;
  }
}

function beep() {
  try {
    const audio = new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
    osc.onended = () => audio.close();
  } catch {
    // No audio here: the title still says it.
  }
}

/** Sets the tab title for a table (`name` null when leaving it); sounds when a turn begins, if on. */
export function yourTurnSignal(name, mine) {
  if (name === null) {
    document.title = 'Chapterhouse';
    wasMine = null;
    return;
  }
  document.title = mine ? `● ${t('game.your_turn')} — ${name} — Chapterhouse` : `${name} — Chapterhouse`;
  if (mine && wasMine === false && soundOn()) beep();
  wasMine = mine;
}

/** The "sound on your turn" checkbox. */
export function soundToggle() {
  return h('label', { class: 'check inline' },
    h('input', { type: 'checkbox', checked: soundOn(), 'data-testid': 'turn-sound', onchange: (e) => {
      try {
        localStorage.setItem(SOUND_KEY, e.target.checked ? 'on' : 'off');
      } catch {
        // Not remembered: it still applies to this page.
      }
    } }), ` ${t('game.sound')}`);
}
