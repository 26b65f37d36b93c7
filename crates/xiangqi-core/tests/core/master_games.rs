//! Where the master games are: the CCPD sample (300 real records, CC BY 4.0 data kept
//! beside the repository, never in it: `../shared/testdata/games/ccpd` from the top of
//! the checkout, or `XIANGQI_CCPD_DIR`). Where they are missing, a test that needs them
//! says so on the terminal and passes, unless `XIANGQI_REQUIRE_DATA` is set (CI, which
//! has them beside its clone): then it fails. Shared with the program's tests (tests/cli).

use std::io::Write;
use std::path::{Path, PathBuf};

/// The folder of the CCPD records, from the repository's top `top`; `None` (after a
/// notice) where they are missing and not required.
pub fn ccpd_dir(top: &str) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("XIANGQI_CCPD_DIR") {
        let dir = PathBuf::from(dir);
        assert!(
            dir.is_dir(),
            "XIANGQI_CCPD_DIR={} is not a folder",
            dir.display()
        );
        return Some(dir);
    }
    let dir = Path::new(top).join("../shared/testdata/games/ccpd");
    if dir.is_dir() {
        return Some(dir);
    }
    let required = std::env::var_os("XIANGQI_REQUIRE_DATA").is_some_and(|v| !v.is_empty());
    assert!(
        !required,
        "the CCPD records are missing ({} is not a folder) and XIANGQI_REQUIRE_DATA is set",
        dir.display()
    );
    // Straight to standard error: the test harness keeps what `println!` prints of a
    // passing test to itself, and a skip must be seen.
    let _ = writeln!(
        std::io::stderr(),
        "note: a test skipped: the CCPD records are not beside the checkout \
         (../shared/testdata/games/ccpd; or set XIANGQI_CCPD_DIR)"
    );
    None
}
