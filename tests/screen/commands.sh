#!/usr/bin/env bash
# The : commands are declared once (src/tui/commands.def): completion, the ?
# screen, `profview --help` and dispatch all read that table.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample plist-func-timing.txt
PLIST=$SAMPLES/plist-func-timing.txt
ROUTINES=$'Shift-Tab j Tab'
DEF=$PV_SOURCE_DIR/src/tui/commands.def

# Every PV_COMMAND(name, aliases, args, ...) line of the table.
mapfile -t names < <(sed -n 's/^PV_COMMAND(\([a-z_]*\), .*/\1/p' "$DEF")
[ "${#names[@]}" -ge 11 ] || fail "commands.def lists only ${#names[@]} commands"
last_line() { printf '%s\n' "$1" | tail -n 1; }
args_of() { sed -n "s/^PV_COMMAND($1, \"[^\"]*\", \"\([^\"]*\)\".*/\1/p" "$DEF"; }

# Tab after the start of a name completes it (and a blank after it).
s=$(pv_screen "$ROUTINES"$'\n:go<Tab>' "$PLIST" --size 100x30)
expect_screen "Tab completes :go to :goto" "$(last_line "$s")" ":goto"
s=$(pv_screen "$ROUTINES"$'\n:go<Tab>3<Enter>' "$PLIST" --size 100x30)
expect_contains ":go<Tab>3 runs :goto 3" "$s" "row 3/14"
s=$(pv_screen "$ROUTINES"$'\n:s<Tab>' "$PLIST" --size 100x30)
expect_contains "Tab lists the commands starting with s" "$s" "sort stats set"
# What follows the name completes from the command's own entry.
s=$(pv_screen "$ROUTINES"$'\n:theme mono<Tab>' "$PLIST" --size 100x30)
expect_screen ":theme completes theme names" "$(last_line "$s")" ":theme monochrome"
s=$(pv_screen "$ROUTINES"$'\n:sort rou<Tab>' "$PLIST" --size 100x30)
expect_screen ":sort completes column ids" "$(last_line "$s")" ":sort routine"

# The help screen lists every command of the table with its arguments.
s=$(pv_screen $'?\nPgDn PgDn PgDn' "$PLIST" --size 120x80)
expect_contains "help has the commands section" "$s" "Commands (:)"
for n in "${names[@]}"; do
  a=$(args_of "$n")
  expect_contains "help lists :$n $a" "$s" ":$n${a:+ $a}"
done
expect_contains "help names the alias" "$s" "(also :q)"
# So does --help.
h=$("$PROFVIEW" --help)
for n in "${names[@]}"; do
  a=$(args_of "$n")
  expect_contains "--help lists :$n" "$h" "  :$n${a:+ $a}"
done

# Dispatch: a command runs, an alias runs (the script stops at :q), an
# unknown word says so.
s=$(pv_screen "$ROUTINES"$'\n:goto 3<Enter>' "$PLIST" --size 100x30)
expect_contains ":goto 3 runs" "$s" "row 3/14"
s=$(pv_screen "$ROUTINES"$'\n:q<Enter>\n:goto 3<Enter>' "$PLIST" --size 100x30)
expect_contains ":q quits before the next command" "$s" "row 1/14"
s=$(pv_screen "$ROUTINES"$'\n:qu<Enter>' "$PLIST" --size 100x30)
expect_contains "a prefix is not a command" "$s" "unknown command 'qu' (try :help)"
