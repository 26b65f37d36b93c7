#!/usr/bin/env python3
"""Generates tests/data/chase_cases.tsv: threefold repetitions judged by Fairy-Stockfish's
xiangqi rules (pyffish), to check our perpetual check / chase verdicts against an
independent implementation.

Each case is a random playout from the start position followed by a designed cycle, played
until a position occurs for the third time. Half the cycles are plain shuffles (a piece of
each side away and back); the others are built to look like chases: a piece moves to attack
an enemy piece, the enemy piece steps away, the attacker follows it, the enemy steps back.
Whether that is a chase (the target may be defended, the attack mutual, ...) is the
referee's call. Cycles start either with the attacker's move (the attacked side moves last)
or just after it (the attacker moves last), so both verdicts occur.

Output columns: start FEN, the moves (pyffish coordinates, ranks 1-10), and the verdict for
the side to move at the end: win, loss or draw.

    python3 tools/gen_chase_cases.py [count per verdict] [seed] > tests/data/chase_cases.tsv
"""
import random
import sys

import pyffish as sf

V = "xiangqi"
START = sf.start_fen(V)


def piece_at(fen, sq):
    rows = fen.split()[0].split("/")
    row = rows[10 - int(sq[1:])]
    x = 0
    for ch in row:
        if ch.isdigit():
            x += int(ch)
        else:
            if x == "abcdefghi".index(sq[0]):
                return ch
            x += 1
    return None


def split(m):
    i = 1
    while m[i].isdigit():
        i += 1
    return m[:i], m[i:]


def rev(m):
    a, b = split(m)
    return b + a


def after(fen, m):
    return sf.get_fen(V, fen, [m])


def quiet_moves(fen, strong_only=True):
    out = []
    for m in sf.legal_moves(V, fen, []):
        a, b = split(m)
        p = piece_at(fen, a)
        if piece_at(fen, b) is None and (not strong_only or p.lower() in "rcnab"):
            out.append(m)
    return out


def targets(fen, sq):
    """Enemy pieces the piece on `sq` could capture if its side were to move."""
    parts = fen.split()
    mover_is_red = piece_at(fen, sq).isupper()
    parts[1] = "w" if mover_is_red else "b"
    flipped = " ".join(parts)
    try:
        moves = sf.legal_moves(V, flipped, [])
    except Exception:
        return []
    return [split(m)[1] for m in moves if split(m)[0] == sq and piece_at(flipped, split(m)[1])]


def legal(fen, m):
    return m in sf.legal_moves(V, fen, [])


def chase_cycle(fen, rng):
    """(prefix, cycle): the attacker's move(s) and a four-ply cycle, or None."""
    moves = quiet_moves(fen)
    rng.shuffle(moves)
    for c0 in moves[:12]:
        x, y = split(c0)
        r = after(fen, c0)
        for u in targets(r, y):
            for c1 in [m for m in quiet_moves(r, False) if split(m)[0] == u]:
                v = split(c1)[1]
                r1 = after(r, c1)
                # The attacker follows: from y to a point that attacks v.
                follows = [m for m in quiet_moves(r1) if split(m)[0] == y
                           and v in targets(after(r1, m), split(m)[1])]
                rng.shuffle(follows)
                for c2 in follows[:3]:
                    r2 = after(r1, c2)
                    if not legal(r2, rev(c1)):
                        continue
                    r3 = after(r2, rev(c1))
                    back = split(c2)[1] + y
                    if not legal(r3, back):
                        continue
                    if split(c2)[1] == x or rng.random() < 0.5:
                        # The attacked side moves last: the cycle starts before c0.
                        if split(c2)[1] != x:
                            continue
                        return [], [c0, c1, c2, rev(c1)]
                    # The attacker moves last: c0 leads into the first occurrence and the
                    # attacker shuttles between y and another point.
                    return [c0], [c1, c2, rev(c1), back]
    return None


def shuffle_cycle(fen, rng):
    c0s = quiet_moves(fen) or quiet_moves(fen, False)
    if not c0s:
        return None
    c0 = rng.choice(c0s)
    r = after(fen, c0)
    c1s = quiet_moves(r) or quiet_moves(r, False)
    if not c1s:
        return None
    c1 = rng.choice(c1s)
    return [], [c0, c1, rev(c0), rev(c1)]


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
    found = {"win": 0, "loss": 0, "draw": 0}
    attempts = 0
    while min(found.values()) < count and attempts < 100000:
        attempts += 1
        moves = []
        fen = START
        for _ in range(rng.randrange(4, 70)):
            options = sf.legal_moves(V, fen, [])
            if not options:
                break
            moves.append(rng.choice(options))
            fen = after(fen, moves[-1])
        if not sf.legal_moves(V, fen, []) or sf.is_optional_game_end(V, START, moves)[0]:
            continue
        built = chase_cycle(fen, rng) if rng.random() < 0.8 else shuffle_cycle(fen, rng)
        if built is None:
            continue
        prefix, cycle = built
        line = list(moves)
        cur = fen
        ended = None
        for m in prefix + cycle * 3:
            if not legal(cur, m):
                break
            line.append(m)
            cur = after(cur, m)
            done, value = sf.is_optional_game_end(V, START, line)
            if done:
                ended = value
                break
        if ended is None:
            continue
        verdict = "win" if ended > 0 else "loss" if ended < 0 else "draw"
        if found[verdict] < count:
            found[verdict] += 1
            print(f"{START}\t{' '.join(line)}\t{verdict}", flush=True)
    print(f"# attempts {attempts}: {found}", file=sys.stderr)


if __name__ == "__main__":
    main()
