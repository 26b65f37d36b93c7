#!/bin/sh
# A misbehaving UCI engine for the external engine tests. $1 says how:
#   hang     never answers the handshake
#   illegal  answers every search with an illegal move
#   garbage  answers every search with words that are no move
#   crash    exits in the middle of a search
mode="$1"
while read -r line; do
    case "$line" in
        uci)
            if [ "$mode" = hang ]; then
                exec sleep 60
            fi
            echo "id name fake-$mode"
            echo "uciok"
            ;;
        isready) echo "readyok" ;;
        go*)
            case "$mode" in
                illegal)
                    echo "info depth 1 score cp 0 nodes 1 pv a0a9"
                    echo "bestmove a0a9"
                    ;;
                garbage) echo "bestmove xyzzy" ;;
                crash)
                    echo "info string thinking"
                    exit 3
                    ;;
            esac
            ;;
        quit) exit 0 ;;
    esac
done
