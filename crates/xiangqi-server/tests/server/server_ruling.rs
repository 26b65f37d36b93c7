//! A room's game ended by the repetition rules, through the in-process SSH client: the
//! rule book's diagram 33 (Red's chariot chases Black's unprotected cannon, rule 18)
//! played to the third occurrence. Both players see the result popup naming the rule
//! with the cycle's moves; the archive's `Termination` tag and its list name the rule.

use crate::server_support;

use std::time::Duration;

use server_support::{Terminal, exec_as, settings, start, user_key, wait_archived};
use xiangqi_core::board::Position;

const D33: &str = "4kab2/4a4/4b4/3rC2R1/9/9/4n4/4B4/4A4/4KAB1c w - - 0 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_perpetual_chase_loses_and_the_room_is_told_the_rule() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path());
    settings.start = Position::from_fen(D33).unwrap();
    let server = start(settings).await;
    let addr = server.addr;

    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human r33")).await;
    ann.wait_text("room r33").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join r33")).await;
    bob.wait_text("you: Red | bob").await;
    // bob (Red) chases, ann (Black) escapes; ann's last escape makes the third
    // occurrence of the start.
    let cycle = ["h6i6", "i0h0", "i6h6", "h0i0"];
    for (ply, mv) in cycle.iter().cycle().take(8).enumerate() {
        let (mover, other) = if ply % 2 == 0 {
            (&mut bob, &mut ann)
        } else {
            (&mut ann, &mut bob)
        };
        if ply == 6 {
            // Before the chase that repeats the cycle a second time, Red is warned.
            mover
                .wait_text("i6h6 repeats a perpetual chase of the cannon at h0")
                .await;
        }
        mover.command(mv).await;
        other.wait_move(ply, mv).await;
    }
    for terminal in [&mut ann, &mut bob] {
        terminal
            .wait_text("Black wins by perpetual chase by the opponent (0-1, rule 18)")
            .await;
        terminal
            .wait_text("rule 18: a chariot may not chase an unprotected cannon perpetually")
            .await;
        terminal
            .wait_text("The repeated cycle, Red breaking the rule:")
            .await;
        terminal.wait_text("chase  cannon i0").await;
    }
    let archived = wait_archived(dir.path(), 1, "the ruled game", |text| {
        text.contains("[Result \"0-1\"]")
    })
    .await;
    assert!(
        archived.contains("[Termination \"perpetual chase (rule 18)\"]"),
        "{archived}"
    );
    // The archive's list says it too.
    let (out, err, status) = exec_as(addr, "ann", Some(user_key(1)), "games").await;
    assert_eq!(status, Some(0), "{err}");
    assert!(out.contains("perpetual chase (rule 18)"), "{out}");
    // `:ruling` shows it again after the popup is closed.
    ann.type_text("\x1b").await;
    ann.command(":ruling").await;
    ann.wait_text("The arbiter's ruling").await;
    server.stop(Duration::from_secs(2)).await;
}
