// The hand on the board: pointer events (mouse, pen, touch) rather than clicks. A press on a
// square does what a click did (select a tower, narrow a capture by a square on its way, play
// a move), at the moment of the press, on the square under the pointer then: the board is
// redrawn as often as analysis lines arrive, and a click whose press and release fell on two
// drawings of the same tower used to be lost. A tower may also be dragged from its square to
// another and dropped there: the drop is the click on that square (a capture whose paths
// join the same squares still asks in #choice, as a click does). Dropped back on its square
// or off the board, the tower stays selected.

import { ui, $, actions } from './state.js';

const DRAG_PX = 6; // a press that moves less than this is a click

let press = null; // {id, sq, x0, y0, dragging, again, ghost}

// The playable square under a point of the screen (null: none, or off the board).
function squareAt(x, y) {
  for (const e of document.elementsFromPoint(x, y)) {
    if (!$('board').contains(e)) continue;
    const t = e.closest('[data-square]');
    if (t) return t.getAttribute('data-square');
  }
  return null;
}

// Screen pixels to board units.
function toBoard(svg, dx, dy) {
  const m = svg.getScreenCTM();
  return m ? [dx / m.a, dy / m.d] : [dx, dy];
}

function dropGhost() {
  if (press && press.ghost) press.ghost.remove();
}

function down(e) {
  if (e.button !== 0 || !e.isPrimary) return;
  const sq = squareAt(e.clientX, e.clientY);
  if (!sq) return;
  e.preventDefault();
  const sel = ui.sel;
  // A press on the tower already selected: a drag, or (released in place) letting it go.
  const again = !!(sel && sel.from === sq && !sel.via.length);
  if (!again) actions.clickSquare(sq);
  const now = ui.sel;
  press = now && now.from === sq && !now.via.length
    ? { id: e.pointerId, sq, x0: e.clientX, y0: e.clientY, dragging: false, again, ghost: null }
    : null;
  if (press) $('board').setPointerCapture(e.pointerId);
}

function move(e) {
  if (!press || e.pointerId !== press.id) return;
  const svg = $('board');
  const dx = e.clientX - press.x0, dy = e.clientY - press.y0;
  if (!press.dragging) {
    if (Math.hypot(dx, dy) < DRAG_PX) return;
    press.dragging = true;
    const tower = svg.querySelector(`#towers [data-square="${press.sq}"]`);
    if (tower) {
      // A copy that follows the pointer, without the contract's attributes.
      const ghost = tower.cloneNode(true);
      for (const a of ['data-square', 'data-tower', 'data-kings']) ghost.removeAttribute(a);
      ghost.querySelectorAll('[id]').forEach((x) => x.removeAttribute('id'));
      ghost.querySelectorAll('title').forEach((x) => x.remove());
      ghost.classList.add('drag-ghost');
      svg.appendChild(ghost);
      press.ghost = ghost;
    }
  }
  if (press.ghost) {
    const [bx, by] = toBoard(svg, dx, dy);
    press.ghost.setAttribute('transform', `translate(${bx.toFixed(1)},${by.toFixed(1)})`);
  }
}

function up(e) {
  if (!press || e.pointerId !== press.id) return;
  const p = press;
  dropGhost();
  press = null;
  if (p.dragging) {
    const sq = squareAt(e.clientX, e.clientY);
    if (sq && sq !== p.sq) actions.clickSquare(sq);
  } else if (p.again) {
    actions.clickSquare(p.sq);
  }
}

function cancel(e) {
  if (!press || e.pointerId !== press.id) return;
  dropGhost();
  press = null;
}

// Whether the board waits for its legal moves (an earlier position's, analysis mode being
// turned on, the server moving to another line).
function waitingForMoves() {
  const st = ui.st;
  if (!st || ui.switching || ui.turningOn) return !!st;
  return ui.shown < st.moves.length && (!!st.analysis || st.human === 'both');
}

// A click on `sq` with the legal moves `legal` (null: none now): false when it must wait, and
// then it is kept if the moves are on their way, to be made when they come.
export function keepClick(sq, legal) {
  if (legal) { ui.pendingClick = null; return true; }
  ui.pendingClick = waitingForMoves() ? { sq, ply: ui.shown } : null;
  return false;
}

// Makes the click kept, if the legal moves (`movesHere()`) have come.
export function replayClick(movesHere) {
  const p = ui.pendingClick;
  if (!p || !ui.st) return;
  if (p.ply !== ui.shown) { ui.pendingClick = null; return; }
  if (!movesHere()) return;
  ui.pendingClick = null;
  actions.clickSquare(p.sq);
}

export function wireHand() {
  const svg = $('board');
  svg.addEventListener('pointerdown', down);
  svg.addEventListener('pointermove', move);
  svg.addEventListener('pointerup', up);
  svg.addEventListener('pointercancel', cancel);
  // A click no pointer made (a script's element.click(), detail 0) is a click on its square.
  svg.addEventListener('click', (e) => {
    const t = e.detail === 0 && e.target.closest && e.target.closest('[data-square]');
    if (t) actions.clickSquare(t.getAttribute('data-square'));
  });
  // The ghost's own pointer events do not matter: it has none (style.css).
}
