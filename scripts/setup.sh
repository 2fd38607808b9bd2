#!/usr/bin/env bash
# Installs torchlet's Debian dependencies; skips the apt step when all are present.
#   scripts/setup.sh          build dependencies
#   scripts/setup.sh --test   plus the test oracle (real PyTorch) and test tools
#   scripts/setup.sh --bench  plus libtorch's C++ headers, for bench/ops_bench
set -euo pipefail

# ocl-icd-opencl-dev: libdnnl-dev only recommends it, but dnnl's CMake config refuses to
# load without OpenCL, and recommends are not installed here.
packages=(cmake ninja-build ccache g++ zlib1g-dev libdeflate-dev libdnnl-dev ocl-icd-opencl-dev libfmt-dev liblapack-dev
          libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev)
# locales: the de_DE definition tests/core/locale_test.cpp builds with localedef.
# qemu-user: an emulated AVX2 CPU for scripts/cpu_emulation_check.sh on AVX-512 hosts.
if [[ "${1:-}" == "--test" || "${1:-}" == "--bench" ]]; then
  packages+=(python3-torch python3-torchvision python3-numpy clang locales qemu-user)
fi
if [[ "${1:-}" == "--bench" ]]; then
  packages+=(libtorch-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
