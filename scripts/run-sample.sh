#!/usr/bin/env bash
# Sets up, builds and opens profview on a bundled sample.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec ./build/profview "${@:-sample-data/rtos.txt}"
