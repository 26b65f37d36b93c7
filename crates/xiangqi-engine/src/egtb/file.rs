//! The table file: a fixed header, then the stored value bytes deflated.
//!
//! Header (little endian): magic `XQTB`, format version u16, material name (u8 length +
//! 15 bytes), positions per side to move u64, stored positions per side u64, longest
//! distance u8, CRC-32 of the uncompressed values u32, compressed length u64. A file
//! whose header, length, checksum or sizes disagree is refused.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::EgtbError;
use super::index::Indexer;
use super::material::Material;

const MAGIC: &[u8; 4] = b"XQTB";
const VERSION: u16 = 1;
const HEADER_LEN: usize = 4 + 2 + 16 + 8 + 8 + 1 + 4 + 8;
/// File name extension of table files.
pub const EXTENSION: &str = "xqtb";

/// The file of a material in a directory.
pub fn table_path(dir: &Path, material: &Material) -> PathBuf {
    dir.join(format!("{material}.{EXTENSION}"))
}

/// Writes the stored part of `values` (full index space) through the atomic writer: an
/// interrupted run leaves no partial table, and two writers of one table at once (two
/// programs on one folder) each put a whole file in place.
pub fn write_table(dir: &Path, ix: &Indexer, values: &[u8]) -> Result<u64, EgtbError> {
    let n = ix.per_side as usize;
    let s = ix.stored as usize;
    let mut stored = Vec::with_capacity(2 * s);
    stored.extend_from_slice(&values[..s]);
    stored.extend_from_slice(&values[n..n + s]);
    let longest = stored
        .iter()
        .copied()
        .filter(|&v| v <= super::solve::MAX_DTM)
        .max()
        .unwrap_or(0);
    let packed = miniz_oxide::deflate::compress_to_vec(&stored, 6);
    let name = ix.material.to_string();
    let mut out = Vec::with_capacity(HEADER_LEN + packed.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let mut name_field = [0u8; 16];
    name_field[0] = name.len() as u8;
    name_field[1..=name.len()].copy_from_slice(name.as_bytes());
    out.extend_from_slice(&name_field);
    out.extend_from_slice(&ix.per_side.to_le_bytes());
    out.extend_from_slice(&ix.stored.to_le_bytes());
    out.push(longest);
    out.extend_from_slice(&crc32fast::hash(&stored).to_le_bytes());
    out.extend_from_slice(&(packed.len() as u64).to_le_bytes());
    out.extend_from_slice(&packed);

    let path = table_path(dir, &ix.material);
    xiangqi_core::atomic_file::write_atomically_with(&path, &mut |file| file.write_all(&out))
        .map_err(|e| EgtbError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
    Ok(out.len() as u64)
}

/// Reads and checks a table file: the stored values (both sides to move, `2 * stored`
/// bytes) and the longest distance.
pub fn read_table(path: &Path, ix: &Indexer) -> Result<(Vec<u8>, u8), EgtbError> {
    let bytes = fs::read(path).map_err(|e| EgtbError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    let bad = |why: &str| EgtbError::Corrupt {
        path: path.display().to_string(),
        why: why.to_string(),
    };
    if bytes.len() < HEADER_LEN {
        return Err(bad("truncated header"));
    }
    if &bytes[..4] != MAGIC {
        return Err(bad("not a tablebase file (bad magic)"));
    }
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if version != VERSION {
        return Err(bad(&format!(
            "format version {version}, this program reads {VERSION}"
        )));
    }
    let name_len = usize::from(bytes[6]).min(15);
    let name = String::from_utf8_lossy(&bytes[7..7 + name_len]);
    if name != ix.material.to_string() {
        return Err(bad(&format!("holds {name}, expected {}", ix.material)));
    }
    let (per_side, stored) = (u64_at(22), u64_at(30));
    if per_side != ix.per_side || stored != ix.stored {
        return Err(bad("sizes do not match this material's index"));
    }
    let longest = bytes[38];
    let crc = u32::from_le_bytes(bytes[39..43].try_into().expect("4 bytes"));
    let packed_len = u64_at(43);
    let body = &bytes[HEADER_LEN..];
    if body.len() as u64 != packed_len {
        return Err(bad(&format!(
            "truncated or padded: {} data bytes, header says {packed_len}",
            body.len()
        )));
    }
    let expected = 2 * stored as usize;
    let values = miniz_oxide::inflate::decompress_to_vec_with_limit(body, expected)
        .map_err(|_| bad("compressed data is damaged"))?;
    if values.len() != expected {
        return Err(bad("compressed data has the wrong length"));
    }
    if crc32fast::hash(&values) != crc {
        return Err(bad("checksum mismatch"));
    }
    Ok((values, longest))
}

/// Checks a file without keeping its data: true if it is complete and valid.
pub fn is_valid(dir: &Path, material: &Material) -> bool {
    let ix = Indexer::new(*material);
    read_table(&table_path(dir, material), &ix).is_ok()
}
