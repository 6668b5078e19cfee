// What the page's modules share: the page's state, the element lookup, the notice line, and
// the controller's actions other modules call back (filled in by app.js).

export const $ = (id) => document.getElementById(id);

export const ui = {
  info: null,        // GET /api/info
  st: null,          // the game state from the server (it holds the line tree.cur)
  tree: null,        // the move tree (tree.js)
  shown: 0,          // ply shown on the board
  follow: true,      // the shown ply follows the end of the line
  flipped: false,    // Black at the bottom
  sel: null,         // {from, via: [], cands: [...]} while choosing a move
  legalAt: null,     // {ply, legal} for an earlier position (analysis)
  analysis: null,    // the last analysis event
  es: null,          // EventSource
  settings: null,    // the dialog's last settings (without a start)
  game: null,        // this game's settings: {human, level, movetime_ms | clock}
  switching: false,  // the server game is being moved to another line of the tree
  infoSq: null,      // the square whose tower #tower-info describes
  clockBase: 0,      // performance.now() when the clocks were received
  review: null,      // this game's review report, whole (GET .../review, `review` events applied)
  learn: null,       // "learn from your mistakes" under way (learn.js)
  mainEnd: null,     // {line, result}: the main line's end when the server last held it
  leavingAnalysis: false, // analysis mode is being turned off
  turningOn: false,  // analysis mode is being turned on
  asking: null,      // the FEN whose legal moves are on their way
  pendingClick: null, // {sq, ply}: a click made while the legal moves were on their way
  threat: false,     // threat mode (threat.js)
  notes: null,       // Map: a move's line from the start (moves joined by ' ') -> {comment, glyph}
  tags: [],          // the loaded PDN's tags, [[name, value], ...]
  pending: 0,        // this tab's requests on their way (live.js: their states are its own)
  analysing: false,  // an analysis request of this tab's is about to go or on its way
  stale: null,       // {kind, next}: this tab no longer follows its game (live.js, #stale)
  movedTo: null,     // the game another tab opened in place of this one's, once closed
  from: null,        // the game this one was created again from (`resume`)
};

// Set by app.js: goto(moves) shows a line's position, hold(moves, id) moves the server game
// to a line, render() redraws, newGame(body) opens a new game.
// clickSquare(sq) is a click on a square, play({move}) plays a move of the position shown,
// analyse(on) turns analysis mode on (again, for the position shown) or off. loadPdn(text)
// opens a PDN's text as a new game (true once the server took it). hideChoice() closes
// #choice, show(ply) shows that position of the line held.
export const actions = { goto: null, hold: null, render: null, clickSquare: null, play: null, analyse: null, newGame: null, loadPdn: null, hideChoice: null, show: null };

export const variant = () => (ui.st ? ui.st.variant : 'bashni');
// The notice line: `kind` 'error' (a refusal, in red: the default) or 'info' (what was done,
// in the page's neutral colour); `data-kind` says which.
export function notice(text, kind = 'error') {
  const box = $('notice');
  box.textContent = text || '';
  box.dataset.kind = text ? kind : '';
}
