// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), as lichess rates its
// puzzles: a rating, its deviation (how unsure it is) and a volatility. The puzzle mode
// rates each first try as one game between the person and the puzzle, and moves both.
// Pure functions; no storage, no page.

const SCALE = 173.7178;        // Glicko-2's scale: rating = 1500 + SCALE × mu
const TAU = 0.75;              // how fast the volatility may change (lichess' puzzles use 0.75)
const EPSILON = 0.000001;      // the volatility's iteration stops this close
export const MIN_DEVIATION = 45;   // a deviation never falls below this (lichess: 45)
export const MAX_DEVIATION = 350;  // nor rises above a new player's

/** A new rating: `rating` at the greatest uncertainty (a new player), or `deviation`. */
export function fresh(rating, deviation = MAX_DEVIATION) {
  return { rating, deviation, volatility: 0.06 };
}

const g = (phi) => 1 / Math.sqrt(1 + 3 * phi * phi / (Math.PI * Math.PI));

/**
 * The rating `player` has after one rating period with the `games` given: each
 * `{opponent, score}` (score 1 a win, 0 a loss, 0.5 a draw), the opponents' ratings as
 * they were before the period; `tau` bounds the volatility's change. Glickman's steps 2 to 8.
 */
export function rate(player, games, tau = TAU) {
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.deviation / SCALE;
  const sigma = player.volatility;
  if (games.length === 0) {
    const grown = Math.sqrt(phi * phi + sigma * sigma) * SCALE;
    return { ...player, deviation: Math.min(MAX_DEVIATION, grown) };
  }
  // Step 3 and 4: the estimated variance and improvement.
  let vInv = 0;
  let sum = 0;
  for (const { opponent, score } of games) {
    const muJ = (opponent.rating - 1500) / SCALE;
    const gJ = g(opponent.deviation / SCALE);
    const e = 1 / (1 + Math.exp(-gJ * (mu - muJ)));
    vInv += gJ * gJ * e * (1 - e);
    sum += gJ * (score - e);
  }
  const v = 1 / vInv;
  const delta = v * sum;
  // Step 5: the new volatility (Illinois' regula falsi on f).
  const a = Math.log(sigma * sigma);
  const f = (x) => {
    const ex = Math.exp(x);
    const d = phi * phi + v + ex;
    return ex * (delta * delta - d) / (2 * d * d) - (x - a) / (tau * tau);
  };
  let lo = a;
  let hi;
  if (delta * delta > phi * phi + v) {
    hi = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    hi = a - k * tau;
  }
  let fLo = f(lo);
  let fHi = f(hi);
  for (let i = 0; i < 100 && Math.abs(hi - lo) > EPSILON; i += 1) {
    const c = lo + (lo - hi) * fLo / (fHi - fLo);
    const fC = f(c);
    if (fC * fHi <= 0) { lo = hi; fLo = fHi; } else { fLo /= 2; }
    hi = c;
    fHi = fC;
  }
  const sigmaNew = Math.exp(lo / 2);
  // Steps 6 to 8: the new deviation and rating.
  const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  return {
    rating: 1500 + SCALE * muNew,
    deviation: Math.min(MAX_DEVIATION, Math.max(MIN_DEVIATION, SCALE * phiNew)),
    volatility: sigmaNew,
  };
}

/** Both sides of one game between a person and a puzzle: the person `solved` it or not. */
export function ratePuzzle(person, puzzle, solved) {
  const s = solved ? 1 : 0;
  return {
    person: rate(person, [{ opponent: puzzle, score: s }]),
    puzzle: rate(puzzle, [{ opponent: person, score: 1 - s }]),
  };
}
