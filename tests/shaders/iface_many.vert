#version 450
// Pipeline-interface tests (iface): 16 vec4 outputs, locations 0-15: exactly
// maxInterStageShaderVariables (16), one too many for point-list (which reserves one).
layout(location = 0) in vec4 a_pos;
layout(location = 0) out vec4 v0;
layout(location = 1) out vec4 v1;
layout(location = 2) out vec4 v2;
layout(location = 3) out vec4 v3;
layout(location = 4) out vec4 v4;
layout(location = 5) out vec4 v5;
layout(location = 6) out vec4 v6;
layout(location = 7) out vec4 v7;
layout(location = 8) out vec4 v8;
layout(location = 9) out vec4 v9;
layout(location = 10) out vec4 v10;
layout(location = 11) out vec4 v11;
layout(location = 12) out vec4 v12;
layout(location = 13) out vec4 v13;
layout(location = 14) out vec4 v14;
layout(location = 15) out vec4 v15;

void main()
{
    v0 = a_pos * 0.0;
    v1 = a_pos * 1.0;
    v2 = a_pos * 2.0;
    v3 = a_pos * 3.0;
    v4 = a_pos * 4.0;
    v5 = a_pos * 5.0;
    v6 = a_pos * 6.0;
    v7 = a_pos * 7.0;
    v8 = a_pos * 8.0;
    v9 = a_pos * 9.0;
    v10 = a_pos * 10.0;
    v11 = a_pos * 11.0;
    v12 = a_pos * 12.0;
    v13 = a_pos * 13.0;
    v14 = a_pos * 14.0;
    v15 = a_pos * 15.0;
    gl_Position = a_pos;
}
