//! The games by name: [`Variant`], chosen at the edges (`--variant`, a PDN `GameType` tag).

use std::fmt;
use std::str::FromStr;

/// A game, chosen by name at the edges (`--variant`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// Russian column checkers (docs/rules.md).
    #[default]
    Bashni,
    /// Turkish draughts (docs/rules-turkish.md).
    Turkish,
    /// Russian draughts (docs/rules-russian.md).
    Russian,
    /// Brazilian draughts, international draughts on 8x8 (docs/rules-brazilian.md).
    Brazilian,
    /// Lasca, Lasker's column draughts (docs/rules-lasca.md).
    Lasca,
}

impl Variant {
    /// Every variant, in the order the help lists them.
    pub const ALL: [Variant; 5] = [
        Variant::Bashni,
        Variant::Turkish,
        Variant::Russian,
        Variant::Brazilian,
        Variant::Lasca,
    ];

    /// The name typed after `--variant`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Bashni => "bashni",
            Variant::Turkish => "turkish",
            Variant::Russian => "russian",
            Variant::Brazilian => "brazilian",
            Variant::Lasca => "lasca",
        }
    }

    /// The value of the PDN `GameType` tag: the standard's number and board description
    /// where the game has one (FMJD's PDN table: 25 Russian, 26 Brazilian, 30 Turkish
    /// draughts; Lidraughts and pydraughts use these numbers too); Bashni and Lasca, which
    /// have none, keep their names.
    pub const fn pdn_game_type(self) -> &'static str {
        match self {
            Variant::Bashni => "Bashni",
            Variant::Turkish => "30,W,8,8,A0,0",
            Variant::Russian => "25,W,8,8,A0,0",
            Variant::Brazilian => "26,W,8,8,A0,0",
            Variant::Lasca => "Lasca",
        }
    }

    /// The variant of a PDN `GameType` tag value (its number, or Bashni's name).
    pub fn from_pdn_game_type(tag: &str) -> Option<Variant> {
        let number = tag.split(',').next().unwrap_or("").trim();
        Variant::ALL.into_iter().find(|v| {
            let own = v.pdn_game_type().split(',').next().unwrap_or("");
            number.eq_ignore_ascii_case(own)
        })
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not one of [`Variant::ALL`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        write!(
            f,
            "unknown variant '{}' (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Reads a variant name, ignoring ASCII case.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.to_string().parse::<Variant>(), Ok(v));
        }
        assert_eq!("Turkish".parse::<Variant>(), Ok(Variant::Turkish));
        let e = "chess".parse::<Variant>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown variant 'chess' (expected one of: bashni, turkish, russian, brazilian, lasca)"
        );
        assert_eq!(Variant::default(), Variant::Bashni);
        for v in Variant::ALL {
            assert_eq!(Variant::from_pdn_game_type(v.pdn_game_type()), Some(v));
        }
        assert_eq!(Variant::from_pdn_game_type("30"), Some(Variant::Turkish));
        assert_eq!(Variant::from_pdn_game_type("26"), Some(Variant::Brazilian));
        assert_eq!(Variant::from_pdn_game_type("bashni"), Some(Variant::Bashni));
        assert_eq!(Variant::from_pdn_game_type("Lasca"), Some(Variant::Lasca));
        assert_eq!(Variant::from_pdn_game_type("20,W,10,10,N2,0"), None);
    }
}
