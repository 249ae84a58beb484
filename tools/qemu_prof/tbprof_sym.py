#!/usr/bin/env python3
"""Folds tbprof.c's "pc instructions" lines into functions (arm-none-eabi-nm symbols of the ELF).

usage: tbprof_sym.py ELF PROFILE [N]        the N (40) costliest functions, self instructions
       tbprof_sym.py ELF PROFILE --lines FN  FN's instructions by source line (addr2line)
"""
import bisect
import collections
import subprocess
import sys


def symbols(elf):
    out = subprocess.run(["arm-none-eabi-nm", "-n", "--defined-only", elf], capture_output=True, text=True, check=True)
    syms = []
    for line in out.stdout.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "tTwW":
            syms.append((int(p[0], 16) & ~1, p[2]))
    syms.sort()
    return syms


def main():
    elf, prof = sys.argv[1], sys.argv[2]
    syms = symbols(elf)
    addrs = [a for a, _ in syms]
    per_pc = collections.Counter()
    for line in open(prof):
        pc, n = line.split()
        per_pc[int(pc, 16)] += int(n)
    total = sum(per_pc.values())

    def owner(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        return i

    if len(sys.argv) > 4 and sys.argv[3] == "--lines":
        fn = sys.argv[4]
        pcs = [pc for pc in per_pc if owner(pc) >= 0 and syms[owner(pc)][1] == fn]
        out = subprocess.run(["arm-none-eabi-addr2line", "-e", elf] + ["%x" % p for p in pcs],
                             capture_output=True, text=True, check=True).stdout.splitlines()
        out = [o.split(" (discriminator")[0] for o in out]
        by_line = collections.Counter()
        for pc, src in zip(pcs, out):
            by_line[src.split("/")[-1]] += per_pc[pc]
        fn_total = sum(by_line.values())
        print("%s: %d instructions (%.2f%% of %d)" % (fn, fn_total, 100.0 * fn_total / max(total, 1), total))
        for src, n in by_line.most_common(40):
            print("%6.2f%% %12d %s" % (100.0 * n / max(fn_total, 1), n, src))
        return
    per_fn = collections.Counter()
    for pc, n in per_pc.items():
        i = owner(pc)
        per_fn["%s@%x" % (syms[i][1], syms[i][0]) if i >= 0 else "?"] += n
    print("total %d guest instructions" % total)
    for name, n in per_fn.most_common(int(sys.argv[3]) if len(sys.argv) > 3 else 40):
        print("%6.2f%% %12d %s" % (100.0 * n / max(total, 1), n, name))


if __name__ == "__main__":
    main()
