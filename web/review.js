// The game review: `POST .../review` runs it on the server; its report (the whole one from
// `GET .../review` and first on every event stream, then a `review` event per move reviewed,
// applied by applyReview) becomes the eval graph (#review-graph), the marks and scores in the move list, the better
// move in words (#review-best) and as an arrow, and the summary per side.

import * as API from './api.js';
import { ui, $, actions, notice } from './state.js';

export const MARK_NAME = { '?!': 'Inaccuracy', '?': 'Mistake', '??': 'Blunder' };

// The review of main-line ply `ply` (1 = the first move), if the report has it and the main
// line still holds the move reviewed.
export function reviewed(ply) {
  const rv = ui.review;
  if (!rv || !ui.tree || ply < 1) return null;
  const r = rv.moves[ply - 1];
  if (!r || r.ply !== ply || ui.tree.main[ply - 1] !== r.move) return null;
  for (let i = 0; i < ply - 1; i++) if (!rv.moves[i] || ui.tree.main[i] !== rv.moves[i].move) return null;
  return r;
}

// White's view, in men: `0.35`, `-1.20`, `M3` / `-M3` for mates, `+−` / `−+` (the
// annotators' "decisive advantage") where the server marks the score decisive (ten men or
// more: a side simply wins, and the figure would not mean men); a game its rules ended is
// its result (`1-0`, `0-1`, `1/2-1/2`): over, not a mate in 0.
export function evalText(score) {
  if (score.result !== undefined) return score.result;
  if (score.mate !== undefined) return (score.mate < 0 ? '-M' : 'M') + Math.abs(score.mate);
  if (score.decisive) return score.cp > 0 ? '+−' : '−+';
  return (score.cp / 100).toFixed(2);
}
export function fmtMen(score) {
  if (score.result !== undefined) return `game over (${score.result})`;
  if (score.mate !== undefined) return (score.mate > 0 ? 'White' : 'Black') + ' wins in ' + Math.abs(score.mate);
  if (score.decisive) return (score.cp > 0 ? 'White' : 'Black') + ' winning';
  return (score.cp >= 0 ? '+' : '−') + (Math.abs(score.cp) / 100).toFixed(2);
}
// -1 (Black winning) .. +1 (White winning): tanh of the men, a mate or a won game at the edge.
function squash(score) {
  if (score.result !== undefined) return score.result === '1-0' ? 1 : score.result === '0-1' ? -1 : 0;
  if (score.mate !== undefined) return score.mate > 0 ? 1 : -1;
  return Math.tanh(score.cp / 100 / 2.5);
}
// `1 move`, `3 moves`.
const moves = (n) => `${n} move${n === 1 ? '' : 's'}`;

// A move of the list, once reviewed: its score, its mark, and in its title the better move.
export function markItem(li, ply) {
  const r = reviewed(ply);
  if (!r) return;
  li.dataset.eval = evalText(r.eval);
  if (r.mark) li.dataset.mark = r.mark;
  li.title = `${r.mark ? MARK_NAME[r.mark] + ': ' : ''}${fmtMen(r.eval)} after it` + (r.mark && r.best ? `; best was ${r.best} (${fmtMen(r.best_eval)})` : '');
}

// The arrow of a marked move's better one, on the position before it.
export function bestArrow(ply) {
  const r = reviewed(ply + 1);
  return r && r.mark && r.best && r.best !== r.move ? r.best : null;
}

// Takes a report or a `review` event (web/CONTRACT.md): its `moves` are the entries of plies
// `from + 1` to `done` of review number `run`. `from` 0 is a whole report; a later event
// extends the report it follows. One that is older than the report held is dropped; one that
// leaves a gap (a late answer can; a stream sends the whole report first) makes the page ask
// for the whole report.
export function applyReview(ev) {
  const rv = ui.review;
  if (rv && (ev.run < rv.run || (ev.run === rv.run && ev.done < rv.done))) return;
  if (ev.from !== 0 && !(rv && ev.run === rv.run && ev.from <= rv.moves.length)) {
    const id = ui.st && ui.st.id;
    if (id) API.review(id).then((whole) => { if (ui.st && ui.st.id === id) applyReview(whole); }).catch(() => {});
    return;
  }
  const kept = ev.from === 0 ? [] : rv.moves.slice(0, ev.from);
  ui.review = { run: ev.run, done: ev.done, total: ev.total, running: ev.running, summary: ev.summary, moves: kept.concat(ev.moves) };
  actions.render();
}

async function startReview() {
  const st = ui.st;
  if (!st) return;
  notice('');
  // The server reviews the line it holds: the main line.
  if (ui.tree.cur != null && !(await actions.hold(ui.tree.main, null))) return;
  try {
    applyReview(await API.post(st.id, 'review', { movetime_ms: 200 }));
  } catch (e) { notice(e.message); }
}

const SVGNS = 'http://www.w3.org/2000/svg';
function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}
function htmlEl(name, parent) { const e = document.createElement(name); parent.appendChild(e); return e; }

export function renderReview() {
  const rv = ui.review, btn = $('review'), graph = $('review-graph');
  const st = ui.st;
  btn.disabled = !st || !st.moves.length || !!(rv && rv.running);
  if (!rv) {
    delete btn.dataset.progress;
    $('review-status').textContent = '';
    graph.setAttribute('hidden', ''); graph.replaceChildren();
    $('review-best').textContent = '';
    $('review-summary').hidden = true;
    return;
  }
  btn.dataset.progress = `${rv.done}/${rv.total}`;
  btn.textContent = rv.running ? 'Reviewing…' : 'Review again';
  $('review-status').textContent = rv.running ? `${rv.done} of ${moves(rv.total)}` : `${moves(rv.done)} reviewed`;
  renderGraph(rv, graph);
  // The better move, in words, for the move about to be played here (or the one just played).
  const lines = [];
  for (const ply of [ui.shown + 1, ui.shown]) {
    const r = reviewed(ply);
    if (r && r.mark && r.best && r.best !== r.move && !lines.some((l) => l.ply === ply)) {
      lines.push({ ply, text: `${MARK_NAME[r.mark]} at ply ${ply}: ${r.move}${r.mark} (${fmtMen(r.eval)}). Best was ${r.best} (${fmtMen(r.best_eval)})` });
    }
  }
  $('review-best').textContent = lines.map((l) => l.text).join('\n');
  renderSummary(rv);
}

// A point per move reviewed, White's view (up: White better), ±1 at a win.
function renderGraph(rv, graph) {
  const W = 300, H = 80, n = Math.max(rv.total, 1);
  const x = (ply) => 4 + (ply / n) * (W - 8), y = (sc) => H / 2 - (H / 2 - 3) * squash(sc);
  graph.removeAttribute('hidden');
  graph.replaceChildren();
  const pts = [[x(0), H / 2], ...rv.moves.map((r) => [x(r.ply), y(r.eval)])];
  if (rv.moves.length) svgEl('path', { class: 'black-area', d: `M0,${H} L${pts.map((p) => p.join(',')).join(' L')} L${pts[pts.length - 1][0]},${H} Z` }, graph);
  svgEl('line', { class: 'mid', x1: 0, y1: H / 2, x2: W, y2: H / 2 }, graph);
  svgEl('path', { class: 'line', d: 'M' + pts.map((p) => p.join(',')).join(' L') }, graph);
  if (ui.shown > 0) svgEl('line', { class: 'cursor', x1: x(ui.shown), y1: 0, x2: x(ui.shown), y2: H }, graph);
  for (const r of rv.moves) {
    const c = svgEl('circle', { cx: x(r.ply), cy: y(r.eval), r: r.mark ? 3.5 : 2, 'data-ply': r.ply }, graph);
    if (r.mark) c.dataset.mark = r.mark;
    svgEl('title', {}, c).textContent = `${r.ply}. ${r.move}${r.mark || ''} ${fmtMen(r.eval)}`;
  }
}

// Per side: marks and the average loss.
function renderSummary(rv) {
  const table = $('review-summary');
  table.replaceChildren();
  const head = htmlEl('tr', table);
  for (const [t, title] of [['', ''], ['?!', 'Inaccuracies'], ['?', 'Mistakes'], ['??', 'Blunders'], ['Avg loss', 'Average loss per move (each capped)']]) { const th = htmlEl('th', head); th.textContent = t; th.title = title; }
  for (const side of ['white', 'black']) {
    const s = rv.summary[side];
    const tr = htmlEl('tr', table);
    tr.dataset.side = side;
    for (const t of [side === 'white' ? 'White' : 'Black', s.inaccuracies, s.mistakes, s.blunders, (s.average_loss_cp / 100).toFixed(2) + ' men']) htmlEl('td', tr).textContent = t;
  }
  table.hidden = false;
}

export function wireReview() {
  $('review').onclick = startReview;
  $('review-graph').addEventListener('click', (e) => {
    let t = e.target.closest('[data-ply]');
    if (!t && ui.review && ui.review.moves.length) {
      // A click beside the points: the nearest one.
      const box = $('review-graph').getBoundingClientRect();
      const ply = Math.round(((e.clientX - box.left) / box.width) * Math.max(ui.review.total, 1));
      t = { dataset: { ply: Math.max(1, Math.min(ui.review.moves.length, ply)) } };
    }
    if (t && ui.tree) actions.goto(ui.tree.main.slice(0, +t.dataset.ply));
  });
}
