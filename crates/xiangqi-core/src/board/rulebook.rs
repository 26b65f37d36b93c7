//! The rules the arbiter cites, numbered as the Asian Xiangqi Federation's rule book
//! numbers them in its chapter on repeated moves (the English translation the WXF
//! publishes): the general principles of ruling a game (section 2, cited as "§2.n") and
//! the detailed rules with their example diagrams (section 4, cited by number).
//! docs/rules.md lists them with the definitions they rest on.

use std::fmt;

/// A rule of the book, as a ruling cites it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Section 2, principle 2: both sides break the same rule: a draw.
    BothOffend,
    /// Section 2, principle 3: one side checks perpetually, the other chases perpetually.
    CheckAgainstChase,
    /// Section 2, principle 4: the side breaking a rule must change or lose.
    MustChange,
    /// A repetition in which neither side breaks a rule is a draw.
    NoOffence,
    /// Perpetual check, by one piece or several, loses.
    PerpetualCheck,
    /// Both sides checking perpetually is a draw.
    MutualCheck,
    /// Two checks against one check back: the side checking perpetually loses.
    TwoChecksOneBack,
    /// Threatening mate perpetually is a draw.
    MateThreat,
    /// Answering a threat to mate with a threat to mate back, perpetually, is a draw.
    MateThreatBack,
    /// One check and one chase (or several checks and one chase) is a draw.
    CheckAndChase,
    /// One check and one idle move is a draw.
    CheckAndIdle,
    /// Cannons may not chase a chariot perpetually, even a protected one.
    CannonChasesChariot,
    /// One cannon chasing two chariots in turn (or two cannons two chariots) is a draw.
    CannonChasesTwoChariots,
    /// A chariot may chase a protected cannon perpetually.
    ChariotChasesProtectedCannon,
    /// A chariot may not chase an unprotected cannon perpetually.
    ChariotChasesCannon,
    /// A chariot held in place by an enemy horse may not be chased perpetually.
    ChariotHeldByHorse,
    /// A chariot may not chase a horse perpetually.
    ChariotChasesHorse,
    /// Chariot on chariot, cannon on cannon, horse on horse: an exchange offered is no
    /// chase; a piece that cannot take back may not be chased.
    SameKind,
    /// A cannon may not chase an unprotected piece through a screen that moves; soldiers
    /// that have not crossed the river may be chased.
    CannonThroughScreen,
    /// A chariot confined to a line by a cannon does not chase by moving along it.
    ConfinedChariot,
    /// The general may chase perpetually.
    GeneralChases,
    /// Soldiers may chase perpetually.
    SoldierChases,
    /// One piece chasing two or more in turn is a draw.
    OneChasesTwo,
    /// Two or more pieces may not chase one piece in turn.
    TwoChaseOne,
    /// A piece whose protector cannot take back is unprotected.
    FalselyProtected,
    /// Pieces attacking a protected piece do not chase it.
    ProtectedPiece,
    /// A chase that also offers an exchange is still a chase.
    OfferExchangeWhileChasing,
    /// Offering an exchange or a sacrifice perpetually is a draw.
    OfferExchange,
}

impl Rule {
    /// The rule's number in the book: `"6"` for section 4's sixth rule, `"§2.3"` for
    /// section 2's third principle.
    pub const fn number(self) -> &'static str {
        match self {
            Rule::BothOffend => "§2.2",
            Rule::CheckAgainstChase => "§2.3",
            Rule::MustChange => "§2.4",
            Rule::NoOffence => "5",
            Rule::PerpetualCheck => "6",
            Rule::MutualCheck => "7",
            Rule::TwoChecksOneBack => "8",
            Rule::MateThreat => "9",
            Rule::MateThreatBack => "10",
            Rule::CheckAndChase => "12",
            Rule::CheckAndIdle => "13",
            Rule::CannonChasesChariot => "15",
            Rule::CannonChasesTwoChariots => "16",
            Rule::ChariotChasesProtectedCannon => "17",
            Rule::ChariotChasesCannon => "18",
            Rule::ChariotHeldByHorse => "19",
            Rule::ChariotChasesHorse => "23",
            Rule::SameKind => "24",
            Rule::CannonThroughScreen => "25",
            Rule::ConfinedChariot => "27",
            Rule::GeneralChases => "28",
            Rule::SoldierChases => "29",
            Rule::OneChasesTwo => "32",
            Rule::TwoChaseOne => "33",
            Rule::FalselyProtected => "34",
            Rule::ProtectedPiece => "35",
            Rule::OfferExchangeWhileChasing => "36",
            Rule::OfferExchange => "40",
        }
    }

    /// The rule in one line.
    pub const fn text(self) -> &'static str {
        match self {
            Rule::BothOffend => "both sides break the same rule and neither changes: a draw",
            Rule::CheckAgainstChase => {
                "one side checks perpetually, the other chases perpetually: the checking side must change or lose"
            }
            Rule::MustChange => "the side that breaks a rule must change its moves or lose",
            Rule::NoOffence => "both sides repeat and neither breaks a rule: a draw",
            Rule::PerpetualCheck => "perpetual check, with one piece or several, loses",
            Rule::MutualCheck => "both sides check perpetually: a draw",
            Rule::TwoChecksOneBack => {
                "two checks against one check back: the side checking perpetually loses"
            }
            Rule::MateThreat => "threatening mate perpetually is a draw",
            Rule::MateThreatBack => {
                "answering a threat to mate with a threat to mate back, perpetually: a draw"
            }
            Rule::CheckAndChase => {
                "one check and one chase, or several checks and one chase: a draw"
            }
            Rule::CheckAndIdle => "one check and one idle move: a draw",
            Rule::CannonChasesChariot => {
                "a cannon may not chase a chariot perpetually, even a protected one"
            }
            Rule::CannonChasesTwoChariots => {
                "one cannon chasing two chariots in turn, or two cannons two chariots: a draw"
            }
            Rule::ChariotChasesProtectedCannon => {
                "a chariot may chase a protected cannon perpetually"
            }
            Rule::ChariotChasesCannon => {
                "a chariot may not chase an unprotected cannon perpetually"
            }
            Rule::ChariotHeldByHorse => {
                "a chariot that cannot move because of an enemy horse may not be chased perpetually"
            }
            Rule::ChariotChasesHorse => "a chariot may not chase a horse perpetually",
            Rule::SameKind => {
                "a piece attacking one of its own kind that can take back offers an exchange; one that cannot take back may not be chased"
            }
            Rule::CannonThroughScreen => {
                "a cannon may not chase an unprotected piece perpetually, even by moving its screen; an uncrossed soldier may be chased"
            }
            Rule::ConfinedChariot => {
                "a chariot confined to a line by a cannon does not chase by moving along that line"
            }
            Rule::GeneralChases => "the general may chase perpetually",
            Rule::SoldierChases => "soldiers may chase perpetually",
            Rule::OneChasesTwo => "one piece chasing two or more pieces in turn: a draw",
            Rule::TwoChaseOne => "two or more pieces may not chase one piece in turn",
            Rule::FalselyProtected => {
                "a piece whose protector cannot take back is unprotected and may not be chased perpetually"
            }
            Rule::ProtectedPiece => "pieces attacking a protected piece do not chase it: a draw",
            Rule::OfferExchangeWhileChasing => {
                "a chase is still a chase when it also offers an exchange"
            }
            Rule::OfferExchange => "perpetually offering an exchange or a sacrifice: a draw",
        }
    }
}

impl Rule {
    /// The rule as a ruling names it: "rule 18", or "§2.3" for a principle.
    pub fn label(self) -> String {
        if self.number().starts_with('§') {
            self.number().to_owned()
        } else {
            format!("rule {}", self.number())
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.label(), self.text())
    }
}

impl serde::Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.number())
    }
}
