// The move list (#moves): the main line, its variations nested in parentheses (a variation
// of the main line on a line of its own, those inside it inline), the result of a finished
// main line after its last move (#moves-result), and the tools of the variation shown.

import { ui, $, actions } from './state.js';
import * as T from './tree.js';
import { markItem } from './review.js';
import { decorate } from './comments.js';

// The main line's result: the server's when it holds the main line, else the one it had
// when it last did (a variation's own end is shown in #status only).
export function mainResult() {
  const st = ui.st;
  if (!st || !ui.tree) return null;
  if (ui.tree.cur == null && !ui.switching) return st.result;
  const end = ui.mainEnd;
  return end && end.line === ui.tree.main.join() ? end.result : null;
}

export function renderMoves() {
  const st = ui.st, tree = ui.tree;
  const list = $('moves');
  list.replaceChildren();
  if (!st || !tree) return;
  const number = T.numbering(st.start_fen);
  const info = T.layout(tree);
  // The move shown now: on the line held, owned by that line or one it hangs from.
  const owner = ui.shown > 0 ? T.ownerAt(tree, info, tree.cur, ui.shown) : undefined;
  T.flatten(tree).forEach((e, k) => {
    const li = document.createElement('li');
    li.textContent = e.move;
    li.dataset.move = e.move;
    li.dataset.ply = e.ply;
    const { num, white } = number(e.ply);
    if (white) li.dataset.num = num + '.';
    else if (k === 0 || e.first || e.resume) li.dataset.num = num + '…';
    const line = T.lineOf(tree, e.id);
    if (e.id != null) {
      li.dataset.variation = e.id;
      li.dataset.depth = e.depth;
      li.classList.add('var');
      if (e.first) li.classList.add('var-first');
    } else {
      markItem(li, e.ply);
      if (e.resume) li.classList.add('after-var');
    }
    decorate(li, line.slice(0, e.ply));
    // The closing parentheses, drawn after the move.
    if (e.closes) li.dataset.closes = ')'.repeat(e.closes);
    if (e.id === owner && e.ply === ui.shown) li.classList.add('current');
    li.onclick = () => actions.goto(line.slice(0, e.ply));
    list.append(li, ' ');
  });
  const result = mainResult();
  if (result) {
    const li = document.createElement('li');
    li.id = 'moves-result';
    li.dataset.result = result.result;
    li.textContent = result.result;
    li.title = result.text;
    list.append(li);
  }
  keepInView(list, list.querySelector('.current'), owner + ':' + ui.shown);
  $('var-tools').hidden = tree.cur == null;
}

// The move shown stays in view: the list (only the list, not the page) scrolls to it when it
// changes, and leaves alone a list the person scrolled while it stays.
let inView = null;
function keepInView(list, c, key) {
  if (!c || key === inView) return;
  inView = key;
  const r = c.getBoundingClientRect(), box = list.getBoundingClientRect();
  if (r.top < box.top + 2) list.scrollTop -= box.top + 2 - r.top;
  else if (r.bottom > box.bottom - 2) list.scrollTop += r.bottom - (box.bottom - 2);
}
