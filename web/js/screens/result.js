// The final result: ranks, scores, winners, the tie-break, and the scoring breakdown by category.

import { h, seatDot } from '../dom.js';

export function resultPanel(g, name, mod) {
  const outcome = g.outcome;
  const seats = outcome.scores.map((_, i) => i);
  const order = [...seats].sort((a, b) => outcome.ranks[a] - outcome.ranks[b] || a - b);
  const winners = outcome.winners.map(name);
  return h('section', { class: 'result card', 'data-testid': 'result' },
    h('h2', {}, winners.length > 1 ? `${winners.join(' and ')} share the victory` : `${winners[0]} wins`),
    outcome.tie_break ? h('p', { class: 'muted' }, `Tie broken by: ${outcome.tie_break}`) : null,
    h('div', { class: 'table-wrap' },
      h('table', { class: 'breakdown', 'data-testid': 'breakdown' },
        h('thead', {}, h('tr', {}, h('th', {}, ''), ...order.map((s) => h('th', {}, seatDot(s), ' ', name(s))))),
        h('tbody', {},
          h('tr', { class: 'rank' }, h('th', {}, 'Rank'), ...order.map((s) => h('td', {}, outcome.ranks[s] === 1 ? '★ 1' : String(outcome.ranks[s])))),
          ...(outcome.breakdown || []).map((line) => h('tr', {},
            h('th', {}, line.label),
            ...order.map((s) => h('td', {}, String(line.points[s] ?? ''))))),
          h('tr', { class: 'total' }, h('th', {}, 'Score'), ...order.map((s) => h('td', {}, String(outcome.scores[s]))))))),
    mod && mod.result ? mod.result(g) : null,
    g.seed ? h('p', { class: 'muted small' }, 'Seed (revealed): ', h('code', {}, g.seed), ' · commitment ', h('code', {}, g.seed_commitment || '')) : null);
}
