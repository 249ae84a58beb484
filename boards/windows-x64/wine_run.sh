#!/bin/sh
# Runs one Windows test program under wine inside Xvfb (D3D12/DXGI report DXGI_ERROR_UNSUPPORTED
# without an X display). Usage: wine_run.sh PREFIX_DIR PROG.exe [ARGS...]; exit status = the
# program's. The prefix is made once per build directory (wineboot -i, about 20 s) and reused.
set -u
prefix=$1; shift
# wine wants an absolute WINEPREFIX; a relative one (make test from the repository root) is made so.
case $prefix in /*) ;; *) prefix=$PWD/$prefix ;; esac
# winedbg.exe disabled: a crashing test program would otherwise start wine's debugger, which
# waits for input forever and hangs make test (seen in session 11); now the program exits (5).
export WINEPREFIX="$prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe=d"
if [ ! -f "$prefix/system.reg" ]; then
    mkdir -p "$prefix"
    wine wineboot -i >/dev/null 2>&1
    wineserver -w
fi
# The D3D12 tests need a lavapipe with VK_EXT_descriptor_indexing (boards/windows-x64/lavapipe.sh
# says why); it is fetched next to the prefix and given to wine's Vulkan loader, nothing else.
lvp=$(dirname "$prefix")/lavapipe
if [ "${EMGPU_WINE_SYSTEM_VULKAN:-0}" != 1 ]; then
    sh "$(dirname "$0")/lavapipe.sh" "$lvp" || exit 1
    export VK_DRIVER_FILES="$lvp/lvp.json" LD_LIBRARY_PATH="$lvp/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
# wineserver -k before Xvfb goes: wine's helper processes would otherwise print "X connection
# broken" when xvfb-run stops the server under them.
exec xvfb-run -a sh -c 'wine "$@"; rc=$?; wineserver -k; exit $rc' sh "$@"
