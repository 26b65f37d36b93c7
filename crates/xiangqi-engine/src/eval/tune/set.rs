//! A complete set of evaluation weights as plain numbers: read from the compiled-in
//! `weights.rs`, turned into per-slot middlegame/endgame values for fitting, and back.

use super::super::phased::{eg, mg};
use super::super::trace::slot;
use super::super::weights as w;
use xiangqi_core::board::Kind;

type Pair = (i32, i32);

/// Every weight of the evaluation, unpacked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightSet {
    pub material: [i32; 7],
    pub phase_weight: [i32; 7],
    pub tempo: i32,
    /// Diagram tables by kind (see `weights.rs`).
    pub pst_mg: [[i32; 90]; 7],
    pub pst_eg: [[i32; 90]; 7],
    pub horse_mobility: [Pair; 9],
    pub chariot_mobility: Pair,
    pub chariot_typical: i32,
    pub cannon_mobility: Pair,
    pub cannon_typical: i32,
    pub connected_soldiers: Pair,
    pub attack: [Pair; 7],
    pub connected_advisors: Pair,
    pub connected_elephants: Pair,
    pub empty_headed_cannon: Pair,
    pub empty_headed_with_chariot: Pair,
    pub open_file_per_chariot: Pair,
    pub missing_advisor: Pair,
    pub missing_elephant: Pair,
}

fn unpack(packed: i32) -> Pair {
    (mg(packed), eg(packed))
}

/// Diagram index of relative rank `rank` (0 = own back rank) and file `x`.
const fn diagram(rank: usize, x: usize) -> usize {
    (9 - rank) * 9 + x
}

/// Per-slot values for fitting: middlegame and endgame halves of every slot.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotValues {
    pub mg: Vec<f64>,
    pub eg: Vec<f64>,
}

impl WeightSet {
    /// The weights compiled into this build.
    pub fn current() -> WeightSet {
        WeightSet {
            material: w::MATERIAL,
            phase_weight: w::PHASE_WEIGHT,
            tempo: w::TEMPO,
            pst_mg: [
                w::GENERAL_MG,
                w::ADVISOR_MG,
                w::ELEPHANT_MG,
                w::HORSE_MG,
                w::CHARIOT_MG,
                w::CANNON_MG,
                w::SOLDIER_MG,
            ],
            pst_eg: [
                w::GENERAL_EG,
                w::ADVISOR_EG,
                w::ELEPHANT_EG,
                w::HORSE_EG,
                w::CHARIOT_EG,
                w::CANNON_EG,
                w::SOLDIER_EG,
            ],
            horse_mobility: w::HORSE_MOBILITY.map(unpack),
            chariot_mobility: unpack(w::CHARIOT_MOBILITY),
            chariot_typical: w::CHARIOT_TYPICAL,
            cannon_mobility: unpack(w::CANNON_MOBILITY),
            cannon_typical: w::CANNON_TYPICAL,
            connected_soldiers: unpack(w::CONNECTED_SOLDIERS),
            attack: w::ATTACK.map(unpack),
            connected_advisors: unpack(w::CONNECTED_ADVISORS),
            connected_elephants: unpack(w::CONNECTED_ELEPHANTS),
            empty_headed_cannon: unpack(w::EMPTY_HEADED_CANNON),
            empty_headed_with_chariot: unpack(w::EMPTY_HEADED_WITH_CHARIOT),
            open_file_per_chariot: unpack(w::OPEN_FILE_PER_CHARIOT),
            missing_advisor: unpack(w::MISSING_ADVISOR),
            missing_elephant: unpack(w::MISSING_ELEPHANT),
        }
    }

    /// True if every table's left half mirrors its right half.
    pub fn is_mirror_symmetric(&self) -> bool {
        self.pst_mg.iter().chain(&self.pst_eg).all(|t| {
            (0..10).all(|rank| (0..9).all(|x| t[diagram(rank, x)] == t[diagram(rank, 8 - x)]))
        })
    }

    /// The weights slot by slot (see `trace::slot`). Piece-square slots take the left
    /// half's value (the halves are mirror images).
    pub fn slots(&self) -> SlotValues {
        let mut v = SlotValues {
            mg: vec![0.0; slot::COUNT],
            eg: vec![0.0; slot::COUNT],
        };
        let mut put = |i: usize, (m, e): Pair| {
            v.mg[i] = f64::from(m);
            v.eg[i] = f64::from(e);
        };
        for k in 0..7 {
            put(slot::MATERIAL + k, (self.material[k], self.material[k]));
            for rank in 0..10 {
                for x in 0..5 {
                    let d = diagram(rank, x);
                    put(
                        slot::PST + (k * 10 + rank) * 5 + x,
                        (self.pst_mg[k][d], self.pst_eg[k][d]),
                    );
                }
            }
        }
        for (i, &p) in self.horse_mobility.iter().enumerate() {
            put(slot::HORSE_MOBILITY + i, p);
        }
        put(slot::CHARIOT_MOBILITY, self.chariot_mobility);
        put(slot::CANNON_MOBILITY, self.cannon_mobility);
        put(slot::CONNECTED_SOLDIERS, self.connected_soldiers);
        for (i, &p) in self.attack.iter().enumerate() {
            put(slot::ATTACK + i, p);
        }
        put(slot::CONNECTED_ADVISORS, self.connected_advisors);
        put(slot::CONNECTED_ELEPHANTS, self.connected_elephants);
        put(slot::EMPTY_HEADED_CANNON, self.empty_headed_cannon);
        put(
            slot::EMPTY_HEADED_WITH_CHARIOT,
            self.empty_headed_with_chariot,
        );
        put(slot::OPEN_FILE_PER_CHARIOT, self.open_file_per_chariot);
        put(slot::MISSING_ADVISOR, self.missing_advisor);
        put(slot::MISSING_ELEPHANT, self.missing_elephant);
        put(slot::TEMPO, (self.tempo, self.tempo));
        v
    }

    /// These weights with every tuned slot taken (rounded) from `v`; the untuned ones
    /// (phase weights, typical mobilities) are kept. Material and tempo read the
    /// middlegame half (the fit keeps both halves equal).
    pub fn with_slots(&self, v: &SlotValues) -> WeightSet {
        let get = |i: usize| (v.mg[i].round() as i32, v.eg[i].round() as i32);
        let mut out = self.clone();
        for k in 0..7 {
            out.material[k] = get(slot::MATERIAL + k).0;
            for rank in 0..10 {
                for x in 0..9 {
                    let folded = if x > 4 { 8 - x } else { x };
                    let (m, e) = get(slot::PST + (k * 10 + rank) * 5 + folded);
                    out.pst_mg[k][diagram(rank, x)] = m;
                    out.pst_eg[k][diagram(rank, x)] = e;
                }
            }
        }
        for i in 0..9 {
            out.horse_mobility[i] = get(slot::HORSE_MOBILITY + i);
        }
        out.chariot_mobility = get(slot::CHARIOT_MOBILITY);
        out.cannon_mobility = get(slot::CANNON_MOBILITY);
        out.connected_soldiers = get(slot::CONNECTED_SOLDIERS);
        for i in 0..7 {
            out.attack[i] = get(slot::ATTACK + i);
        }
        out.connected_advisors = get(slot::CONNECTED_ADVISORS);
        out.connected_elephants = get(slot::CONNECTED_ELEPHANTS);
        out.empty_headed_cannon = get(slot::EMPTY_HEADED_CANNON);
        out.empty_headed_with_chariot = get(slot::EMPTY_HEADED_WITH_CHARIOT);
        out.open_file_per_chariot = get(slot::OPEN_FILE_PER_CHARIOT);
        out.missing_advisor = get(slot::MISSING_ADVISOR);
        out.missing_elephant = get(slot::MISSING_ELEPHANT);
        out.tempo = get(slot::TEMPO).0;
        out
    }

    /// The material value of `kind`.
    pub fn value(&self, kind: Kind) -> i32 {
        self.material[kind as usize]
    }
}
