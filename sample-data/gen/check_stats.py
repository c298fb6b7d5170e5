#!/usr/bin/env python3
"""Recomputes the statistics of a Text1 file written by pv_gen_winidea from
its TIMELINE, the naive way, and compares them with the STATISTICS sections.

A third, independent reading of docs/formats.md §3 (the generator's run clocks and
profview's model are the other two): time is swept from event to event and
every open frame is charged directly.  It understands the generator's output
only (single-line fields, one free-text NAME at most, the context area is the
state variable 20000000); it is a check of the generator, not a Text1 parser.

    check_stats.py FILE.txt      exit 0 when every STATISTICS row agrees
"""
import collections
import sys

CONTEXT_AREA = 0x20000000


def read(path):
    with open(path, newline='') as f:
        lines = f.read().replace('\r\n', '\n').split('\n')
    section = fmt = None
    context_names, stat_rows, events, state_vars = {}, {}, [], set()
    stat_context = ''
    for line in lines:
        if line.startswith('* '):
            section = line[2:].split(' ')[0]
            fmt = line.split('%')[1::2]
            stat_context = ''
            if 'CONTEXT(' in line:  # "TSK: name" -> "name" (docs/formats.md §3 prefix rule)
                stat_context = line.split('CONTEXT(')[1].split(')')[0].split(': ', 1)[-1]
            continue
        if not line.strip():
            continue
        if section == 'CONTEXTS':
            name, handle = line.rsplit(',', 1)
            context_names[name] = int(handle, 16)
        elif section.startswith('HANDLE(Data'):
            handle = int(line.split(',')[0], 16)
            if handle >> 28 == 3:
                state_vars.add(handle - 0x10000000)
        elif section.startswith('STATISTICS'):
            f = line.split(',')
            # HANDLE first, then (NAME,) VALUE, COUNT and the 19 T.* values last
            stat_rows[(f[0], f[-21], stat_context)] = [int(x) for x in f[-20:]]
        elif section == 'TIMELINE':
            f = dict(zip(fmt, line.split(',')))
            events.append((int(f['HANDLE'], 16), f['EVENT'], f['VALUE'], int(f['TIME']),
                           f.get('CONTEXT')))
    return context_names, stat_rows, events, state_vars


def recompute(context_names, events, state_vars):
    def is_context_switch(h):
        return h in (CONTEXT_AREA, CONTEXT_AREA + 0x10000000)

    # Implicit frames exist from the start: an (area, context) whose first
    # event is not E.  Find them first, so the sweep can charge them from 0.
    first, running = {}, None
    for h, e, v, t, cname in events:
        if is_context_switch(h):
            running = int(v, 16)
        elif h >> 28 <= 1:
            first.setdefault((h, context_names[cname] if cname else running), e)

    def new_frame(h, active, implicit):
        return dict(area=h, active=active, implicit=implicit, net=0, gross=0, call=0)

    stacks = collections.defaultdict(list)
    for (h, c), e in first.items():
        if e != 'E':
            stacks[c].append(new_frame(h, e != 'R', True))
    stats = collections.defaultdict(lambda: dict(count=0, net=0, gross=0, call=0, done=[],
                                                 periods=[], outsides=[], last_e=None,
                                                 last_x=None))
    writes = collections.Counter()
    entries = collections.Counter()
    in_state = collections.Counter()
    current = {}
    running, prev = None, 0

    def close(c, fr, complete):
        s = stats[(fr['area'], c)]
        for k in ('net', 'gross', 'call'):
            s[k] += fr[k]
        if complete:
            s['done'].append((fr['net'], fr['gross'], fr['call']))

    for h, e, v, t, cname in events:
        dt, prev = t - prev, t
        for c, stack in stacks.items():
            for fr in stack:
                fr['call'] += dt
                if c == running:
                    fr['gross'] += dt
                    fr['net'] += dt if fr['active'] else 0
        kind = h >> 28
        if kind >= 2:
            var = h - 0x10000000 if kind == 3 else h
            writes[var] += 1
            if var in state_vars:
                value = int(v, 16)
                if var in current:
                    in_state[(var, current[var][0])] += t - current[var][1]
                current[var] = (value, t)
                entries[(var, value)] += 1
                if var == CONTEXT_AREA:
                    running = value
            continue
        c = context_names[cname] if cname else running
        stack = stacks[c]
        s = stats[(h, c)]
        if e == 'E':
            s['count'] += 1
            if s['last_e'] is not None:
                s['periods'].append(t - s['last_e'])
            s['last_e'] = t
            if s['last_x'] is not None:
                s['outsides'].append(t - s['last_x'])
                s['last_x'] = None
            stack.append(new_frame(h, True, False))
            continue
        fr = next(f for f in stack if f['area'] == h)
        if e == 'S':
            fr['active'] = False
        elif e == 'R':
            fr['active'] = True
        elif e == 'X':
            stack.remove(fr)
            close(c, fr, not fr['implicit'])
            s['last_x'] = t
    for c, stack in stacks.items():
        for fr in stack:
            close(c, fr, False)
    for var, (value, since) in current.items():
        in_state[(var, value)] += prev - since
    return stats, writes, entries, in_state


def row_of(s):
    def avg(total, n):
        return total // n if n else 0
    n = s['count']
    done = s['done']
    mins = [min(d[i] for d in done) if done else 0 for i in range(3)]
    maxs = [max(d[i] for d in done) if done else 0 for i in range(3)]
    row = [n]
    for i, k in enumerate(('net', 'gross', 'call')):
        row += [s[k], mins[i], maxs[i], avg(s[k], n)]
    p, o = s['periods'], s['outsides']
    row += [min(p, default=0), max(p, default=0), avg(sum(p), len(p))]
    row += [sum(o), min(o, default=0), max(o, default=0), avg(sum(o), len(o))]
    return row


def main():
    context_names, stat_rows, events, state_vars = read(sys.argv[1])
    if not events:
        print('check_stats: no TIMELINE events in', sys.argv[1])
        return 1
    stats, writes, entries, in_state = recompute(context_names, events, state_vars)
    bad = 0
    for (h, value, cname), carried in sorted(stat_rows.items()):
        handle = int(h, 16)
        if handle >> 28 <= 1:
            mine = row_of(stats[(handle, context_names[cname])])
        elif handle >> 28 == 3:
            key = (handle - 0x10000000, int(value, 16))
            mine = [entries[key], in_state[key]] + [0] * 18
        else:
            mine = [writes[handle]] + [0] * 19
        if mine != carried:
            bad += 1
            print('DIFF %s %s %s\n  file: %s\n  mine: %s' % (h, value, cname, carried, mine))
    # and no (area, context) with events is missing from the file
    names = {v: k for k, v in context_names.items()}
    carried_keys = {(int(h, 16), cname) for (h, value, cname) in stat_rows}
    for (handle, c) in list(stats):
        if (handle, names[c]) not in carried_keys:
            bad += 1
            print('MISSING %08X in %s' % (handle, names[c]))
    print('check_stats: %s: %d rows, %d differ' % (sys.argv[1], len(stat_rows), bad))
    return 1 if bad or not stat_rows else 0


if __name__ == '__main__':
    sys.exit(main())
