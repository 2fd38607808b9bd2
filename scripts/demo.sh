#!/usr/bin/env bash
# Set up, build Release into build/, and run the demo on the bundled example.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build" -DCMAKE_BUILD_TYPE=Release
"$root/build/torchlet" demo "$root/examples"
