#!/usr/bin/env bash
# Installs the Debian packages simdax needs, only those that are missing.
# Usage: install_deps.sh [extra package ...]
set -euo pipefail
pkgs=(cmake ninja-build g++ pkg-config libxsimd-dev libcpuid-dev libgtest-dev
      libbenchmark-dev nlohmann-json3-dev "$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
