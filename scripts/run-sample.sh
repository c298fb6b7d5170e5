#!/usr/bin/env bash
# Sets up, builds and opens profview on a bundled sample.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
echo "run-sample: configuring and building profview in build/ (a minute or two the first time)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
# The build's progress on one line; its whole output, when it fails.
log=build/run-sample-build.log
if ! cmake --build build -j"$(nproc)" 2>&1 | tee "$log" |
  awk '/^\[ *[0-9]+%\]/ { p = substr($0, 2, index($0, "]") - 2)
                          if (p != last) { printf "\r  building: %s", p; fflush(); last = p } }
       END { if (last != "") print "" }'; then
  tail -n 40 "$log"
  echo "run-sample: the build failed (whole log: $log)" >&2
  exit 1
fi
exec ./build/profview "${@:-sample-data/rtos.txt}"
