//! Saving rooms when the store fails: the players are told at once, the save is retried
//! until it works, stopping saves every dirty room and says truthfully when it cannot.
//!
//! The failure is put in the store itself: the server runs on a store that wraps the
//! real one and fails every write while the test says so.

use crate::server_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use server_support::{PATIENCE, Terminal, saved_room, settings, user_key};
use xiangqi_app::game::rating::Rating;
use xiangqi_app::train::{Attempt, PuzzleProfile};
use xiangqi_server::Running;
use xiangqi_server::store::{
    Archived, ArchivedGame, Ban, BanTarget, BoardRecord, ChatLine, EntrantRecord, FinishedGame,
    Player, SavedRoom, SavedTournament, SqliteStore, Store, StoreError, TournamentRecord,
    TournamentStore, UnixTime,
};

const NOT_SAVED: &str = "NOT SAVED";
const BROKEN: &str = "the database: disk I/O error (made by the test)";

/// The real store, whose writes fail while `broken` is set.
struct BreakableStore {
    inner: SqliteStore,
    broken: Arc<AtomicBool>,
}

impl BreakableStore {
    fn check(&self) -> Result<(), StoreError> {
        if self.broken.load(Ordering::SeqCst) {
            return Err(StoreError::Database(
                "disk I/O error (made by the test)".into(),
            ));
        }
        Ok(())
    }
}

impl Store for BreakableStore {
    fn sign_in(&self, key: &str, name: &str, now: UnixTime) -> Result<Player, StoreError> {
        self.inner.sign_in(key, name, now)
    }
    fn rename(&self, key: &str, name: &str, now: UnixTime) -> Result<Player, StoreError> {
        self.inner.rename(key, name, now)
    }
    fn purge_players(&self, idle_since: UnixTime, now: UnixTime) -> Result<usize, StoreError> {
        self.inner.purge_players(idle_since, now)
    }
    fn player_by_key(&self, key: &str) -> Result<Option<Player>, StoreError> {
        self.inner.player_by_key(key)
    }
    fn player_by_name(&self, name: &str) -> Result<Option<Player>, StoreError> {
        self.inner.player_by_name(name)
    }
    fn top(&self, limit: usize) -> Result<Vec<Player>, StoreError> {
        self.inner.top(limit)
    }
    fn archive(&self, game: &FinishedGame, room: Option<&str>) -> Result<Archived, StoreError> {
        self.check()?;
        self.inner.archive(game, room)
    }
    fn game(&self, id: i64) -> Result<Option<ArchivedGame>, StoreError> {
        self.inner.game(id)
    }
    fn games_of_key(&self, key: &str, limit: usize) -> Result<Vec<ArchivedGame>, StoreError> {
        self.inner.games_of_key(key, limit)
    }
    fn games_of_guest(&self, name: &str, limit: usize) -> Result<Vec<ArchivedGame>, StoreError> {
        self.inner.games_of_guest(name, limit)
    }
    fn save_room(
        &self,
        name: &str,
        pgn: &str,
        chat: &[ChatLine],
        now: UnixTime,
    ) -> Result<(), StoreError> {
        self.check()?;
        self.inner.save_room(name, pgn, chat, now)
    }
    fn delete_room(&self, name: &str) -> Result<(), StoreError> {
        self.check()?;
        self.inner.delete_room(name)
    }
    fn rooms(&self) -> Result<Vec<SavedRoom>, StoreError> {
        self.inner.rooms()
    }
    fn room(&self, name: &str) -> Result<Option<SavedRoom>, StoreError> {
        self.inner.room(name)
    }
    fn adjourn_room(&self, name: &str, at: Option<UnixTime>) -> Result<(), StoreError> {
        self.check()?;
        self.inner.adjourn_room(name, at)
    }
    fn add_chat(&self, room: &str, line: &ChatLine) -> Result<(), StoreError> {
        self.check()?;
        self.inner.add_chat(room, line)
    }
    fn chat(&self, room: &str, limit: usize) -> Result<Vec<ChatLine>, StoreError> {
        self.inner.chat(room, limit)
    }
    fn ban(&self, ban: &Ban) -> Result<(), StoreError> {
        self.inner.ban(ban)
    }
    fn unban(&self, target: &BanTarget) -> Result<bool, StoreError> {
        self.inner.unban(target)
    }
    fn banned(
        &self,
        key: Option<&str>,
        name: &str,
        address: &str,
    ) -> Result<Option<Ban>, StoreError> {
        self.inner.banned(key, name, address)
    }
    fn bans(&self) -> Result<Vec<Ban>, StoreError> {
        self.inner.bans()
    }
    fn puzzle_profile(&self, key: &str) -> Result<PuzzleProfile, StoreError> {
        self.inner.puzzle_profile(key)
    }
    fn record_puzzle(
        &self,
        key: &str,
        attempt: &Attempt,
        player: Rating,
        puzzle: Option<Rating>,
    ) -> Result<(), StoreError> {
        self.check()?;
        self.inner.record_puzzle(key, attempt, player, puzzle)
    }
    fn write_count(&self) -> u64 {
        self.inner.write_count()
    }
}

impl TournamentStore for BreakableStore {
    fn save_tournament(
        &self,
        record: &TournamentRecord,
        entrants: Option<&[EntrantRecord]>,
        boards: &[BoardRecord],
    ) -> Result<i64, StoreError> {
        self.check()?;
        self.inner.save_tournament(record, entrants, boards)
    }
    fn tournaments(&self, chat: usize) -> Result<Vec<SavedTournament>, StoreError> {
        self.inner.tournaments(chat)
    }
    fn add_tournament_chat(&self, tournament: i64, line: &ChatLine) -> Result<(), StoreError> {
        self.check()?;
        self.inner.add_tournament_chat(tournament, line)
    }
    fn tournament_pgns(&self, tournament: i64) -> Result<Vec<String>, StoreError> {
        self.inner.tournament_pgns(tournament)
    }
}

/// A server on the store of `data_dir`, whose writes fail while the flag is set.
async fn start_breakable(data_dir: &std::path::Path) -> (Running, Arc<AtomicBool>) {
    let broken = Arc::new(AtomicBool::new(false));
    let store = BreakableStore {
        inner: SqliteStore::open_in(data_dir).unwrap(),
        broken: Arc::clone(&broken),
    };
    let server = xiangqi_server::start_with_store(settings(data_dir), Arc::new(store))
        .await
        .unwrap();
    (server, broken)
}

/// The plies of room k1 as the store holds it (0 when missing).
fn saved_plies(data_dir: &std::path::Path) -> usize {
    let text = saved_room(data_dir, "k1").unwrap_or_default();
    xiangqi_server::parse_room(&text)
        .ok()
        .flatten()
        .map_or(0, |room| room.game.ply())
}

/// Waits until room k1 in the store has `plies` moves.
async fn wait_plies(data_dir: &std::path::Path, plies: usize) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while saved_plies(data_dir) != plies {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not {plies} plies in the store"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Ann hosts room k1 (Black), bob joins (Red); two moves are played and saved.
async fn a_room_with_two_moves(
    addr: std::net::SocketAddr,
    data_dir: &std::path::Path,
) -> (Terminal, Terminal) {
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human k1")).await;
    ann.wait_text("room k1").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join k1")).await;
    bob.wait_text("room k1").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    ann.command("h9g7").await;
    bob.wait_move(1, "h9g7").await;
    wait_plies(data_dir, 2).await;
    (ann, bob)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_save_is_told_to_the_players_retried_and_flushed_on_stop() {
    let dir = tempfile::tempdir().unwrap();
    let (server, broken) = start_breakable(dir.path()).await;
    let (mut ann, mut bob) = a_room_with_two_moves(server.addr, dir.path()).await;

    broken.store(true, Ordering::SeqCst);
    bob.command("h0g2").await;
    for terminal in [&mut ann, &mut bob] {
        terminal.wait_move(2, "h0g2").await;
        terminal.wait_text(NOT_SAVED).await;
        terminal.wait_text("this game is NOT being saved").await;
    }
    // Play goes on, still told.
    ann.command("i9h9").await;
    bob.wait_move(3, "i9h9").await;
    assert!(bob.text().contains(NOT_SAVED), "{}", bob.text());

    // Once the store works again, a retry saves everything and the warning goes.
    broken.store(false, Ordering::SeqCst);
    wait_plies(dir.path(), 4).await;
    for terminal in [&mut ann, &mut bob] {
        terminal
            .wait_for("the warning gone", |screen| !screen.contains(NOT_SAVED))
            .await;
        terminal.wait_text("the game is saved again").await;
    }

    // Failing again, fixed, then stopped: the stop saves what is dirty (or the retry
    // did already); nothing is left unsaved.
    broken.store(true, Ordering::SeqCst);
    bob.command("i0h0").await;
    bob.wait_move(4, "i0h0").await;
    bob.wait_text(NOT_SAVED).await;
    broken.store(false, Ordering::SeqCst);
    let unsaved = server.stop(Duration::from_secs(2)).await;
    assert_eq!(unsaved, []);
    assert_eq!(saved_plies(dir.path()), 5);
    ann.wait_text("your game is saved").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_while_saves_fail_says_so_and_the_next_start_has_the_last_saved_game() {
    let dir = tempfile::tempdir().unwrap();
    let (server, broken) = start_breakable(dir.path()).await;
    let (mut ann, mut bob) = a_room_with_two_moves(server.addr, dir.path()).await;

    broken.store(true, Ordering::SeqCst);
    bob.command("h0g2").await;
    ann.wait_text(NOT_SAVED).await;
    let unsaved = server.stop(Duration::from_secs(2)).await;
    assert_eq!(unsaved, [("k1".to_owned(), BROKEN.to_owned())]);
    for terminal in [&mut ann, &mut bob] {
        terminal.wait_text("this game could NOT be saved").await;
        terminal.wait_closed().await;
    }
    assert_eq!(saved_plies(dir.path()), 2);

    let server = server_support::start(settings(dir.path())).await;
    let mut ann = Terminal::open(server.addr, "ann", Some(user_key(1)), None).await;
    ann.wait_text("resumed your game").await;
    ann.wait_move(1, "h9g7").await;
    assert_eq!(server.stop(Duration::from_secs(2)).await, []);
}
