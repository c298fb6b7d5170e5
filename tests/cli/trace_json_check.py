#!/usr/bin/env python3
"""Checks a trace-json export (docs/export.md "Trace Event Format") against
the source as `profview cat` prints it.

    trace_json_check.py PROFVIEW OUT.json SRC [--placed] [--lines]
                        [--markers FROM TO] [-- CAT-ARGS...]

CAT-ARGS select the calls the export was asked for (`--context C`,
`--filter F`, `--from A --to B`, `--instance N`): the X events of category
"call" must be exactly the rows of `cat SRC --view call-trace CAT-ARGS`
(--areas GLOB: of those, the routines matching the glob), one each, on the
track named by the row's context, with ts/dur equal to the row's
entry_time and exit_time - entry_time (exact: the file's decimals are
read as decimals).  With --placed (a call trace without a clock), the
times are recomputed from the rows' time_with_children: each call where
its previous sibling ended, the first child at its parent's start, the
roots of a thread one after another from 0.  Nesting: every call lies
within its parent when both are written.  Counters equal the value
histories of the statistics' data areas.  --lines: every line activation
lies within the call it names.  --markers: instants "marker A"/"marker B".
"""
import decimal
import fnmatch
import json
import re
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def cat(pv, src, *args):
    """The rows of `profview cat --format json`, every cell as its text
    ("" when absent)."""
    out = subprocess.run([pv, "cat", src, *args, "--format", "json"], check=True,
                         capture_output=True).stdout
    rows = json.loads(out.decode("utf-8"), parse_float=decimal.Decimal)
    return [{k: "" if v is None else str(v) for k, v in r.items()} for r in rows]


def ns(d):
    """A decimal number of microseconds written as us.fff, in ns (exact)."""
    v = d * 1000
    if v != v.to_integral_value():
        fail("time %s is not a whole number of ns" % d)
    return int(v)


def main():
    argv = sys.argv[1:]
    cat_args = []
    if "--" in argv:
        k = argv.index("--")
        argv, cat_args = argv[:k], argv[k + 1:]
    pv, out, src = argv[:3]
    opts = argv[3:]
    placed = "--placed" in opts
    lines = "--lines" in opts
    markers = None
    if "--markers" in opts:
        k = opts.index("--markers")
        markers = (int(opts[k + 1]), int(opts[k + 2]))
    areas = None
    if "--areas" in cat_args:
        k = cat_args.index("--areas")
        areas = cat_args[k + 1]
        cat_args = cat_args[:k] + cat_args[k + 2:]

    raw = open(out, "rb").read()
    # valid JSON (strict: no raw control characters in strings), UTF-8
    doc = json.loads(raw.decode("utf-8"), parse_float=decimal.Decimal)
    if doc.get("displayTimeUnit") != "ns":
        fail("displayTimeUnit is not ns")
    # every ts and dur is written with exactly three decimals
    for m in re.finditer(rb'"(ts|dur)":(-?[0-9.]+)', raw):
        if not re.fullmatch(rb"-?[0-9]+\.[0-9]{3}", m.group(2)):
            fail("%s written as %r, not us.fff" % (m.group(1).decode(), m.group(2)))
    ev = doc["traceEvents"]
    pid = 1  # the first result set exported (--instance N: the only one)

    def opt(*names):
        """The CAT-ARGS options among names, with their values."""
        got = []
        for k, a in enumerate(cat_args):
            if a in names:
                got += [a, cat_args[k + 1]]
        return got
    win = opt("--from", "--to")
    tracks = {}
    for e in ev:
        if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == pid:
            if e["tid"] in tracks:
                fail("tid %d named twice" % e["tid"])
            tracks[e["tid"]] = e["args"]["name"]
    if len(set(tracks.values())) != len(tracks):
        fail("two tracks of one name: %r" % tracks)

    rows = cat(pv, src, "--view", "call-trace", *cat_args)
    if areas is not None:
        rows = [r for r in rows if fnmatch.fnmatchcase(r["routine"], areas)]
    calls = [e for e in ev if e["ph"] == "X" and e.get("cat") == "call" and e["pid"] == pid]
    by_id = {}
    for e in calls:
        i = e["args"]["id"]
        if i in by_id:
            fail("call %d written twice" % i)
        by_id[i] = e
    if len(by_id) != len(rows):
        fail("%d calls written, cat lists %d" % (len(by_id), len(rows)))

    expect = {}
    if placed:
        # the placement, recomputed from every call of the trace
        every = cat(pv, src, "--view", "call-trace", *opt("--instance"))
        nxt, cursor, start = {}, {}, {}
        for r in every:
            dur = max(0, int(r["time_with_children"] or r["time"] or 0))
            p = r["parent"]
            if p and p in nxt:
                s = nxt[p]
                nxt[p] = s + dur
            else:
                s = cursor.get(r["thread"], 0)
                cursor[r["thread"]] = s + dur
            nxt[r["id"]] = s
            start[r["id"]] = (s, dur)
        for r in rows:
            expect[int(r["id"])] = start[r["id"]]
    else:
        tl = cat(pv, src, "--view", "timeline", "--columns", "time", *win)
        last = int(tl[-1]["time"]) if tl else 0
        for r in rows:
            ts = int(r["entry_time"])
            end = int(r["exit_time"]) if r["exit_time"] else max(last, ts)
            expect[int(r["id"])] = (ts, end - ts)

    for r in rows:
        i = int(r["id"])
        e = by_id.get(i)
        if e is None:
            fail("call %d (%s) not written" % (i, r["routine"]))
        got = (ns(e["ts"]), ns(e["dur"]))
        if got != expect[i]:
            fail("call %d: ts/dur %r, expected %r" % (i, got, expect[i]))
        if e["name"] != r["routine"]:
            fail("call %d: name %r, expected %r" % (i, e["name"], r["routine"]))
        want_track = r.get("thread", r.get("context", "")) or "(no context)"
        if tracks.get(e["tid"]) != want_track:
            fail("call %d on track %r, expected %r" % (i, tracks.get(e["tid"]), want_track))
        if str(e["args"].get("net")) != r["time"] or str(e["args"].get("depth")) != r["depth"]:
            fail("call %d: args %r, expected net %s depth %s" % (i, e["args"], r["time"], r["depth"]))
        # where the routine is: the view's module (and source), its line
        for k in ("module", "source"):
            if e["args"].get(k) != (r.get(k) or None):
                fail("call %d: %s %r, expected %r" % (i, k, e["args"].get(k), r.get(k)))
        line = r.get("line") or None
        if line is not None and int(line) <= 0:
            line = None
        got_line = e["args"].get("line")
        if (None if got_line is None else str(got_line)) != line:
            fail("call %d: line %r, expected %r" % (i, got_line, line))
        p = r["parent"]
        if p and int(p) in by_id:
            q = by_id[int(p)]
            if q["tid"] != e["tid"] or not (ns(q["ts"]) <= ns(e["ts"]) and
                                            ns(e["ts"]) + ns(e["dur"]) <= ns(q["ts"]) + ns(q["dur"])):
                fail("call %d is not inside its parent %s" % (i, p))

    # on every track the slices nest: none overlaps another partly
    spans = {}
    for e in ev:
        if e["ph"] == "X" and e["pid"] == pid:
            spans.setdefault(e["tid"], []).append((ns(e["ts"]), -ns(e["dur"]), e["name"]))
    for tid, ss in spans.items():
        ss.sort()
        stack = []
        for ts, mdur, name in ss:
            end = ts - mdur
            # the slices that ended before this one starts (one that starts
            # where another ends is not inside it, unless it lasts 0)
            while stack and (stack[-1][1] < ts or (stack[-1][1] == ts and end > ts)):
                stack.pop()
            if stack and end > stack[-1][1]:
                fail("on track %r, %r [%d, %d] overlaps %r [%d, %d] partly" %
                     (tracks.get(tid), name, ts, end, stack[-1][2], stack[-1][0], stack[-1][1]))
            stack.append((ts, end, name))

    if lines:
        nl = 0
        for e in ev:
            if e["ph"] == "X" and e.get("cat") == "line" and "call" in e["args"]:
                nl += 1
                q = by_id.get(e["args"]["call"])
                if q is None:
                    fail("line %r names call %r, not written" % (e["name"], e["args"]["call"]))
                if q["tid"] != e["tid"] or not (ns(q["ts"]) <= ns(e["ts"]) and
                                                ns(e["ts"]) + ns(e["dur"]) <= ns(q["ts"]) + ns(q["dur"])):
                    fail("line %r at %s+%s is not inside call %r" % (e["name"], e["ts"], e["dur"],
                                                                     e["args"]["call"]))
        if nl == 0:
            fail("no line activation written")

    if not placed:
        # counters: the value history of every data area of the statistics
        want = []
        stats = cat(pv, src, "--view", "statistics", *win)
        for s in stats:
            if s["type"] not in ("variable", "state", "aux", "aux-state"):
                continue
            if areas is not None and not fnmatch.fnmatchcase(s["name"], areas):
                continue
            vh = cat(pv, src, "--view", "value-history", "--parent", s["id"], *win)
            for h in vh:
                v = h["value"]
                want.append((s["name"], int(h["time"]),
                             int(v, 16) if v.startswith("0x") else decimal.Decimal(v)))
        # a write to a variable with states is in the histories of both
        # (the variable's and the state's): one counter event
        want = sorted(set(want), key=repr)
        got = []
        for e in ev:
            if e["ph"] == "C" and e["pid"] == pid:
                (k, v), = e["args"].items()
                if k not in ("value", "state"):
                    fail("counter series %r" % k)
                got.append((e["name"], ns(e["ts"]), v))
        if sorted(got, key=repr) != want:
            missing = set(want) - set(got)
            extra = set(got) - set(want)
            fail("counters differ from the value histories: %d missing (%r), %d extra (%r)" %
                 (len(missing), sorted(missing)[:3], len(extra), sorted(extra)[:3]))
        if not got and "--areas" not in sys.argv:
            fail("no counter written")

    if markers:
        inst = {e["name"]: ns(e["ts"]) for e in ev if e["ph"] == "i"}
        if inst.get("marker A") != markers[0] or inst.get("marker B") != markers[1]:
            fail("markers %r, expected A %d B %d" % (inst, markers[0], markers[1]))
    print("ok: %d calls, %d tracks" % (len(by_id), len(tracks)))


main()
