// The game modules by catalog id. Each draws a board (SVG) and player boards from a view, and names
// actions; none of them knows a rule.

import templarsJourney from './templars-journey.js';
import secretTreasures from './secret-treasures.js';
import knightsTemplar from './knights-templar.js';
import richard from './richard-the-lionheart.js';
import generic from './generic.js';

const MODULES = {
  'templars-journey': templarsJourney,
  'secret-treasures': secretTreasures,
  'knights-templar': knightsTemplar,
  'richard-the-lionheart': richard,
};

export function gameModule(id) {
  return MODULES[id] || generic;
}
