//! When an engine accepts a draw offer. It accepts when the game is a draw on the board
//! (neither side has a piece that can give mate: no chariot, horse, cannon or soldier),
//! or when its own search calls the position level: a score within
//! `DRAW_SCORE_CP` of zero at `DRAW_MIN_DEPTH` plies or deeper. It declines otherwise,
//! and without a search to go by.

use xiangqi_core::board::{Color, Kind, Position};

/// The largest score, in centipawns either way, an engine calls a draw.
pub const DRAW_SCORE_CP: i32 = 30;
/// The shallowest search whose score an engine trusts to agree to a draw.
pub const DRAW_MIN_DEPTH: u32 = 8;

/// What the engine last found: the depth and its score (`None` for a mate score).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchView {
    pub depth: u32,
    pub centipawns: Option<i32>,
}

impl From<&xiangqi_engine::engine::SearchInfo> for SearchView {
    fn from(info: &xiangqi_engine::engine::SearchInfo) -> SearchView {
        SearchView {
            depth: info.depth,
            centipawns: info.verdict().centipawns(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawAnswer {
    /// Neither side can mate.
    AcceptNoMatingMaterial,
    /// The search calls it level.
    AcceptLevel,
    /// The search sees an advantage (or a mate) for one side.
    DeclineScore,
    /// The search was too shallow to judge.
    DeclineTooShallow,
    /// No search yet.
    DeclineNoSearch,
}

impl DrawAnswer {
    pub fn accepted(self) -> bool {
        matches!(
            self,
            DrawAnswer::AcceptNoMatingMaterial | DrawAnswer::AcceptLevel
        )
    }

    /// Why, in a few words, for the status line.
    pub fn describe(self) -> &'static str {
        match self {
            DrawAnswer::AcceptNoMatingMaterial => "neither side has mating material",
            DrawAnswer::AcceptLevel => "the engine's search calls the position level",
            DrawAnswer::DeclineScore => "the engine sees an advantage",
            DrawAnswer::DeclineTooShallow => "the engine has not searched deep enough to judge",
            DrawAnswer::DeclineNoSearch => "the engine has not searched the position yet",
        }
    }
}

/// Whether `color` keeps a piece that can give mate.
pub fn has_mating_material(position: &Position, color: Color) -> bool {
    [Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Soldier]
        .into_iter()
        .any(|kind| position.pieces(color, kind) != 0)
}

/// The engine's answer to a draw offer in `position`, given its last search.
pub fn answer_draw_offer(position: &Position, search: Option<SearchView>) -> DrawAnswer {
    if Color::BOTH
        .into_iter()
        .all(|color| !has_mating_material(position, color))
    {
        return DrawAnswer::AcceptNoMatingMaterial;
    }
    match search {
        None => DrawAnswer::DeclineNoSearch,
        Some(SearchView {
            centipawns: Some(cp),
            depth,
        }) if cp.abs() <= DRAW_SCORE_CP => {
            if depth >= DRAW_MIN_DEPTH {
                DrawAnswer::AcceptLevel
            } else {
                DrawAnswer::DeclineTooShallow
            }
        }
        Some(_) => DrawAnswer::DeclineScore,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(depth: u32, centipawns: Option<i32>) -> Option<SearchView> {
        Some(SearchView { depth, centipawns })
    }

    #[test]
    fn a_level_deep_score_is_a_draw_and_an_advantage_is_not() {
        let start = Position::startpos();
        assert_eq!(
            answer_draw_offer(&start, view(10, Some(-30))),
            DrawAnswer::AcceptLevel
        );
        assert_eq!(
            answer_draw_offer(&start, view(10, Some(31))),
            DrawAnswer::DeclineScore
        );
        assert_eq!(
            answer_draw_offer(&start, view(10, None)),
            DrawAnswer::DeclineScore
        );
        assert_eq!(
            answer_draw_offer(&start, view(7, Some(0))),
            DrawAnswer::DeclineTooShallow
        );
        assert_eq!(answer_draw_offer(&start, None), DrawAnswer::DeclineNoSearch);
    }

    #[test]
    fn generals_advisors_and_elephants_alone_cannot_mate() {
        let bare = Position::from_fen("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1").unwrap();
        assert!(!has_mating_material(&bare, Color::Red));
        assert_eq!(
            answer_draw_offer(&bare, None),
            DrawAnswer::AcceptNoMatingMaterial
        );
        // One soldier is enough to play on.
        let soldier = Position::from_fen("3ak4/4a4/4b4/9/9/9/4P4/4B4/4A4/3AK4 w - - 0 1").unwrap();
        assert!(has_mating_material(&soldier, Color::Red));
        assert_eq!(
            answer_draw_offer(&soldier, None),
            DrawAnswer::DeclineNoSearch
        );
    }
}
