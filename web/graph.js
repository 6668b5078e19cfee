// The review's eval graph (#review-graph), drawn as the page's eval bar and as lichess draws
// it: White's view, White's advantage light and above the axis, Black's dark and below, a
// tanh of the men (a win at the edge). Under the pointer: the move in move numbers and its
// score (#review-graph-tip: `12... c5-d4 +1.30`); a click or a drag moves the board to that ply.

import { ui, $, actions } from './state.js';
import * as T from './tree.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const W = 300, H = 80;

function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

// -1 (Black winning) .. +1 (White winning): tanh of the men, a mate or a won game at the edge.
export function squash(score) {
  if (score.result !== undefined) return score.result === '1-0' ? 1 : score.result === '0-1' ? -1 : 0;
  if (score.mate !== undefined) return score.mate > 0 ? 1 : -1;
  return Math.tanh(score.cp / 100 / 2.5);
}

// `12. c3-d4` or `12... c5-d4`: ply `ply` (1 = the game's first) in move numbers.
export const moveName = (ply, move) => T.moveName(ui.st.start_fen, ply, move);

const x = (ply, n) => (ply / n) * W;
const y = (sc) => H / 2 - (H / 2 - 2) * squash(sc);

// Draws report `rv` into `graph`; `fmt(score)` writes a score for the tip.
export function renderGraph(rv, graph, fmt) {
  const n = Math.max(rv.total, 1);
  graph.removeAttribute('hidden');
  graph.replaceChildren();
  // The fill between the axis and the curve: light above it, dark below (two clips).
  const defs = svgEl('defs', {}, graph);
  svgEl('rect', { x: 0, y: 0, width: W, height: H / 2 }, svgEl('clipPath', { id: 'rg-above' }, defs));
  svgEl('rect', { x: 0, y: H / 2, width: W, height: H / 2 }, svgEl('clipPath', { id: 'rg-below' }, defs));
  const pts = [[0, H / 2], ...rv.moves.map((r) => [x(r.ply, n), y(r.eval)])];
  const curve = pts.map((p) => p.join(',')).join(' L');
  if (rv.moves.length) {
    const area = `M${curve} L${pts[pts.length - 1][0]},${H / 2} Z`;
    svgEl('path', { class: 'white-area', d: area, 'clip-path': 'url(#rg-above)' }, graph);
    svgEl('path', { class: 'black-area', d: area, 'clip-path': 'url(#rg-below)' }, graph);
  }
  svgEl('line', { class: 'axis', x1: 0, y1: H / 2, x2: W, y2: H / 2 }, graph);
  svgEl('path', { class: 'line', d: 'M' + curve }, graph);
  if (ui.shown > 0) svgEl('line', { class: 'cursor', x1: x(ui.shown, n), y1: 0, x2: x(ui.shown, n), y2: H }, graph);
  for (const r of rv.moves) {
    const c = svgEl('circle', { cx: x(r.ply, n), cy: y(r.eval), r: r.mark ? 3 : 1.2, 'data-ply': r.ply }, graph);
    if (r.mark) c.dataset.mark = r.mark;
    c.dataset.label = `${moveName(r.ply, r.move)}${r.mark || ''} ${fmt(r.eval)}`;
  }
}

// The ply under the pointer's x (1 to the moves reviewed), or null.
function plyAt(e) {
  const rv = ui.review;
  if (!rv || !rv.moves.length) return null;
  const box = $('review-graph').getBoundingClientRect();
  const ply = Math.round(((e.clientX - box.left) / box.width) * Math.max(rv.total, 1));
  return Math.max(1, Math.min(rv.moves.length, ply));
}

function showTip(e, ply) {
  const tip = $('review-graph-tip');
  const dot = $('review-graph').querySelector(`[data-ply="${ply}"]`);
  if (!dot) { tip.hidden = true; return; }
  tip.textContent = dot.dataset.label;
  tip.dataset.ply = ply;
  const box = $('review-graph').getBoundingClientRect();
  const left = Math.max(0, Math.min(box.width - 120, e.clientX - box.left - 60));
  tip.style.left = `${left}px`;
  tip.hidden = false;
}

function go(ply) {
  if (ply != null && ui.tree && ply !== ui.shown) actions.goto(ui.tree.main.slice(0, ply));
}

export function wireGraph() {
  const graph = $('review-graph');
  let dragging = false;
  graph.addEventListener('pointerdown', (e) => {
    dragging = true;
    if (graph.setPointerCapture) try { graph.setPointerCapture(e.pointerId); } catch (err) { /* synthetic */ }
    const ply = plyAt(e);
    showTip(e, ply);
    go(ply);
  });
  graph.addEventListener('pointermove', (e) => {
    const ply = plyAt(e);
    if (ply == null) return;
    showTip(e, ply);
    if (dragging) go(ply);
  });
  const end = () => { dragging = false; };
  graph.addEventListener('pointerup', end);
  graph.addEventListener('pointercancel', end);
  graph.addEventListener('pointerleave', () => { $('review-graph-tip').hidden = true; if (!dragging) end(); });
}
