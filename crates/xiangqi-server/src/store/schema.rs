//! Opening the SQLite file: refusing one that is damaged, foreign or of a newer schema
//! (without writing to it), then the connection's settings and the migrations.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::StoreError;

/// The database's file name in the data directory.
pub const DB_FILE: &str = "xiangqi-tui.db";

/// Written in the file's header (`PRAGMA application_id`) so that a SQLite file of
/// another program is recognised: "XQTU".
const APPLICATION_ID: i32 = 0x5851_5455;

/// How long a statement waits for a lock another connection holds before failing.
const BUSY_TIMEOUT_MS: u64 = 5000;

/// The migrations, in order: `MIGRATIONS[i]` takes the schema from version `i` to
/// `i + 1`. A released migration is never changed; a new one is appended.
pub(super) const MIGRATIONS: &[&str] = &[
    "
    CREATE TABLE players (
        key TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        first_seen INTEGER NOT NULL,
        last_seen INTEGER NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX players_by_rating ON players (rating DESC);
    -- AUTOINCREMENT: an id is never given twice, even after the newest game is removed.
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        pgn TEXT NOT NULL,
        red_name TEXT NOT NULL,
        red_key TEXT,
        black_name TEXT NOT NULL,
        black_key TEXT,
        result TEXT NOT NULL,
        termination TEXT NOT NULL,
        time_control TEXT NOT NULL,
        rated INTEGER NOT NULL,
        started INTEGER NOT NULL,
        ended INTEGER NOT NULL
    );
    CREATE INDEX games_by_red_key ON games (red_key, id);
    CREATE INDEX games_by_black_key ON games (black_key, id);
    CREATE INDEX games_by_red_name ON games (red_name COLLATE NOCASE, id);
    CREATE INDEX games_by_black_name ON games (black_name COLLATE NOCASE, id);
    CREATE TABLE rooms (
        name TEXT PRIMARY KEY NOT NULL,
        pgn TEXT NOT NULL,
        updated INTEGER NOT NULL
    );
    CREATE TABLE chat (
        room TEXT NOT NULL,
        seq INTEGER NOT NULL,
        sender TEXT NOT NULL,
        text TEXT NOT NULL,
        time INTEGER NOT NULL,
        PRIMARY KEY (room, seq)
    );
    CREATE TABLE bans (
        kind TEXT NOT NULL,
        -- A name is kept in lower case, so a ban covers every spelling of it.
        value TEXT NOT NULL,
        by TEXT NOT NULL,
        reason TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (kind, value)
    );
",
    "
    -- The puzzle trainer (docs/puzzles.md): a key holder's puzzle rating, every
    -- attempt, and each puzzle's rating as the server's players moved it.
    CREATE TABLE puzzle_players (
        key TEXT PRIMARY KEY NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL
    );
    CREATE TABLE puzzle_ratings (
        puzzle TEXT PRIMARY KEY NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL
    );
    CREATE TABLE puzzle_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        key TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        at INTEGER NOT NULL,
        solved INTEGER NOT NULL,
        rated INTEGER NOT NULL,
        rating_after REAL NOT NULL
    );
    CREATE INDEX puzzle_attempts_by_key ON puzzle_attempts (key, id);
",
    "
    -- Issue 39: adjourned games, names compared by their look (the UTS 39 skeleton,
    -- filled in by the program), renames with a cool-down, and names kept a while for
    -- the key that left them.
    ALTER TABLE rooms ADD COLUMN adjourned INTEGER;
    ALTER TABLE players ADD COLUMN skeleton TEXT;
    ALTER TABLE players ADD COLUMN renamed INTEGER;
    CREATE INDEX players_by_skeleton ON players (skeleton);
    CREATE TABLE reserved_names (
        skeleton TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        key TEXT NOT NULL,
        until INTEGER NOT NULL
    );
",
    "
    -- Tournaments (docs/server.md): each one's row, its players in pairing order, its
    -- boards (a bye has no Black) with their results, and its chat.
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        kind TEXT NOT NULL,
        amount INTEGER NOT NULL,
        time_control TEXT NOT NULL,
        rated INTEGER NOT NULL,
        creator_key TEXT NOT NULL,
        creator_name TEXT NOT NULL,
        stage TEXT NOT NULL,
        pause_s INTEGER NOT NULL,
        created INTEGER NOT NULL,
        started INTEGER,
        ends INTEGER,
        finished INTEGER
    );
    CREATE TABLE tournament_players (
        tournament INTEGER NOT NULL REFERENCES tournaments (id),
        seq INTEGER NOT NULL,
        key TEXT NOT NULL,
        name TEXT NOT NULL,
        rating INTEGER NOT NULL,
        active INTEGER NOT NULL,
        joined_round INTEGER NOT NULL,
        PRIMARY KEY (tournament, key)
    );
    CREATE TABLE tournament_games (
        tournament INTEGER NOT NULL REFERENCES tournaments (id),
        round INTEGER NOT NULL,
        board INTEGER NOT NULL,
        red TEXT NOT NULL,
        black TEXT,
        room TEXT,
        result TEXT,
        game INTEGER REFERENCES games (id),
        paired INTEGER NOT NULL,
        PRIMARY KEY (tournament, round, board)
    );
    CREATE TABLE tournament_chat (
        tournament INTEGER NOT NULL REFERENCES tournaments (id),
        seq INTEGER NOT NULL,
        sender TEXT NOT NULL,
        text TEXT NOT NULL,
        time INTEGER NOT NULL,
        PRIMARY KEY (tournament, seq)
    );
",
];

/// The schema version this program writes and reads.
pub const SCHEMA_VERSION: i32 = MIGRATIONS.len() as i32;

/// Opens (or creates) the database at `path`, checked and migrated.
pub fn open(path: &Path) -> Result<Connection, StoreError> {
    let shown = path.display();
    let refused = |why: String| StoreError::Refused(format!("{shown}: {why}"));
    if path.exists() {
        // Checked through a read-only connection: closing it cannot checkpoint a
        // write-ahead log into a file that is then refused.
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let reader = Connection::open_with_flags(path, flags)
            .map_err(|error| refused(format!("cannot open the database ({error})")))?;
        check(&reader).map_err(refused)?;
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut db = Connection::open_with_flags(path, flags)
        .map_err(|error| refused(format!("cannot open the database ({error})")))?;
    db.busy_timeout(std::time::Duration::from_millis(BUSY_TIMEOUT_MS))
        .map_err(|error| refused(error.to_string()))?;
    // WAL: readers do not block the writer; a commit appends to the log.
    let mode: String = db
        .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
        .map_err(|error| refused(format!("cannot use WAL mode ({error})")))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(refused(format!("cannot use WAL mode (got {mode})")));
    }
    // FULL: every commit is synced to the disk. NORMAL in WAL mode already survives a
    // killed process (the log is in the OS's cache), but a power loss or a kernel crash
    // could take the last commits, moves the opponent has seen. FULL costs one fsync
    // a commit: measured 0.25 ms (4,000 commits/s) against NORMAL's 0.03 ms on the
    // development machine, far above the server's few writes a second per room.
    db.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
        .map_err(|error| refused(error.to_string()))?;
    migrate(&mut db).map_err(refused)?;
    super::sqlite_names::fill_skeletons(&mut db).map_err(|error| refused(error.to_string()))?;
    Ok(db)
}

/// Refuses a file that is not a sound database of ours at a version this program
/// knows. Only reads.
fn check(db: &Connection) -> Result<(), String> {
    let fix = "move it away to start with an empty database, or restore a backup";
    let pragma = |name: &str| -> Result<i32, String> {
        db.query_row(&format!("PRAGMA {name}"), [], |row| row.get(0))
            .map_err(|error| format!("not a usable database ({error}): {fix}"))
    };
    let application = pragma("application_id")?;
    let version = pragma("user_version")?;
    let tables: i64 = db
        .query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get(0))
        .map_err(|error| format!("not a usable database ({error}): {fix}"))?;
    if application != APPLICATION_ID && (application != 0 || tables > 0) {
        return Err(format!(
            "a SQLite database of another program (application id {application:#x}): \
             give xiangqi-tui its own data directory (--data-dir)"
        ));
    }
    if version > SCHEMA_VERSION {
        return Err(format!(
            "the database has schema version {version}, newer than this xiangqi-tui knows \
             ({SCHEMA_VERSION}): run the newer xiangqi-tui that wrote it"
        ));
    }
    let verdict: String = db
        .query_row("PRAGMA quick_check", [], |row| row.get(0))
        .map_err(|error| format!("not a usable database ({error}): {fix}"))?;
    if verdict != "ok" {
        return Err(format!("the database is damaged ({verdict}): {fix}"));
    }
    Ok(())
}

/// Runs the migrations from the file's version to `SCHEMA_VERSION`, all in one
/// transaction: a failure leaves the file as it was.
fn migrate(db: &mut Connection) -> Result<(), String> {
    let transaction = db.transaction().map_err(|error| error.to_string())?;
    let version: i32 = transaction
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(|error| error.to_string())?;
    if version == SCHEMA_VERSION {
        return Ok(());
    }
    for (from, migration) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
        transaction
            .execute_batch(migration)
            .map_err(|error| format!("migrating from schema version {from}: {error}"))?;
    }
    transaction
        .execute_batch(&format!(
            "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};"
        ))
        .map_err(|error| error.to_string())?;
    transaction.commit().map_err(|error| error.to_string())
}
