use super::*;
use crate::search::Score;
use crate::search::Status;

fn d(node: u64, merit: i32) -> Descriptor {
    Descriptor {
        node: NodeId(node),
        ply: 1,
        status: Status::Live,
        merit: Score::new(merit),
    }
}

#[test]
fn a_change_turns_the_old_list_into_the_new() {
    let old = [d(1, 9), d(2, 8), d(3, 7), d(4, 6)];
    let new = [d(2, 8), d(5, 8), d(3, 7), d(4, 5)];
    let change = OpenChange::between(&old, &new);
    assert_eq!(change.removed, [0, 3]);
    assert_eq!(change.added, [(1, d(5, 8)), (3, d(4, 5))]);
    assert_eq!(change.apply(&old).unwrap(), new);
    // Reordered entries are removed and added again.
    let swapped = [d(2, 8), d(1, 9)];
    let change = OpenChange::between(&old[..2], &swapped);
    assert_eq!(change.apply(&old[..2]).unwrap(), swapped);
    assert!(OpenChange::between(&[], &[]).added.is_empty());
}

#[test]
fn the_store_gives_back_every_event_and_stops_at_a_line_end() {
    let events: Vec<TraceEvent<u8>> = vec![
        TraceEvent::Pop { desc: d(0, 10) },
        TraceEvent::OpenSnapshot { len: 2 },
        TraceEvent::OpenEntry { desc: d(1, 9) },
        TraceEvent::OpenEntry { desc: d(2, 8) },
        TraceEvent::Pop { desc: d(1, 9) },
        TraceEvent::OpenSnapshot { len: 1 },
        TraceEvent::OpenEntry { desc: d(2, 8) },
    ];
    let store = TraceStore::from_events(&events);
    assert_eq!(store.to_vec(), events);
    let mut capped = TraceStore::new(2);
    for (index, event) in events.iter().enumerate() {
        capped.push(*event, index == 3 || index == 6);
    }
    assert_eq!(capped.to_vec(), events[..4]);
    let cut = capped.cut().unwrap();
    assert_eq!((cut.kept, cut.total), (4, 7));
}
