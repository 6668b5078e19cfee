#!/usr/bin/env bash
# An engine that does not offer a game, for the match tests: it runs a real engine and hides
# from its `uci` answer the option UCI_Variant (as a build from before the other games), or
# with a game's name only that value of it.
#
# usage: no_variant.sh <engine> [<game>]
# Everything else passes through: the first command of a pipeline reads our standard input.
engine=$1
if [ -n "$2" ]; then
    "$engine" | sed -u "s/ var $2\b//"
else
    "$engine" | grep --line-buffered -v '^option name UCI_Variant '
fi
