#!/usr/bin/env python3
"""Rewrites glslang's SPIR-V into the form the WebGPU execution environment requires.

Usage: tools/spv_reorder.py IN.spv OUT.spv   (OUT may equal IN)
       tools/spv_reorder.py --tree SRC_DIR DST_DIR   (every *.spv under SRC_DIR, same relative paths)

Two rules of the WebGPU SPIR-V execution environment (gpuweb/spirv-execution-env) that glslang
output breaks, fixed without changing what the shader computes:
  * "Functions: If function A calls function B, then B precedes A in the module." glslang emits
    main first; functions are re-emitted callees first (post-order of the call graph, original
    order otherwise). A recursive module is left as it is (the front end rejects it).
  * "Initializers: All variables in the Output, Private and Function storage classes must have an
    initializer." glslang emits none; each such variable gets an OpConstantNull of its pointee
    type (declared right after that type), which is what an uninitialized variable is allowed
    to hold anyway.
Run spirv-val on the result (tests/shaders/shaders.mk does).
"""
import os
import struct
import sys

OP_TYPE_FIRST, OP_TYPE_LAST = 19, 39      # OpTypeVoid .. OpTypeForwardPointer
OP_CONSTANT_NULL, OP_FUNCTION, OP_FUNCTION_END, OP_FUNCTION_CALL = 46, 54, 56, 57
OP_VARIABLE, OP_TYPE_POINTER = 59, 32
NEEDS_INIT = {3, 6, 7}                    # Output, Private, Function


def split(words):
    insts, i = [], 5
    while i < len(words):
        wc = words[i] >> 16
        if wc == 0 or i + wc > len(words):
            sys.exit("spv_reorder: malformed instruction at word %d" % i)
        insts.append(list(words[i:i + wc]))
        i += wc
    return insts


def add_initializers(header, insts):
    ptr_pointee = {ins[1]: ins[3] for ins in insts if ins[0] & 0xffff == OP_TYPE_POINTER}
    null_of = {}
    for ins in insts:
        if ins[0] & 0xffff == OP_VARIABLE and len(ins) == 4 and ins[3] in NEEDS_INIT:
            pointee = ptr_pointee[ins[1]]
            if pointee not in null_of:
                null_of[pointee] = header[3]
                header[3] += 1
            ins.append(null_of[pointee])
            ins[0] = (5 << 16) | OP_VARIABLE
    out = []
    for ins in insts:
        out.append(ins)
        op = ins[0] & 0xffff
        if OP_TYPE_FIRST <= op <= OP_TYPE_LAST and ins[1] in null_of:
            out.append([(3 << 16) | OP_CONSTANT_NULL, ins[1], null_of[ins[1]]])
    return out


def reorder_functions(insts):
    first = next((i for i, ins in enumerate(insts) if ins[0] & 0xffff == OP_FUNCTION), len(insts))
    funcs, cur = [], None
    for ins in insts[first:]:
        if ins[0] & 0xffff == OP_FUNCTION:
            cur = [ins]
            funcs.append(cur)
        else:
            cur.append(ins)
    index = {f[0][2]: n for n, f in enumerate(funcs)}
    calls = [[index[ins[3]] for ins in f if ins[0] & 0xffff == OP_FUNCTION_CALL and ins[3] in index]
             for f in funcs]
    state, order = [0] * len(funcs), []   # 0 new, 1 on the stack, 2 emitted
    for root in range(len(funcs)):
        if state[root]:
            continue
        stack = [(root, 0)]
        state[root] = 1
        while stack:
            f, k = stack.pop()
            if k < len(calls[f]):
                stack.append((f, k + 1))
                g = calls[f][k]
                if state[g] == 1:
                    return insts              # recursion: leave it to the validator to report
                if state[g] == 0:
                    state[g] = 1
                    stack.append((g, 0))
            else:
                state[f] = 2
                order.append(f)
    return insts[:first] + [ins for f in order for ins in funcs[f]]


def rewrite(src, dst):
    data = open(src, "rb").read()
    words = list(struct.unpack("<%dI" % (len(data) // 4), data))
    if len(words) < 5 or words[0] != 0x07230203:
        sys.exit("spv_reorder: %s is not little-endian SPIR-V" % src)
    header = words[:5]
    insts = reorder_functions(add_initializers(header, split(words)))
    out = header + [w for ins in insts for w in ins]
    open(dst, "wb").write(struct.pack("<%dI" % len(out), *out))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--tree":
        for root, _, files in os.walk(sys.argv[2]):
            for name in files:
                if name.endswith(".spv"):
                    rel = os.path.relpath(os.path.join(root, name), sys.argv[2])
                    os.makedirs(os.path.dirname(os.path.join(sys.argv[3], rel)), exist_ok=True)
                    rewrite(os.path.join(root, name), os.path.join(sys.argv[3], rel))
    elif len(sys.argv) == 3:
        rewrite(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
