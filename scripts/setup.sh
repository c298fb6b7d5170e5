#!/usr/bin/env bash
# Makes sure the Debian packages that build and test profview are installed.
# As root it installs what is missing; otherwise it names the packages.
set -euo pipefail

packages=(build-essential clang libclang-rt-dev cmake pkg-config libncurses-dev libsqlite3-dev libyaml-dev
          libcmocka-dev mdbtools-dev libmdb3 tmux sqlite3 ncurses-term locales python3 man-db groff-base bsdutils time)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: these Debian packages are missing: ${missing[*]}" >&2
    echo "setup: install them with: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi
