// The game review: `POST .../review` runs it on the server at a node budget per position
// (REVIEW_BUDGET: the same game reviewed twice gets the same marks); its report (the whole
// one from `GET .../review` and first on every event stream, then a `review` event per move
// reviewed, applied by applyReview) becomes the eval graph (graph.js), the marks and scores in
// the move list, the better move in words (#review-best) and as an arrow, and the summary
// per side (accuracy, counts that jump to that side's next marked move). The report is kept
// with the stored game (store.js): a reload shows it again without a new review.

import * as API from './api.js';
import { ui, $, actions, notice } from './state.js';
import * as S from './store.js';
import { renderGraph, wireGraph, moveName } from './graph.js';
import { renderLearn, wireLearn, learnArrow } from './learn.js';
import { REVIEW_BUDGET, MARK_NAME, reviewed, markedPlies } from './report.js';
import { whiteText as fmtMen, evalText } from './score.js';

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

// The arrow of a marked move's better one: on the position after it (where `m` lands: the
// move played is the last move's arrow, the better one beside it), or on the position before
// it when the move just played is not marked.
export function bestArrow(ply) {
  if (ui.learn) return learnArrow(ply);
  const better = (r) => (r && r.mark && r.best && r.best !== r.move ? r.best : null);
  return better(reviewed(ply)) || better(reviewed(ply + 1));
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
  ui.review = { run: ev.run, done: ev.done, total: ev.total, running: ev.running, budget: ev.budget, summary: ev.summary, moves: kept.concat(ev.moves) };
  if (!ev.running) S.save();
  actions.render();
}

async function startReview() {
  const st = ui.st;
  if (!st) return;
  notice('');
  // The server reviews the line it holds: the main line.
  if (ui.tree.cur != null && !(await actions.hold(ui.tree.main, null))) return;
  try {
    ui.learn = null;
    applyReview(await API.post(st.id, 'review', REVIEW_BUDGET));
  } catch (e) { notice(e.message); }
}

function htmlEl(name, parent) { const e = document.createElement(name); parent.appendChild(e); return e; }

// `150,000 nodes a position`.
function budgetText(b) {
  if (!b) return '';
  if (b.nodes) return `${b.nodes.toLocaleString('en')} nodes a position`;
  if (b.depth) return `depth ${b.depth}`;
  return `${b.movetime_ms} ms a position`;
}

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
    renderLearn();
    return;
  }
  btn.dataset.progress = `${rv.done}/${rv.total}`;
  btn.textContent = rv.running ? 'Reviewing…' : 'Review again';
  const at = budgetText(rv.budget);
  $('review-status').textContent = (rv.running ? `${rv.done} of ${moves(rv.total)}` : `${moves(rv.done)} reviewed`) + (at ? ` · ${at}` : '');
  renderGraph(rv, graph, fmtMen);
  // The better move, in words, for the move about to be played here (or the one just played).
  const lines = [];
  for (const ply of [ui.shown + 1, ui.shown]) {
    const r = reviewed(ply);
    if (r && r.mark && r.best && r.best !== r.move && !lines.some((l) => l.ply === ply)) {
      lines.push({ ply, text: `${MARK_NAME[r.mark]} at ${moveName(ply, r.move)}${r.mark} (${fmtMen(r.eval)}). Best was ${r.best} (${fmtMen(r.best_eval)})` });
    }
  }
  // (not while learning: the answer is the exercise's)
  $('review-best').textContent = ui.learn ? '' : lines.map((l) => l.text).join('\n');
  renderSummary(rv);
  renderLearn();
}

// The next (dir 1) or previous (dir -1) such marked move after the one shown, round the
// game's end: the board shows the position after it.
export function jump(side, mark, dir) {
  const plies = markedPlies(side, mark);
  if (!plies.length || !ui.tree) return;
  const next = dir > 0 ? plies.find((p) => p > ui.shown) ?? plies[0]
    : [...plies].reverse().find((p) => p < ui.shown) ?? plies[plies.length - 1];
  actions.goto(ui.tree.main.slice(0, next));
}

// Per side: marks (each count a button: that side's next such move), the average loss and
// the accuracy.
function renderSummary(rv) {
  const table = $('review-summary');
  table.replaceChildren();
  const head = htmlEl('tr', table);
  const cols = [['', ''], ['?!', 'Inaccuracies'], ['?', 'Mistakes'], ['??', 'Blunders'],
    ['Avg loss', 'Average loss per move (each capped)'], ['Accuracy', 'Mean of each move\'s accuracy, from its drop in winning chances (lichess\' formula)']];
  for (const [t, title] of cols) { const th = htmlEl('th', head); th.textContent = t; th.title = title; }
  for (const side of ['white', 'black']) {
    const s = rv.summary[side];
    const tr = htmlEl('tr', table);
    tr.dataset.side = side;
    htmlEl('td', tr).textContent = side === 'white' ? 'White' : 'Black';
    for (const [mark, key] of [['?!', 'inaccuracies'], ['?', 'mistakes'], ['??', 'blunders']]) {
      const b = htmlEl('button', htmlEl('td', tr));
      b.className = 'jump';
      b.textContent = s[key];
      b.dataset.side = side;
      b.dataset.mark = mark;
      b.disabled = !s[key];
      b.title = `${side === 'white' ? 'White' : 'Black'}'s next ${MARK_NAME[mark].toLowerCase()}`;
      b.onclick = () => jump(side, mark, 1);
    }
    htmlEl('td', tr).textContent = (s.average_loss_cp / 100).toFixed(2) + ' men';
    const acc = htmlEl('td', tr);
    acc.className = 'accuracy';
    acc.textContent = s.accuracy == null ? '–' : `${s.accuracy.toFixed(1)}%`;
  }
  table.hidden = false;
}

export function wireReview() {
  $('review').onclick = startReview;
  wireGraph();
  wireLearn();
  // `m` and `M`: the next and the previous marked move (either side), as lichess' buttons.
  document.addEventListener('keydown', (e) => {
    if (e.target.matches('input:not([type=checkbox]), select, textarea') || document.querySelector('dialog[open]')) return;
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    if (e.key === 'm' || e.key === 'M') { e.preventDefault(); jump(null, null, e.key === 'm' ? 1 : -1); }
  });
}
