#!/usr/bin/env bash
# The Warnings view: a file with warnings says how many in the Explorer
# ("bad.txt (4 warnings)"), its line there lists them (file, place,
# reason), and the Summary counts the same number as `profview info`
# (loading and indexing warnings alike).
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
cat > "$TMP/bad.txt" <<'TXT'
* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%
00000000,main,
1000000G,{,51
* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%
00000000,E,,100
00000000,Q,,150
00000000
00000000,X,,200
00000000,X,,300
TXT
"$PROFVIEW" info "$TMP/bad.txt" > "$TMP/info"
n=$(awk '$1 == "warnings:" { print $2 }' "$TMP/info")
[ "$n" -ge 4 ] || fail "test premise: 4 warnings expected, info says '$n'"
grep -q "timeline event" "$TMP/info" || fail "test premise: an indexing warning"

s=$(pv_screen '' "$TMP/bad.txt" --size 140x30)
expect_contains "the Explorer counts the warnings" "$s" "bad.txt ($n warnings)"
summary=$("$PROFVIEW" cat "$TMP/bad.txt" --view summary --columns key,value | awk -F'\t' '$1 == "warnings" { print $2 }')
[ "$summary" = "$n" ] || fail "Summary says $summary warnings, info says $n"
echo "ok: the Summary counts what info counts"

s=$(pv_screen $'Shift-Tab\ng' "$TMP/bad.txt" --size 160x30)
expect_contains "the file's line opens the Warnings" "$s" "Report: Warnings"
expect_contains "every warning is a row" "$s" "row 1/$n"
# each line of info is a row: place and reason split
while IFS= read -r line; do
  line=${line#    }
  rest=${line#"$TMP/bad.txt"}
  case $rest in
    :[0-9]*) place="line ${rest:1}"; place=${place%%:*}; reason=${rest#:*: } ;;
    *) rest=${rest#: }; place=${rest%%: *}; reason=${rest#*: } ;;
  esac
  row=$(printf '%s\n' "$s" | grep -F -- "$place" | head -1)
  [ -n "$row" ] || fail "no row with place '$place'"
  case $row in *"${reason:0:30}"*) ;; *) fail "row '$row' lacks the reason '${reason:0:30}'" ;; esac
  echo "ok: $place"
done < <(grep "^    $TMP/bad.txt" "$TMP/info")

# A file without warnings: no count, and its line opens nothing.
s=$(pv_screen $'Shift-Tab\ng' "$SAMPLES/rtos.txt" --size 120x30)
expect_absent "no count without warnings" "$s" "warnings)"
expect_absent "no Warnings view without warnings" "$s" "Report: Warnings"
