#!/usr/bin/env python3
"""What you export is what you saw (docs/export.md "Subsets"): for every
view of every file given, a filter that keeps about half of the rows,

    profview export SRC --format sqlite --instance N --view V --filter F -o OUT
    profview cat OUT --instance N --view V          (the export, unfiltered)
    profview cat SRC --instance N --view V --filter F

must print the same bytes, and every detail of the kept rows
(`cat --view D --parent ID`, here through SQL's table-valued functions, one
query per detail) must be the same in both.

usage: export_invariant.py PROFVIEW TMPDIR FILE...
Prints one FAIL line per difference; exit 1 when there was one.  The files
are checked two at a time (each runs many short profview processes that
wait on the export's writes), their reports printed in the order given.
"""
import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

pv, tmp, files = sys.argv[1], sys.argv[2], sys.argv[3:]
JOBS = 2
# each file's report and counts, made on the thread that checks it
local = threading.local()


def run(*args, check=True):
    p = subprocess.run([pv, *args], capture_output=True)
    if check and p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode,
                                                p.stderr.decode(errors="replace")))
    return p


def fail(msg, a=None, b=None):
    local.failures += 1
    print_ = local.log.append
    print_("FAIL: " + msg)
    if a is not None:
        al, bl = a.decode(errors="replace").split("\n"), b.decode(errors="replace").split("\n")
        for i, (x, y) in enumerate(zip(al, bl)):
            if x != y:
                print_("  line %d: source: %s\n  line %d: export: %s" % (i + 1, x[:200], i + 1, y[:200]))
                break
        else:
            print_("  source %d lines, export %d lines" % (len(al), len(bl)))


def quote(s):
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 32:
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def half_filter(rows):
    """A condition that keeps about half of the rows: `C <= median` on the
    id, else on the first column with values (numbers, hex, text)."""
    if not rows:
        return None
    cols = list(rows[0].keys())
    if "id" in cols:
        cols.remove("id")
        cols.insert(0, "id")
    for c in cols:
        vals = [r[c] for r in rows if r.get(c) is not None]
        if not vals:
            continue
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
            vals.sort()
            return "%s <= %r" % (c, vals[(len(vals) - 1) // 2])
        if all(isinstance(v, str) and v.startswith("0x") for v in vals):
            vals.sort(key=lambda v: int(v, 16))
            return "%s <= %s" % (c, vals[(len(vals) - 1) // 2])
        if all(isinstance(v, str) for v in vals):
            vals.sort(key=lambda v: v.encode())
            return "%s <= %s" % (c, quote(vals[(len(vals) - 1) // 2]))
    return None


def sets_of(path):
    info = json.loads(run("info", "--json", path).stdout)
    f = info["files"][0]
    return f["format"], f["result_sets"]


def details_query(view, detail, ids, k, qualified):
    t = view.replace("-", "_")
    d = detail.replace("-", "_")
    if qualified:
        d = t + "_" + d
    where = "o.id IN (%s)" % ",".join(str(i) for i in ids) if ids else "0"
    return ('SELECT o.id AS of_id, d.* FROM r%d."%s" o, "%s"(o.id, %d) d WHERE %s '
            'ORDER BY o.rowid, d.rowid' % (k, t, d, k, where))


def strip_file_row(view, out):
    # The summary of an AQTime database names the file read (docs/export.md).
    if view != "summary":
        return out
    return b"\n".join(l for l in out.split(b"\n") if not l.split(b"\t")[1:2] == [b"file"])


def check(n, path):
    """Every view of the file at PATH: (report lines, failures, counts)."""
    local.log, local.failures = [], 0
    compared = {"views": 0, "rows": 0, "details": 0, "detail_rows": 0}
    out = os.path.join(tmp, "inv%d.db" % n)
    fmt, sets = sets_of(path)
    warn_source = run("info", path).stdout.count(b"warning")
    for k, s in enumerate(sets):
        inst = str(s["id"])
        for v in s["views"]:
            view = v["id"]
            rows = json.loads(run("cat", path, "--instance", inst, "--view", view,
                                  "--format", "json").stdout or b"[]")
            flt = half_filter(rows)
            base = ["--instance", inst, "--view", view]
            fargs = ["--filter", flt] if flt else []
            if os.path.exists(out):
                os.unlink(out)
            label = "%s #%s %s%s" % (os.path.basename(path), inst, view,
                                       " '%s'" % flt if flt else "")
            p = run("export", path, "--format", "sqlite", *base, *fargs, "-o", out, check=False)
            if p.returncode != 0:
                fail("%s: export failed: %s" % (label, p.stderr.decode(errors="replace").strip()))
                continue
            want = run("cat", path, *base, *fargs)
            got = run("cat", out, *base, check=False)
            if got.returncode != 0:
                fail("%s: cat of the export failed: %s" % (label, got.stderr.decode(errors="replace").strip()))
                continue
            w, g = strip_file_row(view, want.stdout), strip_file_row(view, got.stdout)
            compared["views"] += 1
            compared["rows"] += w.count(b"\n") - 1
            if w != g:
                fail("%s: cat of the export differs from cat --filter" % label, w, g)
            warn_g = run("info", out).stdout.count(b"warning")
            if warn_g > 0 and warn_g != warn_source:
                fail("%s: the export warns (%d warnings, the source %d)" % (label, warn_g, warn_source))
            # the details of the kept rows
            if not v["details"] or not rows or "id" not in rows[0]:
                continue
            lines = want.stdout.decode(errors="replace").split("\n")
            at = lines[0].split("\t").index("id")
            ids = [int(l.split("\t")[at]) for l in lines[1:] if l and l.split("\t")[at].lstrip("-").isdigit()]
            if len(ids) > 400:  # a big view: 400 kept rows spread over it
                ids = [ids[i * (len(ids) - 1) // 399] for i in range(400)]
            for d in v["details"]:
                # VIEW_DETAIL when several views offer the detail, else DETAIL
                for qualified in (True, False):
                    a = run("sql", path, details_query(view, d, ids, k + 1, qualified), check=False)
                    if a.returncode == 0:
                        break
                if a.returncode == 0:
                    for q in (True, False):
                        b = run("sql", out, details_query(view, d, ids, 1, q), check=False)
                        if b"no such table" not in b.stderr:
                            break
                    if a.stdout.count(b"\n") <= 1 and b"no row has the detail" in b.stderr:
                        b = a  # no kept row has it: SQL cannot learn its columns
                else:
                    # no SQL function of that name (a view has it: call-routes,
                    # lines): cat --parent for some of the kept rows
                    step = max(1, len(ids) // 16)
                    a_out, b_out = [], []
                    for i in ids[::step]:
                        pa = run("cat", path, "--instance", inst, "--view", d, "--parent", str(i), check=False)
                        pb = run("cat", out, "--instance", inst, "--view", d, "--parent", str(i), check=False)
                        a_out.append(b"%d\n" % i + pa.stdout + pa.stderr)
                        b_out.append(b"%d\n" % i + pb.stdout + pb.stderr)
                    a = subprocess.CompletedProcess([], 0, b"".join(a_out), b"")
                    b = subprocess.CompletedProcess([], 0, b"".join(b_out), b"")
                compared["details"] += 1
                compared["detail_rows"] += a.stdout.count(b"\n") - 1
                if a.stdout != b.stdout or b.returncode != 0:
                    fail("%s: detail %s of the kept rows differs%s" % (
                        label, d, ": " + b.stderr.decode(errors="replace").strip() if b.returncode else ""),
                        a.stdout, b.stdout)
    return local.log, local.failures, compared


failures = 0
compared = {"views": 0, "rows": 0, "details": 0, "detail_rows": 0}
with ThreadPoolExecutor(max_workers=JOBS) as pool:
    for log, n, counts in pool.map(check, range(len(files)), files):
        for line in log:
            print(line)
        failures += n
        for key in compared:
            compared[key] += counts[key]

print("compared %(views)d views (%(rows)d rows), %(details)d details (%(detail_rows)d rows)" % compared)
sys.exit(1 if failures else 0)
