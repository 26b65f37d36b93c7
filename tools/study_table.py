#!/usr/bin/env python3
"""Makes docs/study.md's tables from `xiangqi-tui compare --json`.

Usage: python3 tools/study_table.py [path/to/xiangqi-tui]  (default target/release/xiangqi-tui)

Each cell is "leaves / seconds" of one backend at one depth. Minimax evaluates every leaf
(b^d), so it runs to depth 4 only. Times depend on the machine; leaves do not.
"""
import json
import subprocess
import sys

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/xiangqi-tui"
POSITIONS = [
    ("opening (start position)", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    ("middlegame", "rnba1abn1/4k2c1/8r/5P1P1/p1p2P3/P1P5p/1C5pp/9/3CA4/RNBK1ABNR b - - 0 1"),
    ("endgame (chariot, horse, cannon v advisors)", "3ak4/4a4/9/9/9/9/9/2H6/R2C5/4K4 w - - 0 1"),
    ("a mate (in one)", "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"),
    ("quiet (after the central cannon)", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"),
]
DEPTHS = [2, 3, 4, 5]
ALGORITHMS = ["minimax", "alphabeta", "sss", "mtsss", "mtdf", "bstar"]


def run(fen, depth):
    algorithms = [a for a in ALGORITHMS if not (a == "minimax" and depth > 4)]
    out = subprocess.run(
        [BINARY, "compare", "--fen", fen, "--depth", str(depth), "--json",
         "--algorithms", ",".join(algorithms)],
        check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


for title, fen in POSITIONS:
    results = {depth: run(fen, depth) for depth in DEPTHS}
    print(f"**{title}** `{fen}`\n")
    print("| backend | " + " | ".join(f"depth {d}" for d in DEPTHS) + " |")
    print("|---|" + "---:|" * len(DEPTHS))
    for algorithm in ALGORITHMS:
        cells = []
        for depth in DEPTHS:
            row = next((r for r in results[depth]["rows"] if r["algorithm"] == algorithm), None)
            cells.append("-" if row is None else f'{row["leaves"]} / {row["seconds"]:.3f}')
        print(f"| {algorithm} | " + " | ".join(cells) + " |")
    failed = [c["name"] for d in DEPTHS for c in results[d]["checks"] if not c["holds"]]
    values = ", ".join(
        f'd{d} {results[d]["rows"][1]["value"]} {results[d]["rows"][1]["best_move"]}' for d in DEPTHS)
    print(f"\nalpha-beta value and move: {values}; checks: "
          + ("all hold" if not failed else "FAIL: " + "; ".join(failed)) + "\n")
