/* hal/d3d12 shaders: validated SPIR-V -> HLSL (SPIRV-Cross C API) -> DXBC (D3DCompile), at pipeline creation.
 *
 * Both libraries are loaded at run time through the port: SPIRV-Cross's C API as
 * spirv-cross-c-shared.dll (no Windows build ships with the OS; boards/windows-x64/spirv_cross_dll.sh
 * builds one from Debian's source with mingw, next to the test programs) and d3dcompiler_47.dll.
 * HLSL is shader model 5.1 so that WebGPU's group index becomes the register space and its
 * binding the register number (SPIRV-Cross's default mapping for 5.1), which the root signature
 * of the pipeline layout follows. gl_PointSize, which glslang declares in every vertex shader, is
 * dropped (HLSL has none; WebGPU points are one pixel). A failure is reported as the one error of
 * the pipeline creation, with the compiler's own message.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "kernel/api/error_codes.h"
#include "port/port.h"

#include <d3dcompiler.h>
#include <spirv_cross/spirv_cross_c.h>

#define SPVC_DLL "spirv-cross-c-shared.dll"

#define SPVC_FUNCS(X)                                                                                  \
    X(spvc_result, spvc_context_create, (spvc_context *))                                              \
    X(void, spvc_context_destroy, (spvc_context))                                                      \
    X(const char *, spvc_context_get_last_error_string, (spvc_context))                                \
    X(spvc_result, spvc_context_parse_spirv, (spvc_context, const SpvId *, size_t, spvc_parsed_ir *))  \
    X(spvc_result, spvc_context_create_compiler,                                                       \
      (spvc_context, spvc_backend, spvc_parsed_ir, spvc_capture_mode, spvc_compiler *))                \
    X(spvc_result, spvc_compiler_create_compiler_options, (spvc_compiler, spvc_compiler_options *))    \
    X(spvc_result, spvc_compiler_options_set_uint, (spvc_compiler_options, spvc_compiler_option, unsigned)) \
    X(spvc_result, spvc_compiler_options_set_bool, (spvc_compiler_options, spvc_compiler_option, spvc_bool)) \
    X(spvc_result, spvc_compiler_install_compiler_options, (spvc_compiler, spvc_compiler_options))     \
    X(spvc_result, spvc_compiler_set_entry_point, (spvc_compiler, const char *, SpvExecutionModel))    \
    X(const char *, spvc_compiler_get_cleansed_entry_point_name, (spvc_compiler, const char *, SpvExecutionModel)) \
    X(spvc_result, spvc_compiler_compile, (spvc_compiler, const char **))

typedef HRESULT (WINAPI *eg_pfn_d3dcompile)(LPCVOID, SIZE_T, LPCSTR, const D3D_SHADER_MACRO *, ID3DInclude *,
                                             LPCSTR, LPCSTR, UINT, UINT, ID3DBlob **, ID3DBlob **);

static struct {
#define SPVC_MEMBER(ret, name, args) ret (*name) args;
    SPVC_FUNCS(SPVC_MEMBER)
#undef SPVC_MEMBER
    eg_pfn_d3dcompile D3DCompile;
    bool tried;
    const char *why;          /* why loading failed, NULL when loaded */
} sx;

static bool load_libs(void)
{
    if (sx.tried) return sx.why == NULL;
    sx.tried = true;
    void *lib = eg_port_lib_open(SPVC_DLL);
    if (!lib) {
        sx.why = SPVC_DLL " not found next to the program (build it: boards/windows-x64/spirv_cross_dll.sh)";
        return false;
    }
    void *p;
#define SPVC_LOAD(ret, name, args)                                                  \
    if (!(p = eg_port_lib_symbol(lib, #name))) { sx.why = SPVC_DLL " lacks " #name; return false; } \
    eg_memcpy(&sx.name, &p, sizeof p);
    SPVC_FUNCS(SPVC_LOAD)
#undef SPVC_LOAD
    void *dc = eg_port_lib_open("d3dcompiler_47.dll");
    if (!dc || !(p = eg_port_lib_symbol(dc, "D3DCompile"))) {
        sx.why = "d3dcompiler_47.dll (D3DCompile) not found";
        return false;
    }
    eg_memcpy(&sx.D3DCompile, &p, sizeof p);
    return true;
}

static const char *entry_name(const eg_stage_t *st, eg_shader_stage_t stage)
{
    if (st->entry_point[0]) return st->entry_point;
    const eg_shader_entry_t *e = eg_spirv_find_entry(&st->module->spirv, stage, "");
    return e ? e->name : "main";
}

/* HLSL text of one entry point into *hlsl (owned by ctx); false with the error reported. */
static bool to_hlsl(spvc_context ctx, const eg_stage_t *st, SpvExecutionModel model, const char *name,
                    const char **hlsl, const char **hlsl_entry)
{
    spvc_parsed_ir ir = NULL;
    spvc_compiler comp = NULL;
    spvc_compiler_options opt = NULL;
    bool ok = sx.spvc_context_parse_spirv(ctx, st->module->code, st->module->word_count, &ir) == SPVC_SUCCESS &&
              sx.spvc_context_create_compiler(ctx, SPVC_BACKEND_HLSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                              &comp) == SPVC_SUCCESS &&
              sx.spvc_compiler_create_compiler_options(comp, &opt) == SPVC_SUCCESS &&
              sx.spvc_compiler_options_set_uint(opt, SPVC_COMPILER_OPTION_HLSL_SHADER_MODEL, 51) == SPVC_SUCCESS &&
              sx.spvc_compiler_options_set_bool(opt, SPVC_COMPILER_OPTION_HLSL_POINT_SIZE_COMPAT, SPVC_TRUE) ==
                  SPVC_SUCCESS &&
              sx.spvc_compiler_install_compiler_options(comp, opt) == SPVC_SUCCESS &&
              sx.spvc_compiler_set_entry_point(comp, name, model) == SPVC_SUCCESS &&
              sx.spvc_compiler_compile(comp, hlsl) == SPVC_SUCCESS;
    if (!ok) {
        eg_hal_error_detail(WGPUErrorType_Internal, EG_E_D3D12_SHADER_TRANSLATION,
                            "d3d12: SPIRV-Cross could not write HLSL for entry point \"%s\": %s", name,
                            sx.spvc_context_get_last_error_string(ctx));
        return false;
    }
    *hlsl_entry = sx.spvc_compiler_get_cleansed_entry_point_name(comp, name, model);
    return true;
}

eg_status_t eg_d3d_shader_compile(const eg_stage_t *st, eg_shader_stage_t stage, ID3DBlob **out)
{
    static const char *const targets[3] = { "vs_5_1", "ps_5_1", "cs_5_1" };
    static const SpvExecutionModel models[3] = { SpvExecutionModelVertex, SpvExecutionModelFragment,
                                                 SpvExecutionModelGLCompute };
    *out = NULL;
    const char *name = entry_name(st, stage);
    if (!load_libs()) {
        eg_hal_error_detail(WGPUErrorType_Internal, EG_E_D3D12_SHADER_TRANSLATION, "d3d12: entry point \"%s\": %s",
                            name, sx.why);
        return EG_STATUS_INTERNAL;
    }
    spvc_context ctx = NULL;
    if (sx.spvc_context_create(&ctx) != SPVC_SUCCESS) return EG_STATUS_OUT_OF_MEMORY;
    const char *hlsl = NULL, *hlsl_entry = NULL;
    eg_status_t st_out = EG_STATUS_INTERNAL;
    if (to_hlsl(ctx, st, models[stage], name, &hlsl, &hlsl_entry)) {
        ID3DBlob *err = NULL;
        HRESULT hr = EG_D3D_CALL("D3DCompile", sx.D3DCompile(hlsl, eg_strlen(hlsl), name, NULL, NULL, hlsl_entry,
                                                             targets[stage], D3DCOMPILE_OPTIMIZATION_LEVEL1, 0, out,
                                                             &err));
        if (SUCCEEDED(hr) && *out) {
            st_out = EG_STATUS_OK;
        } else {
            const char *msg = err ? (const char *)ID3D10Blob_GetBufferPointer(err) : "(no message)";
            eg_hal_error_detail(WGPUErrorType_Internal, EG_E_D3D12_SHADER_TRANSLATION,
                                "d3d12: D3DCompile (%s) rejected the HLSL of entry point \"%s\" (HRESULT 0x%08x): %.160s",
                                targets[stage], name, (unsigned)hr, msg);
            if (*out) ID3D10Blob_Release(*out);
            *out = NULL;
        }
        if (err) ID3D10Blob_Release(err);
    }
    sx.spvc_context_destroy(ctx);
    return st_out;
}

#endif /* EMGPU_HAL_D3D12 */
