// The move tree, kept by the page: the main line (the server game's moves when it holds the
// main line) and variations, each stored as its whole line from the start. The server game
// always holds one line of the tree (`cur`: null for the main line, else a variation's id).
//
// The nesting is not stored: it follows from the lines (`layout`). A variation hangs from the
// line it shares most moves with, the main line or an earlier variation (the main line, then
// the earliest, on a tie), and leaves it after those moves (its fork). So a move made inside a
// variation from an earlier position of it starts a sub-variation, and whole lines are all a
// reload, a PDN or a promotion needs to keep right. The order of `vars` matters: a variation
// always comes after the one it hangs from.

export const isPrefix = (a, b) => a.length <= b.length && a.every((m, i) => m === b[i]);
export function common(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

export function newTree(main) {
  return { main: main.slice(), vars: [], cur: null, next: 1 };
}

// A tree from stored lines (localStorage, a PDN's variations): `lines` are whole lines,
// parents before children; lines that add nothing are dropped.
export function withVariations(tree, lines) {
  for (const l of lines) {
    if (Array.isArray(l) && l.length) tree.vars.push({ id: tree.next++, moves: l.map(String) });
  }
  dedupe(tree);
  return tree;
}

export const varOf = (tree, id) => tree.vars.find((v) => v.id === id) || null;
export const lineOf = (tree, id) => (id == null ? tree.main : varOf(tree, id).moves);

// Where each variation hangs: Map id -> {parent (id, null: the main line), fork (plies in
// common with it), depth (1: a variation of the main line, 2: one inside it, ...)}.
export function layout(tree) {
  const info = new Map();
  tree.vars.forEach((v, i) => {
    let parent = null, fork = common(tree.main, v.moves);
    for (const w of tree.vars.slice(0, i)) {
      const c = common(w.moves, v.moves);
      if (c > fork) { parent = w.id; fork = c; }
    }
    info.set(v.id, { parent, fork, depth: parent == null ? 1 : info.get(parent).depth + 1 });
  });
  return info;
}

// Where a variation leaves the main line: its number of plies in common with it.
export const forkOf = (tree, v) => common(tree.main, v.moves);

// The line (main or a variation) that continues `moves`, made a new variation if none does:
// `{id, moves}` with id null for the main line.
export function lineFor(tree, moves) {
  if (isPrefix(moves, tree.main)) return { id: null, moves: tree.main };
  let v = tree.vars.find((x) => isPrefix(moves, x.moves));
  if (!v) {
    v = { id: tree.next++, moves: moves.slice() };
    tree.vars.push(v);
  }
  return { id: v.id, moves: v.moves };
}

// The line held by the server changed (a move, a takeback, the engine's reply).
export function update(tree, moves) {
  if (tree.cur == null) {
    tree.main = moves.slice();
    // A variation the main line has grown into adds nothing.
    tree.vars = tree.vars.filter((v) => !isPrefix(v.moves, tree.main));
  } else { const v = varOf(tree, tree.cur); if (v) v.moves = moves.slice(); }
}

// The line the server holds now (`moves`; `main`: it is the tree's main line), placed in the
// tree and made the line held: the main line, or the variation it is (the one held already
// when it still fits, else one it equals, grows or shortens), or a new variation. Every tab
// of a game places the same states the same way.
export function place(tree, moves, main) {
  if (main) { tree.cur = null; update(tree, moves); return; }
  const fits = (v) => v && (isPrefix(v.moves, moves) || isPrefix(moves, v.moves));
  const held = tree.cur != null ? varOf(tree, tree.cur) : null;
  const v = (fits(held) && held)
    || tree.vars.find((x) => x.moves.length === moves.length && isPrefix(x.moves, moves))
    || tree.vars.find((x) => isPrefix(x.moves, moves))
    || tree.vars.find((x) => isPrefix(moves, x.moves));
  if (v) { tree.cur = v.id; v.moves = moves.slice(); return; }
  const nv = { id: tree.next++, moves: moves.slice() };
  tree.vars.push(nv);
  tree.cur = nv.id;
}

// A variation (at any depth) becomes the main line; the main line becomes the first
// variation, so that the lines that hung from it still do.
export function promote(tree, id) {
  const v = varOf(tree, id);
  if (!v) return;
  const old = tree.main;
  tree.main = v.moves;
  tree.vars = [{ id, moves: old }, ...tree.vars.filter((w) => w !== v)];
  tree.cur = tree.cur === id ? null : tree.cur == null ? id : tree.cur;
  dedupe(tree);
}

// The variations `remove` would delete: `id` and every one inside it.
export function subtree(tree, id) {
  const info = layout(tree);
  const gone = new Set([id]);
  for (const v of tree.vars) if (gone.has(info.get(v.id).parent)) gone.add(v.id);
  return gone;
}

export function remove(tree, id) {
  const gone = subtree(tree, id);
  tree.vars = tree.vars.filter((v) => !gone.has(v.id));
}

// A variation inside the main line (or inside another) adds nothing.
function dedupe(tree) {
  tree.vars = tree.vars.filter((v, i) => v.id === tree.cur || (!isPrefix(v.moves, tree.main)
    && !tree.vars.some((w, j) => j !== i && isPrefix(v.moves, w.moves) && (v.moves.length < w.moves.length || j < i))));
}

// The line whose own move is ply `ply` of line `id` (the move shown there in the list): the
// line itself, or the one it hangs from for the plies it shares with it.
export function ownerAt(tree, info, id, ply) {
  while (id != null) {
    const i = info.get(id);
    if (!i || ply > i.fork) return id;
    id = i.parent;
  }
  return null;
}

// The tree in reading order, as the move list and a PDN show it: one entry per move with
// `{id, ply, move, depth, first (a variation's first move), closes (variations that end
// after it), resume (it follows a variation)}`; a variation comes after the move it replaces
// (or after a line's last move when it goes on from its end).
export function flatten(tree) {
  const info = layout(tree);
  const out = [];
  const kids = (id, fork) => tree.vars.filter((v) => {
    const i = info.get(v.id);
    return i.parent === id && i.fork === fork && v.moves.length > fork;
  });
  const vars = (list, depth) => {
    for (const v of list) {
      line(v.id, v.moves, info.get(v.id).fork, depth + 1);
      out[out.length - 1].closes++;
    }
    return list.length > 0;
  };
  const line = (id, moves, from, depth) => {
    if (moves.length === from) { vars(kids(id, from), depth); return; }
    let resume = false;
    for (let ply = from + 1; ply <= moves.length; ply++) {
      out.push({ id, ply, move: moves[ply - 1], depth, first: id != null && ply === from + 1, closes: 0, resume });
      resume = vars(kids(id, ply - 1), depth);
      if (ply === moves.length) vars(kids(id, ply), depth);
    }
  };
  line(null, tree.main, 0, 0);
  return out;
}

// Move numbers: `{num, white}` of ply `ply` (1 = the first) from a start FEN.
export function numbering(startFen) {
  const parts = startFen.trim().split(/\s+/);
  const black = (parts[1] || 'w').toLowerCase() === 'b';
  const first = +(parts[3] || 1) || 1;
  return (ply) => {
    const k = ply - 1 + (black ? 1 : 0);
    return { num: first + Math.floor(k / 2), white: k % 2 === 0 };
  };
}

// `12. c3-d4` or `12... c5-d4`: ply `ply` (1 = the first) of a game from `startFen`, in move
// numbers, as a person reads a position's place in a game.
export function moveName(startFen, ply, move) {
  const { num, white } = numbering(startFen)(ply);
  return `${num}${white ? '.' : '...'} ${move}`;
}

// The movetext with variations in parentheses, nested, PDN style. PDN has no variation from
// the end of a line: one is written as the alternative to the line's last move that plays
// that move first (read back, it is the same line); an empty main line with variations has
// its first variation written as the main line.
// `note(moves)` writes the glyph and comment of the move ending `moves` (`!? {text}`).
export function movetext(tree, startFen, result, fmt = (m) => m, note = () => '') {
  if (!tree.main.length && tree.vars.length) {
    tree = { ...tree, vars: tree.vars.slice(), cur: null };
    promote(tree, tree.vars[0].id);
  }
  const number = numbering(startFen);
  const info = layout(tree);
  const out = [];
  flatten(tree).forEach((e, k) => {
    if (e.first && e.ply > 1 && info.get(e.id).fork === lineOf(tree, info.get(e.id).parent).length) {
      // From the end of its line: the line's last move first.
      const prev = number(e.ply - 1);
      const own = lineOf(tree, e.id);
      out.push('(' + prev.num + (prev.white ? '.' : '...') + ' ' + fmt(own[e.ply - 2]) + note(own.slice(0, e.ply - 1)));
      e = { ...e, first: false, resume: false };
    }
    const { num, white } = number(e.ply);
    const num0 = white ? num + '.' : e.first || e.resume || k === 0 ? num + '...' : '';
    const mark = note(lineOf(tree, e.id).slice(0, e.ply));
    out.push((e.first ? '(' : '') + (num0 ? num0 + ' ' : '') + fmt(e.move) + mark + ')'.repeat(e.closes));
  });
  out.push(result || '*');
  return out.join(' ');
}
