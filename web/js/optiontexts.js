// The words of a game's lobby options. The server's catalog describes each option in English
// (`label`, `help`, `choices`); the interface catalog may say it in the current language under
// `option.<game>.<key>` (`.help`, `.choice.<value>`), and the server's words are the fallback, so an
// option added to an engine shows before it is translated.

import { t } from './i18n.js';

function lookup(key, fallback) {
  const text = t(key);
  return text === key ? fallback : text;
}

/** The option's name. */
export function optionLabel(game, option) {
  return lookup(`option.${game}.${option.key}`, option.label || option.key);
}

/** What the option does. */
export function optionHelp(game, option) {
  return lookup(`option.${game}.${option.key}.help`, option.help || '');
}

/** One choice of a choice option. */
export function choiceLabel(game, option, value) {
  return lookup(`option.${game}.${option.key}.choice.${value}`, String(value));
}
