#!/usr/bin/env python3
"""The attributes a terminal draws a text with, read from a tmux capture
with its escapes (capture-pane -p -e):

    attrs.py CAPTURE TEXT [LINE]

prints the attributes of TEXT's first character where TEXT first occurs
(on line LINE, 1-based, when given; "re:PATTERN" is a regular expression
with a group, and the group's first character is meant) as words: bold dim underline reverse
("plain" when none), or "absent".  Colours are ignored: what is checked is
what a terminal without colour shows (docs/tui.md "Themes")."""
import re
import sys

NAMES = {1: "bold", 2: "dim", 4: "underline", 7: "reverse"}
OFF = {22: (1, 2), 24: (4,), 27: (7,)}


def cells(text):
    """The lines of the capture as lists of (character, attributes)."""
    state = set()
    lines = []
    for raw in text.split("\n"):
        line = []
        for part in re.split(r"(\x1b\[[0-9;]*m)", raw):
            if part.startswith("\x1b["):
                params = [int(p) if p else 0 for p in part[2:-1].split(";")]
                for p in params:
                    if p == 0:
                        state = set()
                    elif p in NAMES:
                        state.add(p)
                    elif p in OFF:
                        state -= set(OFF[p])
            else:
                line.extend((c, frozenset(state)) for c in part)
        lines.append(line)
    return lines


def main():
    capture = open(sys.argv[1], encoding="utf-8").read()
    want = sys.argv[2]
    only = int(sys.argv[3]) if len(sys.argv) > 3 else None
    for number, line in enumerate(cells(capture), 1):
        if only is not None and number != only:
            continue
        plain = "".join(c for c, _ in line)
        if want.startswith("re:"):
            m = re.search(want[3:], plain)
            at = m.start(1) if m else -1
        else:
            at = plain.find(want)
        if at >= 0:
            attrs = sorted(line[at][1])
            print(" ".join(NAMES[a] for a in attrs) if attrs else "plain")
            return
    print("absent")


main()
