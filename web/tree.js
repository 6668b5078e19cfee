// The move tree, kept by the page: the main line (the server game's moves when it holds the
// main line) and variations, each stored as its whole line from the start. The server game
// always holds one line of the tree (`cur`: null for the main line, else a variation's id).

export const isPrefix = (a, b) => a.length <= b.length && a.every((m, i) => m === b[i]);
export function common(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

export function newTree(main) {
  return { main: main.slice(), vars: [], cur: null, next: 1 };
}

export const varOf = (tree, id) => tree.vars.find((v) => v.id === id) || null;
export const lineOf = (tree, id) => (id == null ? tree.main : varOf(tree, id).moves);

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
  if (tree.cur == null) tree.main = moves.slice();
  else { const v = varOf(tree, tree.cur); if (v) v.moves = moves.slice(); }
}

// A variation becomes the main line, the main line a variation.
export function promote(tree, id) {
  const v = varOf(tree, id);
  if (!v) return;
  [tree.main, v.moves] = [v.moves, tree.main];
  if (tree.cur === id) tree.cur = null;
  else if (tree.cur == null) tree.cur = id;
  dedupe(tree);
}

export function remove(tree, id) {
  tree.vars = tree.vars.filter((v) => v.id !== id);
}

// A variation now inside the main line (or inside another) adds nothing.
function dedupe(tree) {
  tree.vars = tree.vars.filter((v, i) => !isPrefix(v.moves, tree.main)
    && !tree.vars.some((w, j) => j !== i && isPrefix(v.moves, w.moves) && (v.moves.length < w.moves.length || j < i)));
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

// The movetext with variations in parentheses, PDN style.
export function movetext(tree, startFen, result, fmt = (m) => m) {
  const number = numbering(startFen);
  const line = (moves, from, forced) => {
    const out = [];
    moves.slice(from).forEach((m, k) => {
      const ply = from + k + 1;
      const { num, white } = number(ply);
      if (white) out.push(num + '.');
      else if (k === 0 && forced) out.push(num + '...');
      out.push(fmt(m));
      // Variations replacing this ply of the main line.
      if (moves === tree.main) {
        const here = tree.vars.filter((v) => forkOf(tree, v) === ply - 1);
        for (const v of here) out.push('(' + line(v.moves, ply - 1, true) + ')');
        if (here.length && white && ply < moves.length) out.push(num + '...');
      }
    });
    return out.join(' ');
  };
  let text = line(tree.main, 0, true);
  // Variations from the end of the main line.
  for (const v of tree.vars) if (forkOf(tree, v) === tree.main.length) text += ' (' + line(v.moves, tree.main.length, true) + ')';
  return (text + ' ' + (result || '*')).trim();
}
