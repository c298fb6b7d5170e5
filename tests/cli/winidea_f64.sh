#!/usr/bin/env bash
# F64 values in the timeline (docs/winidea-model.md): every cell has its
# column's type, so filters and sorts treat F64 rows like any other.  The
# timeline's `value` is HEX in every row (an F64 area's: the 64 bits of DATA)
# and the double is in `value_f64` (FLOAT), a column that exists only when
# the mapping has F64 areas.
set -u
: "${PROFVIEW:?set PROFVIEW to the profview binary}"
src=${PV_SOURCE_DIR:?}
dir=$(mktemp -d /tmp/pv-wi-f64-XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

le32() {
    local v=$1
    printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $(((v >> 8) & 255)) \
        $(((v >> 16) & 255)) $(((v >> 24) & 255)))"
}
le64() { le32 $(($1 & 0xFFFFFFFF)); le32 $((($1 >> 32) & 0xFFFFFFFF)); }
record() { le32 "$1"; le32 "$2"; le64 "$3"; le64 "$4"; } # handle, word, data, time (v1.1)
W=0xFF4

printf '%s\n' '* HANDLE(Data) %HANDLE%,%NAME%,%VALUE%,%VALUE.TYPE%' '20000000,counter,,I64' \
    '* HANDLE(AUX) %HANDLE%,%NAME%,%VALUE%,%VALUE.TYPE%' '40000000,voltage,,F64' >"$dir/f64.txt"
{
    record 0x40000000 $W 0x400A000000000000 100 # 3.25
    record 0x20000000 $W 0x100000005 150        # I64: low 32 bits 0x5
    record 0x40000000 $W 0xBFE0000000000000 200 # -0.5
    record 0x40000000 $W 0x4059000000000000 300 # 100
    record 0x20000000 $W 0x7 350
    record 0x40000000 $W 0x0000000000000005 400 # a denormal whose bits are 0x5
    record 0x40000000 $W 0xC01E000000000000 500 # -7.5
} >"$dir/f64.BIN"

cat_tl() { "$PROFVIEW" cat "$dir/f64.txt" --view timeline "$@" 2>&1; }
check() { # name expected actual
    if [ "$2" != "$3" ]; then
        bad "$1"
        diff <(echo "$2") <(echo "$3") | head -20
    fi
}

# The columns and the cells as written.
check "timeline cells" "$(printf '%s\n' \
    'index	name	value	value_f64' \
    '0	voltage	0x400A000000000000	3.25' \
    '1	counter	0x5	' \
    '2	voltage	0xBFE0000000000000	-0.5' \
    '3	voltage	0x4059000000000000	100' \
    '4	counter	0x7	' \
    '5	voltage	0x5	2.5e-323' \
    '6	voltage	0xC01E000000000000	-7.5')" "$(cat_tl --columns index,name,value,value_f64)"

# Filters on the double.
check "value_f64 > 0" "$(printf 'index\n0\n3\n5')" "$(cat_tl --filter 'value_f64 > 0' --columns index)"
check "value_f64 < 0" "$(printf 'index\n2\n6')" "$(cat_tl --filter 'value_f64 < 0' --columns index)"
check "value_f64 = 100" "$(printf 'index\n3')" "$(cat_tl --filter 'value_f64 = 100' --columns index)"
check "value_f64 >= -0.5 && value_f64 <= 3.25" "$(printf 'index\n0\n2\n5')" \
    "$(cat_tl --filter 'value_f64 >= -0.5 && value_f64 <= 3.25' --columns index)"
# Filters on the hex value keep the F64 rows (their 64 bits), never drop them.
check "value != 0x5" "$(printf 'index\n0\n2\n3\n4\n6')" "$(cat_tl --filter 'value != 0x5' --columns index)"
check "value = 0x5" "$(printf 'index\n1\n5')" "$(cat_tl --filter 'value = 0x5' --columns index)"
check "value > 0x7" "$(printf 'index\n0\n2\n3\n6')" "$(cat_tl --filter 'value > 0x7' --columns index)"
# Sorts: by the double (rows without one first), and by the hex value.
check "sort value_f64" "$(printf '%s\n' index 1 4 6 2 5 0 3)" "$(cat_tl --sort value_f64 --columns index)"
check "sort value_f64:desc" "$(printf '%s\n' index 3 0 5 2 6 1 4)" \
    "$(cat_tl --sort value_f64:desc --columns index)"
check "sort value" "$(printf '%s\n' index 1 5 4 0 3 2 6)" "$(cat_tl --sort value --columns index)"
# The value history keeps its FLOAT `value` and HEX `raw`.
check "value-history" "$(printf '%s\n' 'time	value	raw' '100	3.25	0x400A000000000000' \
    '200	-0.5	0xBFE0000000000000' '300	100	0x4059000000000000' '400	2.5e-323	0x5' \
    '500	-7.5	0xC01E000000000000')" \
    "$("$PROFVIEW" cat "$dir/f64.txt" --view data --filter 'name = "voltage"' --columns id 2>&1 |
        tail -n +2 | { read -r id; "$PROFVIEW" cat "$dir/f64.txt" --view value-history --parent "$id" --columns time,value,raw 2>&1; })"

# A file without F64 areas has no value_f64 column; one with them has it last.
check "no F64: columns" "id	index	time	context	core	handle	name	event	value	depth	type	delta" \
    "$("$PROFVIEW" cat "$src/sample-data/rtos.txt" --view timeline --limit 0 2>&1)"
check "F64: columns" "id	index	time	context	core	handle	name	event	value	depth	type	delta	value_f64" \
    "$(cat_tl --limit 0)"
exit $fail
