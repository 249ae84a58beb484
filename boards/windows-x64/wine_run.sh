#!/bin/sh
# Runs one Windows test program under wine inside Xvfb (D3D12/DXGI report DXGI_ERROR_UNSUPPORTED
# without an X display). Usage: wine_run.sh PREFIX_DIR PROG.exe [ARGS...]; exit status = the
# program's. The prefix is made once per build directory (wineboot -i, about 20 s) and reused.
set -u
prefix=$1; shift
# wine wants an absolute WINEPREFIX; a relative one (make test from the repository root) is made so.
case $prefix in /*) ;; *) prefix=$PWD/$prefix ;; esac
export WINEPREFIX="$prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
if [ ! -f "$prefix/system.reg" ]; then
    mkdir -p "$prefix"
    wine wineboot -i >/dev/null 2>&1
    wineserver -w
fi
# wineserver -k before Xvfb goes: wine's helper processes would otherwise print "X connection
# broken" when xvfb-run stops the server under them.
exec xvfb-run -a sh -c 'wine "$@"; rc=$?; wineserver -k; exit $rc' sh "$@"
