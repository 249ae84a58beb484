#version 450
// Soft VM test: divergent control flow (loops with break/continue, switch, calls, early return).
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer Out { ivec4 r[32]; } dst;

int collatz(int n)
{
    int steps = 0;
    while (n != 1) {
        if ((n & 1) == 0) n /= 2; else n = 3 * n + 1;
        steps++;
        if (steps > 100) break;
    }
    return steps;
}

int classify(int x)
{
    switch (x % 4) {
    case 0: return 10;
    case 1: return 20;
    case 2: case 3: return 30 + x;
    default: return -1;
    }
}

void main()
{
    uint g = gl_GlobalInvocationID.x;
    int v = int(g) + 1;
    int s = 0;
    for (int k = 0; k < v; k++) {
        if (k == 3) continue;
        if (k > 9) break;
        s += k;
    }
    dst.r[g] = ivec4(collatz(v), classify(v), s, (g & 1u) == 0u ? v * v : -v);
}
