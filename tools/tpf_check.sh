#!/bin/sh
# DXBC emitter check (hal/d3d12/d3d_tpf*.c): builds the host board with EMGPU_D3D12_TPF=1 into
# its own directory and runs tests/hosted/d3d12_tpf_check_test.c over the test shaders and the
# SPIR-V corpus, tests/hosted/d3d12_tpf/*.{vert,frag,comp} (after tools/spv_reorder.py, as
# tests/hosted/shader_corpus_test.c does) and tests/hosted/d3d12_tpf/*.spvasm (hand-written
# constructs glslang does not emit; assembled for the version their "; target-env:" line names): every
# entry point the front end accepts -> IR -> DXBC -> vkd3d-compiler -> spirv-val.
# Usage: sh tools/tpf_check.sh [build dir]   (needs vkd3d-compiler, spirv-tools: tools/deps windows-x64)
# Ends with "N passed, N failed, N skipped"; exit status 1 on any failure.
set -e
# TPF_CHECK_CFLAGS: the build's EXTRA_CFLAGS (make test passes its variant build's, so nothing
# is rebuilt); they must contain -DEMGPU_D3D12_TPF=1.
O=${1:-build/tpf-check}
make -s -j2 O="$O" BOARD=host EXTRA_CFLAGS="${TPF_CHECK_CFLAGS:--DEMGPU_D3D12_TPF=1}" all >/dev/null
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 tools/spv_reorder.py --tree tests/corpus/spirv "$T/corpus" >/dev/null
# The emitter's own GLSL inputs (control flow, math, textures, x# arrays) the test shaders lack.
mkdir -p "$T/extra"
for f in tests/hosted/d3d12_tpf/*.vert tests/hosted/d3d12_tpf/*.frag tests/hosted/d3d12_tpf/*.comp; do
    b=$(basename "$f")
    glslangValidator -V --target-env vulkan1.1 -o "$T/extra/$b.glslang" "$f" >/dev/null
    python3 tools/spv_reorder.py "$T/extra/$b.glslang" "$T/extra/$b.spv"
done
for f in tests/hosted/d3d12_tpf/*.spvasm; do
    b=$(basename "$f" .spvasm)
    env=$(sed -n 's/^; target-env: *//p' "$f")
    spirv-as --target-env "${env:-spv1.3}" -o "$T/extra/$b.spv" "$f"
    [ "$env" = spv1.4 ] && val=vulkan1.1spv1.4 || val=vulkan1.1
    spirv-val --target-env "$val" "$T/extra/$b.spv"
done
"$O/tests/d3d12_tpf_check_test" "$T/corpus" "$T/extra"
