#!/usr/bin/env bash
# A Hub engine that answers every search with an illegal move, for the match tests of
# `proto=hub`: the referee must count it as that engine's fault.
while read -r cmd rest; do
    case "$cmd" in
        hub)
            echo 'id name=illegal version=1'
            echo 'param name=variant value=russian type=enum values="russian turkish"'
            echo 'wait' ;;
        init) echo 'ready' ;;
        ping) echo 'pong' ;;
        go) echo 'info depth=1 score=0.00'; echo 'done move=1-2' ;;
        quit) exit 0 ;;
    esac
done
