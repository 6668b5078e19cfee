// Comments, glyphs and tags (web/CONTRACT.md): the notes the server keeps for the game (each
// move named by its whole line from the start, so a note stays with its move whichever line
// the server holds), drawn in the move list, edited in #note-box for the move shown (saved
// with POST .../note), kept with the stored game for a reload; a loaded PDN's tags in #tags.

import { ui, $, notice } from './state.js';
import * as API from './api.js';
import * as T from './tree.js';

export const GLYPHS = ['!', '?', '!!', '??', '!?', '?!'];
// Tags the page does not list (the board and the move list show them already).
const HIDDEN_TAGS = ['GameType', 'FEN', 'SetUp', 'PlyCount', 'Result', 'Termination'];
const key = (moves) => moves.join(' ');

// Takes the notes and tags of an answer that carries them (a new game, GET, a note saved).
export function takeNotes(st) {
  if (!st || !Array.isArray(st.notes)) return;
  ui.notes = new Map(st.notes.map((n) => [key(n.moves), { comment: n.comment || '', glyph: n.glyph || '' }]));
  ui.tags = Array.isArray(st.tags) ? st.tags : [];
}

// The note of the move that ends `moves`, or null.
export const noteOf = (moves) => (ui.notes && ui.notes.get(key(moves))) || null;

// The move's glyph and comment as PDN writes them after it (`!? {text}`), or ''.
export function noteText(moves) {
  const n = noteOf(moves);
  if (!n) return '';
  return n.glyph + (n.comment ? ' {' + n.comment + '}' : '');
}

// The notes of the tree's lines, to be stored and sent back when the game is created again.
export function storedNotes(tree) {
  if (!ui.notes || !tree) return [];
  const lines = [tree.main, ...tree.vars.map((v) => v.moves)];
  return [...ui.notes].map(([k, n]) => ({ moves: k.split(' '), ...n }))
    .filter((n) => lines.some((l) => T.isPrefix(n.moves, l)));
}

function span(cls, text) {
  const s = document.createElement('span');
  s.className = cls;
  s.textContent = text;
  return s;
}

// A move of the list (#moves) gets its glyph and comment.
export function decorate(li, moves) {
  const n = noteOf(moves);
  if (!n) return;
  if (n.glyph) { li.dataset.glyph = n.glyph; li.append(span('glyph', n.glyph)); }
  if (n.comment) { li.dataset.comment = n.comment; li.append(' ', span('comment', n.comment)); }
}

// The line of the move shown (null at the start).
function shownLine() {
  return ui.st && ui.shown > 0 ? ui.st.moves.slice(0, ui.shown) : null;
}

let boxFor = null; // the line whose note #note-text holds

export function renderNotes() {
  const line = shownLine();
  const box = $('note-box');
  box.hidden = !line;
  const tags = $('tags');
  tags.replaceChildren();
  for (const [name, value] of ui.tags || []) {
    if (HIDDEN_TAGS.includes(name) || !value || value === '?') continue;
    const s = span('tag', `${name}: ${value}`);
    s.dataset.tag = name;
    s.dataset.value = value;
    tags.append(s, ' ');
  }
  tags.hidden = !tags.childElementCount;
  if (!line) { boxFor = null; return; }
  const n = noteOf(line) || { comment: '', glyph: '' };
  const k = key(line);
  box.dataset.ply = ui.shown;
  $('note-for').textContent = `on ${T.moveName(ui.st.start_fen, ui.shown, ui.st.moves[ui.shown - 1])}`;
  // What is being typed stays until the move shown changes.
  if (boxFor !== k) { $('note-text').value = n.comment; boxFor = k; }
  for (const b of box.querySelectorAll('button[data-glyph]')) {
    const on = b.dataset.glyph === n.glyph;
    b.classList.toggle('on', on);
    b.setAttribute('aria-pressed', String(on));
  }
}

async function save(comment, glyph) {
  const line = shownLine();
  if (!line || ui.switching) return;
  try {
    takeNotes(await API.post(ui.st.id, 'note', { moves: line, comment, glyph }));
    notice('');
  } catch (e) { notice(e.message); }
  boxFor = null;
  saved();
}

let saved = () => {};

// `after` runs once a note is saved (app.js: store the game, redraw).
export function wireNotes(after) {
  saved = after;
  const glyphs = $('note-glyphs');
  for (const g of GLYPHS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.glyph = g;
    b.textContent = g;
    b.title = `Mark the move shown ${g} (click again to clear)`;
    glyphs.append(b);
  }
  glyphs.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-glyph]');
    const line = shownLine();
    if (!b || !line) return;
    const n = noteOf(line) || { comment: '', glyph: '' };
    save(n.comment, n.glyph === b.dataset.glyph ? '' : b.dataset.glyph);
  });
  $('note-save').onclick = () => {
    const line = shownLine();
    if (!line) return;
    const n = noteOf(line) || { glyph: '' };
    save($('note-text').value, n.glyph);
  };
  $('note-text').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); $('note-save').click(); }
  });
}
