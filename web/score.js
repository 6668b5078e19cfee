// Scores in words, White's view everywhere on the page: the engine's scores (from the mover's
// view, `scoreText`), the review's (from White's view already, `whiteText` and the list's
// short `evalText`). Below every module that writes a score (analysis, threat mode, hints,
// the review and learning), so none of them imports another for it.

// A score from the mover's view (`side` 'w' or 'b' to move), as `+0.35`, `−1.20`,
// `White wins in 3`, or `White winning` where the server marks it decisive (ten men or more
// either way: a side simply wins).
export function scoreText(score, side) {
  const sign = side === 'w' ? 1 : -1;
  if (score.mate !== undefined) {
    const n = score.mate * sign;
    return (n > 0 ? 'White' : 'Black') + ' wins in ' + Math.abs(score.mate);
  }
  const cp = score.cp * sign;
  if (score.decisive) return (cp > 0 ? 'White' : 'Black') + ' winning';
  return (cp >= 0 ? '+' : '−') + (Math.abs(cp) / 100).toFixed(2);
}

// White's share of the evaluation bar, 0 to 1, for a score from the mover's view.
export function whiteShare(score, side) {
  const sign = side === 'w' ? 1 : -1;
  if (score.mate !== undefined) return score.mate * sign > 0 ? 1 : 0;
  return 0.5 + 0.5 * Math.tanh((score.cp * sign) / 400);
}

// A review's score (White's view already) in words: `+0.35`, `White wins in 3`, `White
// winning`, or a game its rules ended: `game over (1-0)`.
export function whiteText(score) {
  if (score.result !== undefined) return `game over (${score.result})`;
  return scoreText(score, 'w');
}

// A review's score, short, for the move list: `0.35`, `-1.20`, `M3` / `-M3` for mates, `+−`
// / `−+` (the annotators' "decisive advantage") where the server marks it decisive; a game
// its rules ended is its result (`1-0`, `0-1`, `1/2-1/2`): over, not a mate in 0.
export function evalText(score) {
  if (score.result !== undefined) return score.result;
  if (score.mate !== undefined) return (score.mate < 0 ? '-M' : 'M') + Math.abs(score.mate);
  if (score.decisive) return score.cp > 0 ? '+−' : '−+';
  return (score.cp / 100).toFixed(2);
}
