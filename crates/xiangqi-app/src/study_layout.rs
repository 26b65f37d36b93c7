//! Where everything goes on the tree study's screen (`xiangqi-tui study FILE.tree`):
//! the explorer on the left, the search log and the event in full on the right, the
//! input line for `:` commands and the study's own status line. No board, no move list.

use crate::area::Rect;

use super::layout::{MIN_HEIGHT, MIN_WIDTH};

/// The study screen's regions. `None` from `new` when the terminal is too small.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StudyLayout {
    pub explorer: Rect,
    pub log: Rect,
    /// The selected trace event in full.
    pub event: Rect,
    pub input: Rect,
    pub status: Rect,
}

impl StudyLayout {
    pub fn new(width: u16, height: u16) -> Option<StudyLayout> {
        if width < MIN_WIDTH || height < MIN_HEIGHT {
            return None;
        }
        let main_height = height - 2;
        let explorer_width = width / 2;
        let right = width - explorer_width;
        let event_height = main_height / 2;
        let log_height = main_height - event_height;
        Some(StudyLayout {
            explorer: Rect::new(0, 0, explorer_width, main_height),
            log: Rect::new(explorer_width, 0, right, log_height),
            event: Rect::new(explorer_width, log_height, right, event_height),
            input: Rect::new(0, height - 2, width, 1),
            status: Rect::new(0, height - 1, width, 1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_study_regions_tile_the_screen_at_every_size() {
        for width in MIN_WIDTH..=200 {
            for height in MIN_HEIGHT..=60 {
                let layout = StudyLayout::new(width, height).unwrap();
                let regions = [
                    layout.explorer,
                    layout.log,
                    layout.event,
                    layout.input,
                    layout.status,
                ];
                let area: u32 = regions.iter().map(|r| r.area()).sum();
                assert_eq!(area, u32::from(width) * u32::from(height));
                for (i, a) in regions.iter().enumerate() {
                    for b in &regions[i + 1..] {
                        assert!(!a.intersects(*b), "{width}x{height}");
                    }
                }
            }
        }
        assert!(StudyLayout::new(79, 24).is_none());
    }
}
