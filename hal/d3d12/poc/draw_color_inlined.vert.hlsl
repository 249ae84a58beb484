
static float4 gl_Position = 0.0f.xxxx;
static float gl_PointSize = 0.0f;
static float4 v_color = 0.0f.xxxx;
static float4 a_color;
static float4 a_pos;

struct SPIRV_Cross_Input
{
    float4 a_pos : TEXCOORD0;
    float4 a_color : TEXCOORD1;
};

struct SPIRV_Cross_Output
{
    float4 v_color : TEXCOORD0;
    float4 gl_Position : SV_Position;
};


SPIRV_Cross_Output main(SPIRV_Cross_Input stage_input)
{
    a_color = stage_input.a_color;
    a_pos = stage_input.a_pos;
    {
    v_color = a_color;
    gl_Position = a_pos;
    }
    SPIRV_Cross_Output stage_output;
    stage_output.gl_Position = gl_Position;
    stage_output.v_color = v_color;
    return stage_output;
}
