#version 450
// Pipeline-interface tests (iface): one storage buffer (minimum binding size 4: one float), for
// the layout "auto" exclusivity rule and the auto-layout pool tests.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { float v[]; } o;

void main()
{
    o.v[0] = 1.0;
}
