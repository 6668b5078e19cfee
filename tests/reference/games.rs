//! Each game's rules as values of the one reference generator: read each block beside its rules
//! page. A new game of this family (diagonal or orthogonal moves, towers or not) is one more
//! block here, not another generator.

use super::{Rules, SameMove, Taking};

/// Bashni (docs/rules.md): Russian draughts whose captured pieces go under the capturer.
pub static BASHNI: Rules = Rules {
    size: 8,
    every_square: false,
    orthogonal: false,
    men_capture_backward: true,
    flying_kings: true,
    taking: Taking::TopUnderCapturer,
    rejump_after_another: true,
    landing_rule: true,
    no_reverse: false,
    majority: false,
    crowning_ends_capture: false,
    same_move: SameMove::Path,
    men_reset_clock: false,
};

/// Russian draughts (docs/rules-russian.md): jumped pieces stay, blocking, until the move ends.
pub static RUSSIAN: Rules = Rules {
    size: 8,
    every_square: false,
    orthogonal: false,
    men_capture_backward: true,
    flying_kings: true,
    taking: Taking::RemoveAtEnd,
    rejump_after_another: false,
    landing_rule: true,
    no_reverse: false,
    majority: false,
    crowning_ends_capture: false,
    same_move: SameMove::StartEndCaptured,
    men_reset_clock: true,
};

/// Turkish draughts (docs/rules-turkish.md): all 64 squares, straight moves, jumped pieces gone
/// at once, no 180-degree turn, only the longest captures. No landing rule: the majority rule
/// alone picks a king's landings.
pub static TURKISH: Rules = Rules {
    size: 8,
    every_square: true,
    orthogonal: true,
    men_capture_backward: false,
    flying_kings: true,
    taking: Taking::RemoveAtOnce,
    rejump_after_another: false,
    landing_rule: false,
    no_reverse: true,
    majority: true,
    crowning_ends_capture: false,
    same_move: SameMove::Path,
    men_reset_clock: true,
};

/// Lasca (RULES-lasca.md in the shared folder): 7x7, columns as in Bashni, soldiers capture
/// forward only, officers step, no column jumped twice, promotion ends the move. The clock
/// counts plies since a capture, as the library's Lasca writes it.
pub static LASCA: Rules = Rules {
    size: 7,
    every_square: false,
    orthogonal: false,
    men_capture_backward: false,
    flying_kings: false,
    taking: Taking::TopUnderCapturer,
    rejump_after_another: false,
    landing_rule: false,
    no_reverse: false,
    majority: false,
    crowning_ends_capture: true,
    same_move: SameMove::Path,
    men_reset_clock: false,
};
