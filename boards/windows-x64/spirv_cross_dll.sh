#!/bin/sh
# Builds spirv-cross-c-shared.dll (SPIRV-Cross's C API, GLSL + HLSL back ends) with mingw-w64 from
# Debian's own spirv-cross source package, for hal/d3d12's SPIR-V -> HLSL step. No Windows build
# of it exists in Debian. Usage: spirv_cross_dll.sh OUT_DIR (e.g. build/windows-x64/tests, next to
# the test programs, where LoadLibrary finds it). Needs a deb-src line for bookworm to fetch the
# source once (apt-get source), or SPIRV_CROSS_SRC=<unpacked source dir>. About 4 min on 2 cores.
set -eu
out=$1
work=$out/spirv-cross-build
mkdir -p "$work"
src=${SPIRV_CROSS_SRC:-$work/src}
if [ ! -f "$src/spirv_cross_c.cpp" ]; then
    (cd "$work" && apt-get source --download-only spirv-cross >/dev/null &&
     dpkg-source -x spirv-cross_*.dsc src >/dev/null) || {
        echo "spirv_cross_dll.sh: cannot fetch Debian's spirv-cross source: add 'Types: deb-src' for bookworm" \
             "to /etc/apt/sources.list.d and run apt-get update, or set SPIRV_CROSS_SRC" >&2
        exit 1
    }
fi
for f in spirv_cross spirv_parser spirv_cross_parsed_ir spirv_cfg spirv_glsl spirv_hlsl spirv_cross_c spirv_cross_util; do
    [ -f "$work/$f.o" ] || x86_64-w64-mingw32-g++ -std=c++11 -O2 -DSPIRV_CROSS_C_API_GLSL=1 -DSPIRV_CROSS_C_API_HLSL=1 \
        -DSPIRV_CROSS_C_API_MSL=0 -DSPIRV_CROSS_C_API_CPP=0 -DSPIRV_CROSS_C_API_REFLECT=0 \
        -c "$src/$f.cpp" -o "$work/$f.o"
done
x86_64-w64-mingw32-g++ -shared -o "$out/spirv-cross-c-shared.dll" "$work"/*.o -static -static-libgcc -static-libstdc++
echo "spirv_cross_dll.sh: $out/spirv-cross-c-shared.dll"
