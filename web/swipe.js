// Swipes on a phone: a finger drawn left or right across the board or the move buttons' bar
// (#nav) steps through the moves, one a swipe (leftwards: the next move, as a page turns;
// rightwards: the move before). A press that picks up a tower is a drag (drag.js), never a
// swipe; a short or mostly vertical stroke is nothing.

import { ui, $, actions } from './state.js';

const MIN_PX = 40; // the shortest stroke that counts

let stroke = null; // {id, x0, y0, el}

function down(e) {
  if (!e.isPrimary || (e.pointerType === 'mouse' && e.button !== 0)) return;
  // (the board's own handler ran first: a tower picked up there is no swipe)
  stroke = ui.sel ? null : { id: e.pointerId, x0: e.clientX, y0: e.clientY };
}

// (wherever the finger leaves the screen: a stroke may end beside the bar it began on)
function up(e) {
  const s = stroke;
  if (!s || e.pointerId !== s.id) return;
  stroke = null;
  if (ui.sel || !ui.st) return;
  const dx = e.clientX - s.x0, dy = e.clientY - s.y0;
  if (Math.abs(dx) < MIN_PX || Math.abs(dx) < 2 * Math.abs(dy)) return;
  swiped = performance.now();
  actions.show(ui.shown + (dx < 0 ? 1 : -1));
}

// A swipe that began and ended on one button is no click of it too.
let swiped = -1e9;
function noClickAfterSwipe(e) {
  if (performance.now() - swiped < 300) { e.stopPropagation(); e.preventDefault(); }
}

export function wireSwipe() {
  for (const el of [$('board'), $('nav')]) el.addEventListener('pointerdown', down);
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', () => { stroke = null; });
  $('nav').addEventListener('click', noClickAfterSwipe, true);
}
