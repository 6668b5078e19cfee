//! A game as a PDN record, in the format `bashni match` writes (engine-protocol.md, "Game
//! records (PDN)"), so `bashni serve` can load it back and other tools read both alike:
//! Russian and Turkish games with the standard FEN and `x` between capture squares.

use super::session::Session;
use super::settings::Human;
use crate::games::kit::color::Color;
use crate::record::game_record::pdn_move;
use crate::record::pdn::{PdnGame, PdnMove};
use crate::record::pdn_write::{today, write_game};

/// The name of a side's player in the record.
fn player(s: &Session, c: Color) -> String {
    match s.human() {
        Human::Both => "person".into(),
        Human::Side(h) if h == c => "person".into(),
        Human::Side(_) => format!("bashni level {}", s.level()),
    }
}

/// The PDN text of the game so far (`*` as the result while it goes on); its `GameType`
/// names its game.
pub fn game_pdn(s: &Session) -> String {
    let variant = s.variant();
    let end = s.end();
    let result = end.map_or("*", |e| e.result.pdn());
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), "bashni serve".into()),
        ("Site".into(), "local".into()),
        ("Date".into(), today()),
        ("Round".into(), "-".into()),
        ("White".into(), player(s, Color::White)),
        ("Black".into(), player(s, Color::Black)),
        ("Result".into(), result.into()),
        ("GameType".into(), variant.pdn_game_type().into()),
    ];
    let start = s.game().fens()[0].clone();
    let initial = crate::for_variant!(variant, G => <G as crate::games::Rules>::START_FEN);
    if start != initial {
        tags.push(("SetUp".into(), "1".into()));
        tags.push((
            "FEN".into(),
            crate::record::game_record::fen_tag(variant, &start),
        ));
    }
    if let Some(e) = end {
        tags.push(("Termination".into(), e.reason.tag()));
    }
    tags.push(("PlyCount".into(), s.game().moves().len().to_string()));
    let moves = s
        .game()
        .moves()
        .iter()
        .map(|m| PdnMove {
            text: pdn_move(variant, m),
            comment: None,
            ..PdnMove::default()
        })
        .collect();
    write_game(&PdnGame {
        tags,
        moves,
        result: result.into(),
    })
}
