#version 450
// robust_test: one fragment writes arrayLength of a dynamic-offset storage binding into its
// word 0, stores past the binding's end (word n + 3) and copies a load from past it (word
// n + 8) into word 1 (WebGPU robust buffer access; the draw paths' dynamic bindings).
layout(set = 0, binding = 0) buffer Data { uint v[]; } d;
layout(location = 0) out vec4 c;

void main()
{
    uint n = uint(d.v.length());
    d.v[0] = n;
    d.v[n + 3u] = 0xDEADu;
    d.v[1] = d.v[n + 8u];
    c = vec4(1.0);
}
