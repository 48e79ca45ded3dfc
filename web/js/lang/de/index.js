// The de catalog: the areas merged. Each key lives in exactly one area.
import ui from './ui.js';
import social from './social.js';

export default { ...ui, ...social };
