//! The scrambling of XQF version 11 and later. Four key bytes of the header (13, 14, 15,
//! with 12 as their "sum") give the offsets subtracted from piece squares, move squares and
//! comment lengths; those bytes masked by byte 3 and or-ed with bytes 8..12 give a 32-byte
//! stream subtracted, byte by byte, from everything after the header. Versions up to 10
//! are plain: every offset and the stream are zero. (XQFTOOLS/xqf2pgn.cpp in ElephantEye.)

/// The constant the key stream is masked with.
const STREAM_MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The first version that scrambles.
pub const FIRST_SCRAMBLED: u8 = 11;
/// The first version that also rotates the piece array's slots.
pub const FIRST_ROTATED: u8 = 12;

/// What a file's keys decode to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keys {
    /// Subtracted from each piece square; in version 12 and later also rotates the slots.
    pub piece: u8,
    /// Subtracted (after 24) from a move's from-square byte.
    pub from: u8,
    /// Subtracted (after 32) from a move's to-square byte.
    pub to: u8,
    /// Subtracted from each comment length.
    pub comment: u32,
    /// Subtracted from byte `i` of the move tree (counted from its start), index `i % 32`.
    pub stream: [u8; 32],
}

/// `(k * k * 54 + 221) * factor`, in bytes, the step every square offset is made with.
fn derive(k: u8, factor: u8) -> u8 {
    let k = u32::from(k);
    ((k * k * 54 + 221) * u32::from(factor)) as u8
}

impl Keys {
    /// No scrambling (versions up to 10).
    pub fn plain() -> Keys {
        Keys {
            piece: 0,
            from: 0,
            to: 0,
            comment: 0,
            stream: [0; 32],
        }
    }

    /// The keys of a header whose first 16 bytes are `tag`.
    pub fn from_tag(tag: &[u8; 16]) -> Keys {
        if tag[2] < FIRST_SCRAMBLED {
            return Keys::plain();
        }
        let (sum, kp, kf, kt) = (tag[12], tag[13], tag[14], tag[15]);
        let piece = derive(kp, kp);
        let from = derive(kf, piece);
        let to = derive(kt, from);
        let comment = (u32::from(sum) * 256 + u32::from(kp)) % 32000 + 767;
        let mask = tag[3];
        let bytes = [0, 1, 2, 3].map(|i| tag[8 + i] | (tag[12 + i] & mask));
        let stream = std::array::from_fn(|i| bytes[i % 4] & STREAM_MASK[i]);
        Keys {
            piece,
            from,
            to,
            comment,
            stream,
        }
    }

    /// Unscrambles the move tree (everything after the header) in place.
    pub fn unscramble(&self, tree: &mut [u8]) {
        for (i, byte) in tree.iter_mut().enumerate() {
            *byte = byte.wrapping_sub(self.stream[i % 32]);
        }
    }

    /// Scrambles a plain move tree in place (the inverse of `unscramble`).
    pub fn scramble(&self, tree: &mut [u8]) {
        for (i, byte) in tree.iter_mut().enumerate() {
            *byte = byte.wrapping_add(self.stream[i % 32]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_versions_have_no_keys() {
        let mut tag = [0u8; 16];
        tag[..3].copy_from_slice(b"XQ\x0a");
        tag[12..].copy_from_slice(&[7, 8, 9, 10]);
        assert_eq!(Keys::from_tag(&tag), Keys::plain());
    }

    #[test]
    fn scrambled_keys_follow_the_formulas() {
        let mut tag = [0u8; 16];
        tag[..4].copy_from_slice(b"XQ\x12\xff");
        tag[8..12].copy_from_slice(&[0, 0, 0, 0]);
        tag[12..].copy_from_slice(&[1, 2, 3, 4]);
        let keys = Keys::from_tag(&tag);
        // 2 * 2 * 54 + 221 = 437; 437 * 2 = 874 = 0x36a -> 0x6a.
        assert_eq!(keys.piece, 0x6a);
        // (3 * 3 * 54 + 221) * 0x6a = 707 * 106 = 74942 = 0x124be -> 0xbe.
        assert_eq!(keys.from, 0xbe);
        assert_eq!(keys.comment, 256 + 2 + 767);
        // Stream byte 0 is key byte 12 masked by '[' (0x5b): 1 & 0x5b = 1.
        assert_eq!(keys.stream[0], 1);
        assert_eq!(keys.stream[1], 2 & b'(');
        let mut tree = *b"some move records";
        keys.scramble(&mut tree);
        keys.unscramble(&mut tree);
        assert_eq!(&tree, b"some move records");
    }
}
