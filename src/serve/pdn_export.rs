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

/// The tags this server writes itself, from the game as it is now: a loaded PDN's own
/// values of these are not copied.
const OWN_TAGS: [&str; 6] = [
    "Result",
    "GameType",
    "SetUp",
    "FEN",
    "Termination",
    "PlyCount",
];

/// The PDN text of the game so far (`*` as the result while it goes on); its `GameType`
/// names its game. The tags of a loaded PDN are kept (its players, event, site, date, round
/// and any others), except those the game as it is now decides ([`OWN_TAGS`]); the moves carry
/// their comments and glyphs.
pub fn game_pdn(s: &Session) -> String {
    let variant = s.variant();
    let end = s.end();
    let result = end.map_or("*", |e| e.result.pdn());
    let loaded = &s.notes().tags;
    let kept = |name: &str, default: String| {
        let v = loaded
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone());
        (name.to_string(), v.unwrap_or(default))
    };
    let mut tags: Vec<(String, String)> = vec![
        kept("Event", "bashni serve".into()),
        kept("Site", "local".into()),
        kept("Date", today()),
        kept("Round", "-".into()),
        kept("White", player(s, Color::White)),
        kept("Black", player(s, Color::Black)),
        ("Result".into(), result.into()),
        ("GameType".into(), variant.pdn_game_type().into()),
    ];
    // The ballot it began with, unless the loaded PDN names its opening itself.
    let ballot = s.opening();
    if let Some(b) = &ballot {
        tags.push(kept("Opening", b.label()));
    }
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
    for (name, value) in loaded {
        let roster = ["Event", "Site", "Date", "Round", "White", "Black"];
        let named = ballot.is_some() && name == "Opening";
        if !roster.contains(&name.as_str()) && !OWN_TAGS.contains(&name.as_str()) && !named {
            tags.push((name.clone(), value.clone()));
        }
    }
    let played = s.game().moves();
    let moves = (1..=played.len())
        .map(|ply| {
            let note = s.notes().get(&played[..ply]).cloned().unwrap_or_default();
            PdnMove {
                text: pdn_move(variant, &played[ply - 1]),
                comment: (!note.comment.is_empty()).then_some(note.comment),
                mark: note.glyph,
                ..PdnMove::default()
            }
        })
        .collect();
    write_game(&PdnGame {
        tags,
        moves,
        result: result.into(),
    })
}
