#!/usr/bin/env bash
# The Python stage: a virtual environment under build/ made with Debian's
# Python (never pip into a system Python), the pinned requirements, the
# simdax wheel built from this tree, then pytest over tests/python.
# Fails when a test fails and when pytest collects no test (exit 5).
# Usage: tools/scripts/test_python.sh [pytest args...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="$root/build/pyenv"
jobs=$(nproc 2>/dev/null || echo 2)
bash "$root/tools/scripts/install_deps.sh" python3-venv

if [ ! -x "$venv/bin/python" ]; then
  /usr/bin/python3 -m venv "$venv"
fi
t0=$SECONDS
"$venv/bin/pip" install -q -r "$root/tests/python/requirements.txt"
echo "python: requirements installed in $((SECONDS - t0)) s" \
  "(the first install on a machine downloads torch and its CUDA libraries, ~2 min)"

# The wheel, built as `pip install .` builds it; the CMake tree is kept in
# build/python/ between runs (pyproject.toml), so a rerun compiles nothing.
t0=$SECONDS
CMAKE_BUILD_PARALLEL_LEVEL=$jobs "$venv/bin/pip" install -q --no-build-isolation --no-deps \
  --force-reinstall "$root"
echo "python: simdax wheel built and installed in $((SECONDS - t0)) s"

# From outside the tree, so the tests import the installed package.
cd "$root/build"
rc=0
HF_HUB_OFFLINE=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/tests/python" \
  "$@" || rc=$?
if [ $rc -eq 5 ]; then
  echo "python: pytest collected no test"
  exit 1
fi
exit $rc
