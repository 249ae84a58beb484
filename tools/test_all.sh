#!/bin/sh
# make test: builds and runs every listed board's suites, then prints the totals as the last line
# ("N passed, N failed, N skipped"). A suite that crashes or prints no closing line counts as one
# failure, so nothing is lost silently.
set -u
# Builds run in parallel (the machine's CPUs). A board's suites run while the next board builds
# (the suites are mostly one process on one core: QEMU, wine, the unit runner), one board's suites
# at a time; their output is printed in board order once they end. (Session 17: CI had reached
# 30 minutes with builds and suites strictly one after the other.)
jobs=$(nproc 2>/dev/null || echo 2)
total_p=0; total_f=0; total_s=0
log=$(mktemp)
check_dir=$(mktemp -d)
check_pid=""; check_board=""
# Waits for the board whose suites run in the background, prints their output and sums it: each
# suite prints its own closing line; a suite that printed none counts as a failure.
finish_check() {
    [ -n "$check_pid" ] || return 0
    wait "$check_pid"
    clog="$check_dir/$check_board.log"
    cat "$clog"
    suites=$(grep -c '^== ' "$clog")
    closings=$(grep -cE '^[0-9]+ passed, [0-9]+ failed' "$clog")
    for line in $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$clog" | sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1:\2:\4/'); do
        p=${line%%:*}; rest=${line#*:}; f=${rest%%:*}; s=${rest#*:}
        total_p=$((total_p + p)); total_f=$((total_f + f)); total_s=$((total_s + ${s:-0}))
    done
    if [ "$closings" -lt "$suites" ]; then
        echo "board $check_board: $((suites - closings)) suite(s) ended without a closing line (crash?)"
        total_f=$((total_f + suites - closings))
    fi
    check_pid=""; check_board=""
}
for board in "$@"; do
    echo "=== board $board (build)"
    if ! make --no-print-directory -j"$jobs" BOARD="$board" all >"$log" 2>&1; then
        cat "$log"; echo "build of board $board failed"
        total_f=$((total_f + 1)); continue
    fi
    finish_check
    echo "=== board $board (suites start)"
    make --no-print-directory BOARD="$board" check >"$check_dir/$board.log" 2>&1 &
    check_pid=$!; check_board=$board
done
# Sum the closing lines of a log (and count a missing closing line as a failure).
add_totals() {
    if ! grep -qE '^[0-9]+ passed, [0-9]+ failed' "$1"; then
        echo "$2: ended without a closing line (crash?)"; total_f=$((total_f + 1)); return
    fi
    for line in $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1:\2:\4/'); do
        p=${line%%:*}; rest=${line#*:}; f=${rest%%:*}; s=${rest#*:}
        total_p=$((total_p + p)); total_f=$((total_f + f)); total_s=$((total_s + ${s:-0}))
    done
}
case " $* " in *" host "*)
    # The GPU backends: the host board's whole API suite once more on each (EMGPU_TEST_BACKEND),
    # on Mesa's CPU drivers (lavapipe, llvmpipe); a backend without a driver is one named skip.
    for b in vulkan gles; do
        echo "=== backend $b: API tests (host)"
        # Vulkan runs under the Khronos validation layer (synchronization validation on): any
        # message fails the test that caused it.
        EMGPU_TEST_BACKEND=$b EMGPU_VK_VALIDATION=1 build/host/tests/unit_tests >"$log" 2>&1
        cat "$log"; add_totals "$log" "backend $b"
    done
    # The VM's scalar fallback (EMGPU_SOFT_SIMD=0) must give the same bytes as the vector path:
    # the scene hashes of that build against the same references.
    # The same variant build routes the Vulkan driver's host allocations into a fixed arena
    # (EMGPU_VK_HOST_ALLOC_ARENA, a board knob) and runs the arena tests.
    # It also compiles the D3D12 DXBC emitter into a host build (EMGPU_D3D12_TPF=1), whose
    # output for every test and corpus shader is read back by vkd3d-compiler + spirv-val.
    echo "=== variant build (EMGPU_SOFT_SIMD=0, EMGPU_VK_HOST_ALLOC_ARENA, EMGPU_D3D12_TPF): scene hashes, arena, DXBC"
    variant_cflags="-DEMGPU_SOFT_SIMD=0 -DEMGPU_VK_HOST_ALLOC_ARENA=33554432 -DEMGPU_D3D12_TPF=1"
    if make --no-print-directory -j"$jobs" O=build/host-variant BOARD=host \
            EXTRA_CFLAGS="$variant_cflags" all >"$log" 2>&1; then
        build/host-variant/tests/unit_tests scenes. >"$log" 2>&1
        cat "$log"; add_totals "$log" "scalar VM scene hashes"
        EMGPU_TEST_BACKEND=vulkan EMGPU_VK_VALIDATION=1 build/host-variant/tests/unit_tests vulkan. >"$log" 2>&1
        cat "$log"; add_totals "$log" "Vulkan host-allocation arena"
        TPF_CHECK_CFLAGS="$variant_cflags" sh tools/tpf_check.sh build/host-variant >"$log" 2>&1
        tail -n 30 "$log"; add_totals "$log" "DXBC emitter (vkd3d-compiler + spirv-val)"
    else
        cat "$log"; echo "variant build failed"; total_f=$((total_f + 1))
    fi
    # The same tree under clang: the soft backend's vector code uses GCC and clang builtins
    # (some GCC-only, with fallbacks), so a clang build must compile with -Werror and give the
    # same bytes (soft tests and the scene hashes against the same references).
    echo "=== clang build (CC=clang): soft tests and scene hashes"
    if make --no-print-directory -j"$jobs" O=build/host-clang BOARD=host CC=clang all >"$log" 2>&1; then
        build/host-clang/tests/unit_tests soft >"$log" 2>&1
        tail -n 3 "$log"; add_totals "$log" "clang soft tests"
        build/host-clang/tests/unit_tests scenes. >"$log" 2>&1
        tail -n 3 "$log"; add_totals "$log" "clang scene hashes"
    else
        tail -n 30 "$log"; echo "clang build failed"; total_f=$((total_f + 1))
    fi
    # The last board's suites (wine for windows-x64) ran beside the builds above; the rest below
    # wants the machine to itself (QEMU guests, a time-bounded fuzz run).
    finish_check
    # The SPIR-V front end under libFuzzer (ASan + UBSan), for a bounded time.
    if [ -f tests/fuzz/fuzz.mk ]; then
        echo "=== fuzz: SPIR-V front end (bounded run)"
        make --no-print-directory -j"$jobs" BOARD=host fuzz-smoke >"$log" 2>&1
        tail -n 20 "$log"; add_totals "$log" "fuzz"
    fi
    # fbdev + DRM/KMS surfaces on a real Linux kernel under qemu-system-x86_64 (issue #7): the
    # guest renders scenes through WGPUSurface, the host compares QEMU screendumps with tests/ref.
    echo "=== VM displays: fbdev + KMS under QEMU (tools/vm_display_test.sh)"
    sh tools/vm_display_test.sh build/host >"$log" 2>&1; cat "$log"; add_totals "$log" "VM displays"
    # The dashboard reference that VM test compares against: soft's frame cross-checked against
    # lavapipe and llvmpipe within the scene tolerances.
    echo "=== dashboard reference cross-check (tools/vm_demo_ref.sh)"
    sh tools/vm_demo_ref.sh build/host >"$log" 2>&1; cat "$log"; add_totals "$log" "dashboard reference"
    ;;
esac
finish_check
rm -rf "$check_dir"
case " $* " in *" windows-x64 "*)
    # The whole API suite again on the D3D12 backend under wine (vkd3d 1.6 over the lavapipe that
    # boards/windows-x64/lavapipe.sh fetches, inside Xvfb), as for Vulkan and GLES above: shaders
    # are DXBC from the TPF emitter. The scenes run on d3d12 in the board's check (scenes_test
    # compares them with soft's). Tests a proven wine/vkd3d defect stops print N/A with the
    # defect named (hal/d3d12/README.md, "Under wine").
    # The two pipeline fault walks run in a process of their own: they are the slowest part
    # (devices made while a fault is armed are never kept, so each step creates descriptor heaps,
    # which vkd3d does slowly), and a native crash there (seen on lavapipe 25 before the walks
    # waited after a failed readback; hal/d3d12/README.md "Under wine") must not hide the suite.
    echo "=== backend d3d12: API suite (windows-x64, wine)"
    EMGPU_TEST_BACKEND=d3d12 EMGPU_TEST_EXCLUDE=d3d12.fault_pipeline_cycle sh boards/windows-x64/wine_run.sh \
        build/windows-x64/wineprefix build/windows-x64/tests/unit_tests.exe >"$log" 2>&1
    cat "$log"; add_totals "$log" "backend d3d12"
    echo "=== backend d3d12: pipeline fault walks (windows-x64, wine)"
    EMGPU_TEST_BACKEND=d3d12 sh boards/windows-x64/wine_run.sh \
        build/windows-x64/wineprefix build/windows-x64/tests/unit_tests.exe d3d12.fault_pipeline_cycle >"$log" 2>&1
    cat "$log"; add_totals "$log" "backend d3d12 fault walks"
    ;;
esac
# Static checks, each counted as one test: the runtime references no heap functions, and the
# generated format table matches its CSV.
static_check() {
    name=$1; shift
    echo "=== static check: $name"
    if "$@"; then total_p=$((total_p + 1)); else echo "FAIL static check: $name"; total_f=$((total_f + 1)); fi
}
static_check no-heap sh tools/check_no_heap.sh "$@"
static_check format-table sh tools/gen_format_table.sh --check
rm -f "$log"
echo "$total_p passed, $total_f failed, $total_s skipped"
[ "$total_f" -eq 0 ]
