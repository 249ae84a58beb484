#version 450
// Soft VM test: atomics other than add, on a buffer and on workgroup memory (final values are
// independent of invocation order; tests/unit/soft_vm_test.c recomputes them in C).
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer Buf {
    int smin; int smax; uint umin; uint umax; uint band; uint bor; uint bxor; uint wg_or;
    uint xchg[16]; uint xchg_old[16]; uint cas[16]; uint cas_old[16]; int v[16];
} b;
shared uint s_or;

void main()
{
    uint g = gl_LocalInvocationIndex;
    int v = b.v[g];
    if (g == 0u) s_or = 0u;
    barrier();
    atomicMin(b.smin, v);
    atomicMax(b.smax, v);
    atomicMin(b.umin, uint(v));
    atomicMax(b.umax, uint(v));
    atomicAnd(b.band, ~(1u << g));
    atomicOr(b.bor, 1u << (g * 2u % 32u));
    atomicXor(b.bxor, uint(v));
    atomicOr(s_or, 1u << (31u - g));
    b.xchg_old[g] = atomicExchange(b.xchg[g], 1000u + g);
    b.cas_old[g] = atomicCompSwap(b.cas[g], g, 500u + g);
    barrier();
    if (g == 0u) b.wg_or = s_or;
}
