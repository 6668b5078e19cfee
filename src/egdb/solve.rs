//! The retrograde solver: the values of one group of signatures (a signature and, if it
//! differs, the same material with the other side to move: a king move leads from one to the
//! other) from the tables of less material already solved.
//!
//! The group is solved in sub-problems, one placement of the men at a time (module `split`):
//! a man's move leaves its sub-problem for one solved before. In a sub-problem each position's
//! moves are generated once. A move that leaves it (a capture, a crowning, a man's move
//! forward) takes the value of the position it leads to at once; a king's move, or a man's
//! move that stays (a Turkish man's sideways move), becomes an edge. Then two fixpoints:
//! under the rule (distances up to the game's limit count, a longer one is no win) and
//! without it (for cursed wins and blessed losses); each re-evaluates a position from its
//! successors whenever one of them changed, until nothing changes (module `value` for what
//! the values mean).

use super::fixpoint::{Exits, Graph, Node, RESETS, combine, fixpoint, predecessors};
use super::game::{EgdbGame, Layout, stored};
use super::material::{Indexer, Signature, indexer};
use super::probe::{ProbeError, Store};
use super::split::{Config, Split};
use super::value::{MAX_DISTANCE, Plies, Value};
use rayon::prelude::*;

/// A code for a slot that holds no position.
pub const NO_POSITION: u16 = u16::MAX;

/// One solved table: the value code ([`Value::encode`]) of each slot, [`NO_POSITION`] for
/// a slot without a position, which slots hold no position or one with a capture to play (a
/// probe resolves those by a capture search), and which are the mirror of another slot (a
/// probe looks those up mirrored, [`super::game::stored`]). A file need hold neither.
pub struct Solved {
    /// The signature.
    pub sig: Signature,
    /// Value codes by slot (a mirrored slot holds its mirror's value, for probes of the
    /// table in memory).
    pub values: Vec<u16>,
    /// Slots with no position or a capture to play.
    pub optional: Vec<bool>,
    /// Slots stored as their mirror (Turkish draughts; none in a game without the mirror).
    pub mirrored: Vec<bool>,
}

impl Solved {
    /// The slots a file need not hold: [`Solved::optional`] or [`Solved::mirrored`].
    pub fn left_out(&self) -> Vec<bool> {
        self.optional
            .iter()
            .zip(&self.mirrored)
            .map(|(&o, &m)| o || m)
            .collect()
    }
}

/// A slice of a sub-problem's graph: nodes, edge counts and edges of a run of its slots.
type Part = (Vec<Node>, Vec<u32>, Vec<u32>);

/// The group of `sig`: it, and its swap if different.
pub fn group(sig: Signature) -> Vec<Signature> {
    if sig.swapped() == sig {
        vec![sig]
    } else {
        vec![sig.min(sig.swapped()), sig.max(sig.swapped())]
    }
}

/// The signatures a build of `2..=pieces` pieces makes, grouped (a signature with its swap),
/// in the order they must be solved: fewer pieces first, then fewer men (a capture leads to
/// fewer pieces, a crowning to fewer men).
pub fn build_order(pieces: u32) -> Vec<Vec<Signature>> {
    let mut groups: Vec<Vec<Signature>> =
        Signature::all(2, pieces).into_iter().map(group).collect();
    groups.sort_by_key(|g| (g[0].pieces(), g[0].men(), g[0]));
    groups.dedup();
    groups
}

/// What solving a group reads: its tables' indexes, its split, the smaller tables, and the
/// values of the sub-problems solved so far.
struct Ctx<'a, G> {
    ix: &'a [Indexer],
    split: &'a Split,
    store: &'a Store<G>,
    values: &'a [Vec<u16>],
}

/// One sub-problem solved: each local slot's value code and whether it has a capture.
struct SubSolved {
    values: Vec<u16>,
    capture: Vec<bool>,
}

/// Solves the group of signatures `sigs` from `store` (which holds every smaller table) on
/// `threads` threads: its sub-problems (module `split`) in order, those of one total
/// advancement side by side.
pub fn solve<G: EgdbGame>(
    sigs: &[Signature],
    store: &Store<G>,
    threads: usize,
) -> Result<Vec<Solved>, ProbeError> {
    let ix: Vec<Indexer> = sigs.iter().map(|&s| indexer::<G>(s)).collect();
    let split = Split::new(&ix, G::SQUARES, G::MIRROR);
    let mut values: Vec<Vec<u16>> = ix
        .iter()
        .map(|i| vec![NO_POSITION; i.size() as usize])
        .collect();
    let mut optional: Vec<Vec<bool>> = ix.iter().map(|i| vec![true; i.size() as usize]).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.clamp(1, 64))
        .build()
        .expect("a thread pool");
    for level in split.levels() {
        let ctx = Ctx {
            ix: &ix,
            split: &split,
            store,
            values: &values,
        };
        let solved: Vec<Result<SubSolved, ProbeError>> = pool.install(|| {
            level
                .clone()
                .into_par_iter()
                .map(|s| solve_sub(&ctx, s))
                .collect()
        });
        for (s, solved) in level.zip(solved) {
            let solved = solved?;
            let mut local = 0;
            for c in &split.subs[s].configs {
                let ks = ix[c.table].king_slots() as usize;
                let at = c.men as usize * ks;
                values[c.table][at..at + ks].copy_from_slice(&solved.values[local..local + ks]);
                optional[c.table][at..at + ks].copy_from_slice(&solved.capture[local..local + ks]);
                local += ks;
            }
        }
    }
    let mut mirrored: Vec<Vec<bool>> = ix.iter().map(|i| vec![false; i.size() as usize]).collect();
    if G::MIRROR {
        for (t, i) in ix.iter().enumerate() {
            copy_mirrors(i, &mut values[t], &mut optional[t], &mut mirrored[t]);
        }
    }
    Ok(sigs
        .iter()
        .zip(values.into_iter().zip(optional).zip(mirrored))
        .map(|(&sig, ((values, optional), mirrored))| Solved {
            sig,
            values,
            optional,
            mirrored,
        })
        .collect())
}

/// Gives the positions of table `ix` solved as their mirror (module `split`) their mirror's
/// value and capture flag, and marks them mirrored.
fn copy_mirrors(ix: &Indexer, values: &mut [u16], optional: &mut [bool], mirrored: &mut [bool]) {
    let ks = ix.king_slots();
    for c in 0..ix.men_configs() {
        let Some(men) = ix.men(c).filter(|&m| Layout::mirror_first(m)) else {
            continue;
        };
        for k in 0..ks {
            let from = ix.index(&ix.with_kings(men, k).mirrored()) as usize;
            let to = (c * ks + k) as usize;
            values[to] = values[from];
            optional[to] = optional[from];
            mirrored[to] = true;
        }
    }
}

/// Solves sub-problem `s`: its graph, then the two fixpoints side by side.
fn solve_sub<G: EgdbGame>(ctx: &Ctx<G>, s: usize) -> Result<SubSolved, ProbeError> {
    let graph = build_graph(ctx, s)?;
    let preds = predecessors(&graph);
    let (rule, free) = rayon::join(
        || fixpoint(&graph, &preds, G::CLOCK_LIMIT, 0),
        || fixpoint(&graph, &preds, MAX_DISTANCE, 1),
    );
    Ok(SubSolved {
        values: rule
            .iter()
            .zip(&free)
            .map(|(&r, &f)| combine(r, f).encode())
            .collect(),
        capture: graph.nodes.iter().map(|n| n.capture).collect(),
    })
}

/// Slots of one task of graph building.
const CHUNK: u64 = 1 << 14;

/// Generates every position's moves in sub-problem `s`: its node, and its edges within the
/// sub-problem.
fn build_graph<G: EgdbGame>(ctx: &Ctx<G>, s: usize) -> Result<Graph, ProbeError> {
    let sub = &ctx.split.subs[s];
    // Tasks: (configuration, run of its king slots).
    let mut tasks = Vec::new();
    for c in &sub.configs {
        let ks = ctx.ix[c.table].king_slots();
        let mut lo = 0;
        while lo < ks {
            let hi = (lo + CHUNK).min(ks);
            tasks.push((*c, lo..hi));
            lo = hi;
        }
    }
    let parts: Vec<Result<Part, ProbeError>> = tasks
        .into_par_iter()
        .map(|(c, kings)| graph_part(ctx, s as u32, c, kings))
        .collect();
    let mut graph = Graph {
        nodes: Vec::with_capacity(sub.size as usize),
        start: Vec::with_capacity(sub.size as usize + 1),
        edges: Vec::new(),
    };
    graph.start.push(0);
    for part in parts {
        let (nodes, counts, edges) = part?;
        graph.nodes.extend(nodes);
        for c in counts {
            let last = *graph.start.last().unwrap();
            graph.start.push(last + c);
        }
        graph.edges.extend(edges);
    }
    Ok(graph)
}

/// Nodes, edge counts and edges of the king slots `kings` of configuration `c` of
/// sub-problem `s`.
fn graph_part<G: EgdbGame>(
    ctx: &Ctx<G>,
    s: u32,
    c: Config,
    kings: std::ops::Range<u64>,
) -> Result<Part, ProbeError> {
    let mut nodes = Vec::with_capacity(kings.clone().count());
    let mut counts = Vec::with_capacity(nodes.capacity());
    let mut edges = Vec::new();
    let mut prober = ctx.store.prober();
    let men = ctx.ix[c.table]
        .men(c.men)
        .expect("a sub-problem's men share no square");
    let kings_stay = KingMoves::new(ctx, c, men);
    for k in kings {
        let layout = ctx.ix[c.table].with_kings(men, k);
        let before = edges.len();
        let mut visit = |child: &G, resets: bool| -> Result<Option<Value>, ProbeError> {
            if !resets {
                // A king's move: the same men seen from the other side, the same sub-problem.
                edges.push(kings_stay.local(ctx, &child.layout().canonical(G::SQUARES)));
                return Ok(None);
            }
            let canon = stored::<G>(&child.layout());
            let sig = Signature::of(&canon);
            let Some(j) = ctx.ix.iter().position(|i| i.signature() == sig) else {
                return prober.probe(child).map(Some);
            };
            let slot = ctx.ix[j].index(&canon);
            let to = ctx.split.place(j, slot).expect("a position has a place");
            if to.sub == s {
                edges.push(to.local | RESETS);
                return Ok(None);
            }
            // A man's move to a sub-problem solved before (module `split`).
            let code = ctx.values[j][slot as usize];
            Ok(Some(
                Value::decode(code).expect("a sub-problem solved before"),
            ))
        };
        nodes.push(node_of::<G>(&layout, &mut visit)?);
        counts.push((edges.len() - before) as u32);
    }
    Ok((nodes, counts, edges))
}

/// Where a king's move from one men configuration leads: the configuration seen from the
/// other side (in the group's other table, if it has two), in the same sub-problem.
struct KingMoves {
    /// The table.
    table: usize,
    /// The table holds these positions mirrored (module `split`).
    mirror: bool,
    /// The squares its kings may take.
    free: u64,
    /// The local slot of its first king slot.
    base: u32,
}

impl KingMoves {
    fn new<G: EgdbGame>(ctx: &Ctx<G>, c: Config, men: [u64; 2]) -> KingMoves {
        let table = ctx.ix.len() - 1 - c.table;
        let mut seen = Layout {
            men,
            kings: [0, 0],
            side: crate::games::kit::Color::White,
        }
        .flipped(G::SQUARES);
        let mirror = G::MIRROR && Layout::mirror_first(seen.men);
        if mirror {
            seen = seen.mirrored();
        }
        let config = ctx.ix[table].men_config(seen.men);
        let place = ctx.split.place(table, config * ctx.ix[table].king_slots());
        KingMoves {
            table,
            mirror,
            free: !(seen.men[0] | seen.men[1]),
            base: place.expect("a position has a place").local,
        }
    }

    /// The local slot of `canon`, a position a king's move leads to (White to move).
    fn local<G>(&self, ctx: &Ctx<G>, canon: &Layout) -> u32 {
        let kings = if self.mirror {
            canon.mirrored().kings
        } else {
            canon.kings
        };
        self.base + ctx.ix[self.table].king_part(kings, self.free) as u32
    }
}

/// The node of one position; `visit` records a move to a position in the group and returns
/// `None`, or returns the value of a position outside it.
fn node_of<G: EgdbGame>(
    layout: &Layout,
    visit: &mut impl FnMut(&G, bool) -> Result<Option<Value>, ProbeError>,
) -> Result<Node, ProbeError> {
    let pos = G::from_layout(layout);
    let mut node = Node::default();
    if let Some(winner) = pos.decided() {
        let v = if winner == pos.side_to_move() {
            Value::Win(Plies(0))
        } else {
            Value::Loss(Plies(0))
        };
        node.fixed = Some(v);
        return Ok(node);
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        node.fixed = Some(Value::Loss(Plies(0)));
        return Ok(node);
    }
    // With no exit "each exit loses" holds vacuously, and the edges decide.
    node.exits = [Exits {
        win: false,
        all_lose: true,
    }; 2];
    for m in moves.iter() {
        node.capture |= G::is_capture(m);
        let child = pos.played(m);
        let resets = G::is_capture(m)
            || child.layout().men[layout.side.index()] != layout.men[layout.side.index()];
        if let Some(v) = visit(&child, resets)? {
            let ours = v.after_reset();
            node.exits[0].win |= matches!(ours, Value::Win(_));
            node.exits[0].all_lose &= matches!(ours, Value::Loss(_));
            node.exits[1].win |= matches!(ours, Value::Win(_) | Value::CursedWin(_));
            node.exits[1].all_lose &= matches!(ours, Value::Loss(_) | Value::BlessedLoss(_));
        }
    }
    Ok(node)
}
