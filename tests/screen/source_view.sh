#!/usr/bin/env bash
# The source beside the numbers in the Details pane (docs/source.md): a
# PLIST line's Source tab opens the file found under --source-path (in
# another case, deeper than the report's path) at the line, centred, with
# its hits; without the file, the report's own text; a file found nowhere
# says where it was looked for.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample plist-line-count.report.txt
mkdir -p "$TMP/tree/src"
awk 'BEGIN { for (i = 1; i <= 40; i++) printf "/* main.c %d */ x%d();\n", i, i }' >"$TMP/tree/src/Main.C"
cd "$SAMPLES"

# the file: line 17 (the fourth line of the report) centred, focused
expected=$(cat <<'SCREEN'
─ Explorer ─────────│─ Report: Lines ───────────────────────────────────────────
plist-line…eport.txt│Source File   Source Line  Hits  Hits %  Covered Source te…
  PLIST text report │main.c                  2  2571    2.29        1 \x09if (c…
    Summary (18)    │main.c                  5   455    0.40        1       CAL…
    Lines (62)      │main.c                 11  2918    2.60        1     retur…
    Modules (1)     │main.c                 17  2567    2.28        1         r…
                    │main.c                 21  2003    1.78        1     total…
                    │main.c                 24  3857    3.43        1         r…
                    │main.c                 30  3740    3.33        1 \x09if (c…
                    │main.c                 36  3702    3.29        1     lX = …
                    │main.c                 38  1813    1.61        1         r…
                    │main.c                 39  2578    2.29        1     retur…
                    │main.c                 45  1596    1.42        1         r…
                    │main.c                 47  3556    3.16        1       CAL…
                    │main.c                 52     0    0.00        0         r…
                    │─ Details ─[Source]────────────────────────────────────────
                    │ Source Line Source                  Hits  Covered
                    │          15 /* main.c 15 */ x15();
                    │          16 /* main.c 16 */ x16();
                    │          17 /* main.c 17 */ x17();  2567        1
                    │          18 /* main.c 18 */ x18();
                    │          19 /* main.c 19 */ x19();
 plist-line-count.report.txt │ source │ row 17/52                        ? help
SCREEN
)
expect_screen source_file "$(pv_screen $'Shift-Tab j Tab j j j Tab' plist-line-count.report.txt --source-path "$TMP/tree" --size 80x24)" "$expected"

# without the file: the report's text, the lines without a count too
screen=$(pv_screen $'Shift-Tab j Tab j j j Tab' plist-line-count.report.txt --source-path "$TMP/nothing" --size 80x24)
grep -qF '│          16  * part of a block comment' <<<"$screen" || { echo "$screen"; fail "the report's own text is not shown"; }
grep -qF '│          17         result = compute_sum(a…  2567        1' <<<"$screen" || { echo "$screen"; fail "line 17 of the report's text"; }
echo "ok: source_text"

# a row whose file is found nowhere and has no text: where it looked
printf 'Profile: Line counting, sorted by line\n\nProgram Statistics\n------------------\n    Total lines: 1\n\nModule Statistics for a.exe\n---------------------------\n    Lines in module: 1\n\nSource file: C:\\work\\gone.c\n\n    Line  Hit count      %%  Source\n--------------------------------------\n      3:          5  100.0\n' >"$TMP/gone.txt"
screen=$(pv_screen $'Shift-Tab j Tab' "$TMP/gone.txt" --source-path "$TMP/tree" --size 120x24)
grep -qF 'C:\work\gone.c: not found under' <<<"$screen" || { echo "$screen"; fail "the missing file does not say where it looked"; }
echo "ok: source_missing"
