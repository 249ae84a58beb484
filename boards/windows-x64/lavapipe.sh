#!/bin/sh
# Fetches a lavapipe that wine 8.0's D3D12 (vkd3d 1.6) can bind descriptor tables on, into DIR.
#
# WHY: vkd3d 1.6 registers shader-visible descriptor heaps only when the Vulkan device offers
# VK_EXT_descriptor_indexing; Debian bookworm's lavapipe (Mesa 22.3) does not, so every
# Set*RootDescriptorTable binds nothing ("Invalid heap for base descriptor") and textures,
# samplers and table-bound buffers read nothing (hal/d3d12/README.md, "Under wine").
# bookworm-backports' mesa-vulkan-drivers (Mesa 25.0, built against bookworm's libllvm15) has it.
# It is downloaded with apt-get into a private apt state and unpacked into DIR, never installed:
# the rest of the machine (the Vulkan/GLES suites, their references) keeps the system Mesa.
# wine_run.sh points the Vulkan loader of the tests it runs at DIR/lvp.json when present.
#
# usage: lavapipe.sh DIR      (idempotent; about 12 MB downloaded once)
set -eu
D=$1
[ -f "$D/ok-1" ] && exit 0
rm -rf "$D"; mkdir -p "$D/apt/state/partial" "$D/apt/cache/archives/partial" "$D/debs" "$D/root"
D=$(cd "$D" && pwd)
echo "deb http://deb.debian.org/debian bookworm-backports main" > "$D/apt/sources.list"
APT="-q -o Dir::Etc::sourcelist=$D/apt/sources.list -o Dir::Etc::sourceparts=- \
     -o Dir::State::Lists=$D/apt/state -o Dir::Cache=$D/apt/cache -o APT::Get::List-Cleanup=0 \
     -o APT::Sandbox::User=root"
# shellcheck disable=SC2086
apt-get $APT update >"$D/apt.log" 2>&1 || { cat "$D/apt.log"; echo "lavapipe.sh: apt-get update failed"; exit 1; }
# libdrm >= 2.4.121 is what Mesa 25 needs; bookworm has 2.4.114, backports 2.4.123.
# shellcheck disable=SC2086
(cd "$D/debs" && apt-get $APT download mesa-vulkan-drivers libdrm2 libdrm-amdgpu1) >>"$D/apt.log" 2>&1 ||
    { cat "$D/apt.log"; echo "lavapipe.sh: apt-get download failed"; exit 1; }
for f in "$D"/debs/*.deb; do dpkg-deb -x "$f" "$D/root"; done
L=$D/root/usr/lib/x86_64-linux-gnu
[ -f "$L/libvulkan_lvp.so" ] || { echo "lavapipe.sh: no libvulkan_lvp.so in the package"; exit 1; }
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s/libvulkan_lvp.so","api_version":"1.3.0"}}\n' \
    "$L" > "$D/lvp.json"
rm -rf "$D/debs" "$D/apt/cache"
touch "$D/ok-1"
