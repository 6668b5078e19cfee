// What the page says as a game against the engine goes on and ends: the engine's answer to a
// draw offer (in #notice, neutral), and the game-over dialog (#over-dialog: the result, why,
// a rematch with the colours swapped, the review), shown once, when the end happens.

import { ui, $, actions, notice } from './state.js';

// Called with the state before and after each state the page accepts.
export function afterState(prev, st) {
  const same = prev && prev.id === st.id;
  if (st.draw_answer && (!same || prev.draw_answer !== st.draw_answer)) notice(st.draw_answer, 'info');
  const box = $('over-dialog');
  if (!st.result || !same) { if (box.open) box.close(); if (!same) return; }
  if (!st.result || prev.result) return;
  // An end reached in play against the engine, on the main line (not while the page moves
  // the server's game between lines of the tree, nor in analysis).
  if (st.human === 'both' || st.analysis || ui.switching || (ui.tree && ui.tree.cur != null)) return;
  $('over-result').textContent = st.result.result;
  $('over-reason').textContent = st.result.text;
  box.dataset.result = st.result.result;
  box.dataset.reason = st.result.reason;
  if (!box.open) box.show();
}

function rematch() {
  $('over-dialog').close();
  const g = ui.game || {};
  const human = { white: 'black', black: 'white' }[g.human] || g.human;
  actions.newGame({ variant: ui.st.variant, ...g, human });
}

function review() {
  $('over-dialog').close();
  const b = $('review');
  b.scrollIntoView({ block: 'nearest' });
  if (!b.disabled) b.click();
}

export function wireDialog() {
  $('over-rematch').onclick = rematch;
  $('over-review').onclick = review;
  $('over-close').onclick = () => $('over-dialog').close();
}
