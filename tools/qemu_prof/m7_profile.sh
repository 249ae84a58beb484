#!/bin/sh
# Instruction-exact profile of a Cortex-M7 program under qemu-system-arm (tbprof.c plugin):
#   sh tools/qemu_prof/m7_profile.sh ELF [QEMU -append ARG] [N]
# e.g. the UI scene of the M7 bench (make bench-m7 builds the ELF):
#   sh tools/qemu_prof/m7_profile.sh build/host/bench/m7/bench/bench_m7.elf 2
# Prints the program's output, then its N (40) costliest functions by self instructions. Then
#   python3 tools/qemu_prof/tbprof_sym.py ELF build/qemu_prof/profile.txt --lines FUNCTION
# splits one function by source line.
set -e
elf=$1
arg=${2:-}
n=${3:-40}
dir=$(dirname "$0")
out=build/qemu_prof
mkdir -p "$out"
cc -O2 -shared -fPIC -o "$out/tbprof.so" "$dir/tbprof.c"
timeout 600 qemu-system-arm -M mps2-an500 -nographic -monitor none -icount shift=0 \
    -semihosting-config enable=on,target=native -kernel "$elf" ${arg:+-append "$arg"} \
    -plugin "$out/tbprof.so,out=$out/profile.txt"
python3 "$dir/tbprof_sym.py" "$elf" "$out/profile.txt" "$n"
