// axe-core in the page under test: the serious and critical accessibility violations of a screen.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** One line per serious or critical axe-core violation on `page` (rule, impact, where); [] when none. */
export async function axeProblems(page) {
  const has = await page.evaluate(() => typeof window.axe === 'object');
  // Evaluated through the DevTools protocol, not as an inline <script>: the server's
  // Content-Security-Policy (script-src 'self') rightly blocks inline scripts in the page.
  if (!has) await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations;
  });
  return result
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary.split('\n').slice(0, 2).join(' ')}`));
}
