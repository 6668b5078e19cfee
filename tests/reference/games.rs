//! Each game's rules as values of the one reference generator, each value with the section of
//! the game's rules page that says it: read each block beside its page. A new game of this
//! family (diagonal or orthogonal moves, columns or not) is one more block here, not another
//! generator.

use super::{Crowning, Rules, SameMove, Taking};

/// Bashni (docs/rules.md): Russian draughts whose captured pieces go under the capturer.
pub static BASHNI: Rules = Rules {
    size: 8,                          // 1
    every_square: false,              // 1: the 32 dark squares
    orthogonal: false,                // 2.1
    men_capture_backward: true,       // 2.2
    flying_kings: true,               // 2.1, 2.2
    taking: Taking::TopUnderCapturer, // 2.2
    rejump_after_another: true,       // 2.3: no immediate turn-back, later again
    landing_rule: true,               // 2.3
    no_reverse: false,                // 2.3: only the tower just jumped is barred
    majority: false,                  // 2: free choice
    crowning: Crowning::GoesOnAsKing, // 2.3
    same_move: SameMove::Path,        // 6: once per distinct landing path
    men_reset_clock: false,           // 4.2: plies since the last capture
};

/// Russian draughts (docs/rules-russian.md): jumped pieces stay, blocking, until the move ends.
pub static RUSSIAN: Rules = Rules {
    size: 8,                               // 1
    every_square: false,                   // 1
    orthogonal: false,                     // 2.1
    men_capture_backward: true,            // 2.2
    flying_kings: true,                    // 2.1, 2.2
    taking: Taking::RemoveAtEnd,           // 2.3
    rejump_after_another: false,           // 2.3: not jumped a second time
    landing_rule: true,                    // 2.3
    no_reverse: false,                     // 2.3
    majority: false,                       // 2: chooses freely
    crowning: Crowning::GoesOnAsKing,      // 2.3
    same_move: SameMove::StartEndCaptured, // 2.4
    men_reset_clock: true,                 // 4: plies since the last capture or man move
};

/// Brazilian draughts (docs/rules-brazilian.md): Russian draughts' board and moves under
/// international draughts' captures: only the longest, and no crowning in passing.
pub static BRAZILIAN: Rules = Rules {
    size: 8,                               // 1
    every_square: false,                   // 1
    orthogonal: false,                     // 2.1
    men_capture_backward: true,            // 2.2
    flying_kings: true,                    // 2.1, 2.2
    taking: Taking::RemoveAtEnd,           // 2.3
    rejump_after_another: false,           // 2.3: not jumped a second time
    landing_rule: false,                   // 2.3: the majority rule alone picks landings
    no_reverse: false,                     // 2.3
    majority: true,                        // 2.3: the most pieces, kings counting as men
    crowning: Crowning::AtTheEnd,          // 2.3: crowned only where the move ends
    same_move: SameMove::StartEndCaptured, // 2.4
    men_reset_clock: true,                 // 3, 4: plies since the last capture or man move
};

/// Turkish draughts (docs/rules-turkish.md): all 64 squares, straight moves, jumped pieces gone
/// at once, no 180-degree turn, only the longest captures.
pub static TURKISH: Rules = Rules {
    size: 8,                          // 1
    every_square: true,               // 1: all 64 squares
    orthogonal: true,                 // 2.1
    men_capture_backward: false,      // 2.2: forward and sideways
    flying_kings: true,               // 2.1, 2.2
    taking: Taking::RemoveAtOnce,     // 2.3: immediate removal
    rejump_after_another: false,      // moot: a jumped piece is gone
    landing_rule: false,              // 2.3: the majority rule alone picks landings
    no_reverse: true,                 // 2.3
    majority: true,                   // 2, 2.3
    crowning: Crowning::GoesOnAsKing, // 2.3
    same_move: SameMove::Path,        // 2.4
    men_reset_clock: true,            // 4.2: plies since the last capture or man move
};

/// Lasca (RULES-lasca.md in the shared folder, section 2): 7x7, columns as in Bashni, soldiers
/// move and capture forward only, officers step one square, no column jumped twice, promotion
/// ends the move. The clock (the library's addition, as in Bashni) counts plies since a capture.
pub static LASCA: Rules = Rules {
    size: 7,                          // 1
    every_square: false,              // 1: file + rank even, 25 squares
    orthogonal: false,                // 5, 6, 7
    men_capture_backward: false,      // 7
    flying_kings: false,              // 6: officers do not fly
    taking: Taking::TopUnderCapturer, // 8
    rejump_after_another: false,      // 12
    landing_rule: false,              // moot: one landing square per jump
    no_reverse: false,                // 12 bars it anyway: no column jumped twice
    majority: false,                  // 10
    crowning: Crowning::EndsCapture,  // 13
    same_move: SameMove::Path,        // 5: perft counts paths
    men_reset_clock: false,
};
