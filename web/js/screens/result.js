// The final result: ranks, scores, winners, the tie-break, and the scoring breakdown by category.

import { h, seatDot, listText } from '../dom.js';
import { t, formatNumber } from '../i18n.js';

/** A scoring category's label: the interface catalog's words for its key, else the engine's label. */
function breakdownLabel(line) {
  const key = `result.category.${line.key || line.label}`;
  const text = t(key);
  return text === key ? line.label : text;
}

/** The tie-break as the catalog words it, else as the engine does. */
function tieBreakText(rule) {
  const key = `result.tie.${rule}`;
  const text = t(key);
  return text === key ? rule : text;
}

export function resultPanel(g, name, mod) {
  const outcome = g.outcome;
  const seats = outcome.scores.map((_, i) => i);
  const order = [...seats].sort((a, b) => outcome.ranks[a] - outcome.ranks[b] || a - b);
  const winners = outcome.winners.map(name);
  return h('section', { class: 'result card', 'data-testid': 'result' },
    h('h2', {}, winners.length > 1 ? t('result.shared', { names: listText(winners) }) : t('result.wins', { name: winners[0] })),
    outcome.tie_break ? h('p', { class: 'muted' }, t('result.tie_break', { rule: tieBreakText(outcome.tie_break) })) : null,
    h('div', { class: 'table-wrap' },
      h('table', { class: 'breakdown', 'data-testid': 'breakdown' },
        h('thead', {}, h('tr', {}, h('th', {}, ''), ...order.map((s) => h('th', {}, seatDot(s), ' ', name(s))))),
        h('tbody', {},
          h('tr', { class: 'rank' }, h('th', {}, t('result.rank')), ...order.map((s) => h('td', {}, outcome.ranks[s] === 1 ? `★ ${formatNumber(1)}` : formatNumber(outcome.ranks[s])))),
          ...(outcome.breakdown || []).map((line) => h('tr', {},
            h('th', {}, breakdownLabel(line)),
            ...order.map((s) => h('td', {}, line.points[s] === undefined || line.points[s] === null ? '' : formatNumber(line.points[s]))))),
          h('tr', { class: 'total' }, h('th', {}, t('result.score')), ...order.map((s) => h('td', {}, formatNumber(outcome.scores[s]))))))),
    mod && mod.result ? mod.result(g) : null,
    g.seed ? h('p', { class: 'muted small' }, `${t('result.seed')} `, h('code', {}, g.seed), ` · ${t('result.commitment')} `, h('code', {}, g.seed_commitment || '')) : null);
}
