#version 450
// resource_limits_test: calls nested 20 deep (f1 -> f2 -> ... -> f20); the soft VM inlined at
// most 16 nested calls before session 6.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer O { uint v[]; } o;
uint f20(uint x) { return x + 20u; }
uint f19(uint x) { return f20(x) + 19u; }
uint f18(uint x) { return f19(x) + 18u; }
uint f17(uint x) { return f18(x) + 17u; }
uint f16(uint x) { return f17(x) + 16u; }
uint f15(uint x) { return f16(x) + 15u; }
uint f14(uint x) { return f15(x) + 14u; }
uint f13(uint x) { return f14(x) + 13u; }
uint f12(uint x) { return f13(x) + 12u; }
uint f11(uint x) { return f12(x) + 11u; }
uint f10(uint x) { return f11(x) + 10u; }
uint f9(uint x) { return f10(x) + 9u; }
uint f8(uint x) { return f9(x) + 8u; }
uint f7(uint x) { return f8(x) + 7u; }
uint f6(uint x) { return f7(x) + 6u; }
uint f5(uint x) { return f6(x) + 5u; }
uint f4(uint x) { return f5(x) + 4u; }
uint f3(uint x) { return f4(x) + 3u; }
uint f2(uint x) { return f3(x) + 2u; }
uint f1(uint x) { return f2(x) + 1u; }

void main()
{
    o.v[0] = f1(o.v[2]);
}
