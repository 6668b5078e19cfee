// The tablebase panel (#tablebase): with `bashni serve --egdb DIR`, in analysis (or when the
// person plays both sides), a Russian, Brazilian or Turkish position the endgame databases hold shows
// its value and every legal move's value for its mover, best first (the server sorts them:
// wins by shortest distance, wins the rule draws, draws, losses the rule saves, losses by
// longest), at the position's clock; a click on a move plays it. Nothing is shown without
// databases or outside them. The data: GET /api/games/<id>/tablebase?ply=n (web/CONTRACT.md).

import { ui, $, actions } from './state.js';
import { tablebaseAt } from './api.js';

const GAMES = ['russian', 'brazilian', 'turkish'];
const NAME = { w: 'White', b: 'Black' };

// The last answer ({key, tablebase}) and the key of the one on its way.
let held = null;
let asking = null;

// A value as `egdb probe` prints it (`win 18`, `draw`), and the clock's verdict when it
// turns a win or a loss into a draw.
export function valueText(v, clock, limit) {
  const base = v.distance === null ? v.class : `${v.class} ${v.distance}`;
  if (!v.by_clock) return base;
  return `draw (${base}: ${v.distance} plies, ${limit - clock} left by the rule)`;
}

// Whether the panel has anything to show for the position shown.
function wanted() {
  const st = ui.st;
  return !!(st && ui.info && ui.info.egdb && GAMES.includes(st.variant) && (st.analysis || st.human === 'both'));
}

export function renderTablebase() {
  const box = $('tablebase');
  if (!wanted()) { box.hidden = true; return; }
  const st = ui.st;
  const ply = ui.shown;
  const key = `${st.id} ${ply} ${st.fens[ply]}`;
  if (!held || held.key !== key) {
    box.hidden = true;
    if (asking === key) return;
    asking = key;
    tablebaseAt(st.id, ply)
      .then((a) => { if (asking === key) asking = null; held = { key, tablebase: a.tablebase }; actions.render(); })
      .catch(() => { if (asking === key) asking = null; });
    return;
  }
  draw(box, held.tablebase, st.fens[ply]);
}

function draw(box, tb, fen) {
  box.hidden = !tb;
  if (!tb) return;
  const side = fen.split(' ')[1] === 'b' ? 'b' : 'w';
  const value = $('tb-value');
  value.textContent = `${NAME[side]} to move: ${valueText(tb.value, tb.clock, tb.limit)}`;
  value.title = tb.text;
  Object.assign(value.dataset, data(tb.value));
  const list = $('tb-moves');
  list.replaceChildren();
  for (const m of tb.moves) {
    const li = document.createElement('li');
    Object.assign(li.dataset, { move: m.move, ...data(m) });
    li.className = 'tb-' + (m.by_clock ? 'draw' : m.outcome);
    const mv = document.createElement('span');
    mv.className = 'tb-move';
    mv.textContent = m.move;
    const val = document.createElement('span');
    val.className = 'tb-val';
    val.textContent = valueText(m, tb.clock, tb.limit);
    li.append(mv, ' ', val);
    li.title = 'Play this move';
    li.onclick = () => actions.play({ move: m.move });
    list.appendChild(li);
  }
}

// The data attributes of a value (web/CONTRACT.md).
function data(v) {
  return { value: v.class, distance: v.distance === null ? '' : String(v.distance), outcome: v.outcome, byClock: String(v.by_clock) };
}
