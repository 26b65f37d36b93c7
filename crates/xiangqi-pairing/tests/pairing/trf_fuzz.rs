//! The TRF reader on hostile input: random bytes, and lines made of a TRF file's own
//! pieces in random order (huge round counts, ranks and scores among them). Each one
//! is read or refused with a one-line error, never a panic.

use proptest::prelude::*;
use xiangqi_pairing::trf;

const PIECES: &[&str] = &[
    "001",
    "012 ",
    "XXR ",
    "XXC ",
    "white1",
    "black1",
    "\n",
    " ",
    "    1",
    "   12",
    "  999999",
    " 4294967295",
    " 18446744073709551616",
    "Player 1",
    "  2455",
    "  0.0",
    "  1.5",
    " w ",
    " b ",
    " - ",
    " 1 ",
    " 0 ",
    " = ",
    " + ",
    " U ",
    " H ",
    " F ",
    " Z ",
    "0000",
    "-",
    "é",
    "\t",
    "XXR 99999999",
];

fn checked(result: Result<impl Sized, impl std::fmt::Display>) -> Result<(), TestCaseError> {
    if let Err(error) = result {
        let text = error.to_string();
        prop_assert!(!text.contains('\n'), "{text}");
        prop_assert!(!text.is_empty());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_are_read_or_refused_in_one_line(
        bytes in proptest::collection::vec(any::<u8>(), 0..3000)
    ) {
        let text = String::from_utf8_lossy(&bytes);
        checked(trf::read(&text))?;
        checked(trf::read_for_pairing(&text))?;
        checked(trf::read_pairing_output(&text))?;
    }

    #[test]
    fn a_files_own_pieces_are_read_or_refused_in_one_line(
        pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..400)
    ) {
        let text = pieces.concat();
        checked(trf::read(&text))?;
        checked(trf::read_for_pairing(&text))?;
        checked(trf::read_pairing_output(&text))?;
    }
}

/// A real file with a huge declared round count and a player ranked far past the
/// others is refused or read, not allocated for.
#[test]
fn huge_numbers_in_a_real_file_are_handled() {
    let text = "012 t\n001    1      Player 1                          2455                             0.0    1\nXXR 4294967295\n";
    checked(trf::read(text)).unwrap();
    let text = "001 9999      Player 1                          2455                             0.0    1\n";
    checked(trf::read(text)).unwrap();
}
