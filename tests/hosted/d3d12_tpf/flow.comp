#version 450
// d3d12_tpf_check: control flow the DXBC emitter must structure (switch with fallthrough-free
// cases and default, break/continue, a break out of a loop from inside a switch, early returns
// from a called function inside a loop, do-while, nested loops).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { int v[]; } b;

int find(int x)
{
    for (int i = 0; i < 8; i++) {
        if (b.v[i] == x) return i;
        if (b.v[i] < 0) continue;
    }
    return -1;
}

void main()
{
    int acc = 0;
    uint id = gl_GlobalInvocationID.x;
    switch (int(id) & 3) {
    case 0: acc = 1; break;
    case 1: case 2: acc = find(int(id)); break;
    default: acc = 7; break;
    }
    int i = 0;
    do {
        acc += i;
        i++;
    } while (i < 4);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 3; x++) {
            if (x == y) continue;
            if (acc > 100) break;
            acc += x * y;
        }
    for (int k = 0; k < 10; k++) {
        switch (k) {
        case 3: acc += 3; break;
        case 5: continue;
        default: acc -= 1; break;
        }
        if (acc < -50) break;
    }
    int e;
    float m = frexp(float(acc) + 0.5, e);
    b.v[id] = acc / (int(id) - 2) + acc % 3 + e + int(m * 4.0);
}
