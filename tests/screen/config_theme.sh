#!/usr/bin/env bash
# The user's config.yaml (keys, time unit, default columns) and themes, read
# through the scripted-keys mode; bad files get file:line:column messages on
# the screen and the defaults are used.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample plist-func-timing.txt
FILE=$SAMPLES/plist-func-timing.txt
mkdir -p "$XDG_CONFIG_HOME/profview/themes"
CONFIG=$XDG_CONFIG_HOME/profview/config.yaml

# 1. A good config: x moves down, times in us, routines show two columns.
cat > "$CONFIG" <<'YAML'
# my profview
time_unit: us
keys:
  down: [x, Down]
columns:
  routines: [routine, time]
YAML
s=$(pv_screen $'Shift-Tab x Tab x x Down' "$FILE" --size 100x30)
expect_contains "rebound key moves" "$s" "row 4/14"
sed -n 2p <<<"$s" | grep -E '│Routine +Time *$' >/dev/null || { printf '%s\n' "$s" >&2; fail "default columns from the config: the header is not Routine, Time"; }
echo "ok: default columns from the config"
expect_contains "time unit from the config" "$s" "151223.399 us"
expect_absent "module column hidden by the config" "$s" "view.obj"
s=$(pv_screen '?' "$FILE" --size 100x30)
expect_contains "help shows the rebound key" "$s" " x Down             down"

# 2. A bad config: the message names file, line and column; defaults stay.
cat > "$CONFIG" <<'YAML'
keys:
  down: Hyper-Q
YAML
s=$(pv_screen '' "$FILE" --size 100x30)
expect_contains "bad key named with its place" "$s" "$CONFIG:2:9: action 'down': unknown key 'Hyper-Q'"
s=$(pv_screen $'Shift-Tab j Tab j j' "$FILE" --size 100x30)
expect_contains "default binding still works" "$s" "row 3/14"
# A columns list naming a column the view does not have: said with its
# place when the view opens, and the view keeps its default columns.
cat > "$CONFIG" <<'YAML'
columns:
  routines: [routine, hitz]
YAML
s=$(pv_screen $'Shift-Tab j' "$FILE" --size 160x30)
expect_contains "unknown configured column named with its place" "$s" "$CONFIG:2:13: columns of 'routines': no column 'hitz'"
expect_contains "the view keeps its default columns" "$s" "Module"
printf 'keys: [unclosed\n' > "$CONFIG"
s=$(pv_screen '' "$FILE" --size 100x30)
expect_contains "YAML syntax error named with its place" "$s" "$CONFIG:2:1:"
rm "$CONFIG"

# 3. Themes: --theme finds the user's directory first; a bad theme is named.
cat > "$XDG_CONFIG_HOME/profview/themes/broken.yaml" <<'YAML'
name: broken
roles:
  selected: black on mauve
YAML
s=$(pv_screen '' "$FILE" --size 100x30 --theme broken)
expect_contains "bad theme named with its place" "$s" "themes/broken.yaml:3:13: role 'selected': 'on' needs a"
expect_contains "... wrapped at a blank" "$s" $'\nbackground colour, got \'mauve\''
expect_contains "defaults used" "$s" "(using the defaults; press any key)"
s=$(pv_screen '' "$FILE" --size 100x30 --theme nosuch)
expect_contains "missing theme" "$s" "theme 'nosuch' not found"
for t in default light monochrome high-contrast; do
  s=$(pv_screen '' "$FILE" --size 100x30 --theme $t)
  expect_absent "theme $t loads without a message" "$s" "using the defaults"
done
s=$(pv_screen ':theme light<Enter>' "$FILE" --size 100x30)
expect_contains ":theme switches" "$s" "theme light"
s=$(pv_screen ':theme ../etc<Enter>' "$FILE" --size 100x30)
expect_contains ":theme refuses paths" "$s" "a theme name has no '/'"
echo PASS
