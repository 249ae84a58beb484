/* hal/gles shaders: SPIR-V -> GLSL ES 3.00/3.10 with SPIRV-Cross (C API, loaded at run time).
 *
 * The GLES binding model has flat binding points per kind instead of (group, binding) pairs,
 * and no separate samplers. Each stage is rewritten before translation:
 *  - uniform buffers, storage buffers and storage images get the flat index their
 *    (group, binding) has in the program's binding table (gl_program.c) as their Binding, and a
 *    name derived from it ("eg_ub3"), so GLES 3.00 (no layout(binding)) can bind them by name;
 *  - every (texture, sampler) pair the stage uses becomes one combined sampler on a texture
 *    unit shared by all stages of the program (eg_gl_unit_t); a texture read without a sampler
 *    (texelFetch) pairs with SPIRV-Cross's dummy sampler and binds no sampler object;
 *  - inter-stage variables are renamed after their Location ("eg_io1"), because GLSL ES 3.00
 *    links varyings by name;
 *  - vertex stages flip Y and remap clip z from WebGPU's [0, w] to GL's [-w, w].
 * SPIRV-Cross allocates internally (its business); every context is destroyed after use.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#include <spirv_cross/spirv_cross_c.h>

#include "hal/gles/gl_internal.h"
#include "kernel/api/shader_module.h"
#include "kernel/shader/spirv_polyfill.h"
#include "kernel/shader/spirv_robust.h"
#include "kernel/base/fmt.h"
#include "kernel/base/log.h"
#include "port/port.h"

#define SPVC_FUNCS(X)                                                                          \
    X(spvc_result, spvc_context_create, (spvc_context *))                                      \
    X(void, spvc_context_destroy, (spvc_context))                                              \
    X(const char *, spvc_context_get_last_error_string, (spvc_context))                        \
    X(spvc_result, spvc_context_parse_spirv, (spvc_context, const SpvId *, size_t, spvc_parsed_ir *)) \
    X(spvc_result, spvc_context_create_compiler,                                               \
      (spvc_context, spvc_backend, spvc_parsed_ir, spvc_capture_mode, spvc_compiler *))        \
    X(spvc_result, spvc_compiler_create_compiler_options, (spvc_compiler, spvc_compiler_options *)) \
    X(spvc_result, spvc_compiler_options_set_uint, (spvc_compiler_options, spvc_compiler_option, unsigned)) \
    X(spvc_result, spvc_compiler_options_set_bool, (spvc_compiler_options, spvc_compiler_option, spvc_bool)) \
    X(spvc_result, spvc_compiler_install_compiler_options, (spvc_compiler, spvc_compiler_options)) \
    X(spvc_result, spvc_compiler_compile, (spvc_compiler, const char **))                      \
    X(spvc_result, spvc_compiler_create_shader_resources, (spvc_compiler, spvc_resources *))   \
    X(spvc_result, spvc_resources_get_resource_list_for_type,                                  \
      (spvc_resources, spvc_resource_type, const spvc_reflected_resource **, size_t *))        \
    X(void, spvc_compiler_set_decoration, (spvc_compiler, SpvId, SpvDecoration, unsigned))     \
    X(unsigned, spvc_compiler_get_decoration, (spvc_compiler, SpvId, SpvDecoration))           \
    X(void, spvc_compiler_set_name, (spvc_compiler, SpvId, const char *))                      \
    X(spvc_result, spvc_compiler_require_extension, (spvc_compiler, const char *))             \
    X(spvc_result, spvc_compiler_set_entry_point, (spvc_compiler, const char *, SpvExecutionModel)) \
    X(spvc_result, spvc_compiler_build_dummy_sampler_for_combined_images, (spvc_compiler, spvc_variable_id *)) \
    X(spvc_result, spvc_compiler_build_combined_image_samplers, (spvc_compiler))               \
    X(spvc_result, spvc_compiler_get_combined_image_samplers,                                  \
      (spvc_compiler, const spvc_combined_image_sampler **, size_t *))                         \
    X(spvc_result, spvc_compiler_get_active_interface_variables, (spvc_compiler, spvc_set *))  \
    X(spvc_result, spvc_compiler_set_enabled_interface_variables, (spvc_compiler, spvc_set))   \
    X(spvc_result, spvc_compiler_create_shader_resources_for_active_variables,                 \
      (spvc_compiler, spvc_resources *, spvc_set))

static struct {
#define SPVC_MEMBER(ret, name, args) ret (*name) args;
    SPVC_FUNCS(SPVC_MEMBER)
#undef SPVC_MEMBER
} sx;

static bool sx_tried, sx_ok;

/* The reason the last translation failed, for the pipeline's error message (gl_program.c). */
static char g_error[224];

const char *eg_gl_shader_last_error(void) { return g_error; }

static void shader_error(const char *fmt, ...) EG_PRINTF(1, 2);
static void shader_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    eg_vfmt(g_error, sizeof g_error, fmt, ap);
    va_end(ap);
    eg_log(EG_LOG_ERROR, "gles: %s", g_error);
}
static const char *sx_why;

#define SPVC_LIB "libspirv-cross-c-shared.so.0"

bool eg_gl_shader_library_load(const char **why)
{
    if (sx_tried) { *why = sx_why; return sx_ok; }
    sx_tried = true;
    void *lib = eg_port_lib_open(SPVC_LIB);
    if (!lib) {
        *why = sx_why = SPVC_LIB " not found (install libspirv-cross-c-shared0): GLES needs it to "
                        "translate SPIR-V to GLSL ES";
        return false;
    }
#define SPVC_LOAD(ret, name, args)                                                   \
    { void *p = eg_port_lib_symbol(lib, #name); eg_memcpy(&sx.name, &p, sizeof p);   \
      if (!p) { *why = sx_why = SPVC_LIB " lacks " #name; return false; } }
    SPVC_FUNCS(SPVC_LOAD)
#undef SPVC_LOAD
    sx_ok = true;
    return true;
}

/* Flat index of (group, binding) of `kind` in the program's table; -1 when absent. */
static int flat_index(const eg_gl_program_t *p, uint32_t group, uint32_t binding, uint32_t kind)
{
    for (uint32_t i = 0; i < p->binding_count; i++) {
        const eg_gl_binding_t *b = &p->bindings[i];
        if (b->group == group && b->binding == binding && b->kind == kind) return b->flat;
    }
    return -1;
}

static int unit_for(eg_gl_program_t *p, uint32_t tg, uint32_t tb, uint32_t sg, uint32_t sb)
{
    for (uint32_t i = 0; i < p->unit_count; i++) {
        const eg_gl_unit_t *u = &p->units[i];
        if (u->tex_group == tg && u->tex_binding == tb && u->smp_group == sg && u->smp_binding == sb)
            return (int)i;
    }
    if (p->unit_count >= EG_GL_MAX_UNITS) return -1;
    eg_gl_unit_t *u = &p->units[p->unit_count];
    u->tex_group = (uint8_t)tg; u->tex_binding = (uint16_t)tb;
    u->smp_group = (uint8_t)sg; u->smp_binding = (uint16_t)sb;
    return (int)p->unit_count++;
}

static void set_name(spvc_compiler c, SpvId id, const char *prefix, uint32_t n)
{
    char name[24];
    eg_fmt(name, sizeof name, "%s%u", prefix, (unsigned)n);
    sx.spvc_compiler_set_name(c, id, name);
}

/* Rebinds one resource list to flat indices; false when a binding is not in the table. */
static bool remap_list(spvc_compiler c, spvc_resources res, spvc_resource_type type, uint32_t kind,
                       const eg_gl_program_t *p, const char *prefix)
{
    const spvc_reflected_resource *list = NULL;
    size_t n = 0;
    sx.spvc_resources_get_resource_list_for_type(res, type, &list, &n);
    for (size_t i = 0; i < n; i++) {
        uint32_t g = sx.spvc_compiler_get_decoration(c, list[i].id, SpvDecorationDescriptorSet);
        uint32_t b = sx.spvc_compiler_get_decoration(c, list[i].id, SpvDecorationBinding);
        int flat = flat_index(p, g, b, kind);
        if (flat < 0) {
            shader_error("shader binding (group %u, binding %u) is not in the pipeline layout", (unsigned)g,
                         (unsigned)b);
            return false;
        }
        sx.spvc_compiler_set_decoration(c, list[i].id, SpvDecorationBinding, (unsigned)flat);
        sx.spvc_compiler_set_decoration(c, list[i].id, SpvDecorationDescriptorSet, 0);
        set_name(c, list[i].id, prefix, (uint32_t)flat);
        if (kind != EG_GL_BIND_IMAGE) {   /* block names are what GLES 3.00 binds by */
            char block[24];
            eg_fmt(block, sizeof block, "%sB%u", prefix, (unsigned)flat);
            sx.spvc_compiler_set_name(c, list[i].base_type_id, block);
        }
    }
    return true;
}

static bool combine_samplers(spvc_compiler c, eg_gl_program_t *p, spvc_variable_id dummy)
{
    const spvc_combined_image_sampler *cs = NULL;
    size_t n = 0;
    sx.spvc_compiler_get_combined_image_samplers(c, &cs, &n);
    for (size_t i = 0; i < n; i++) {
        uint32_t tg = sx.spvc_compiler_get_decoration(c, cs[i].image_id, SpvDecorationDescriptorSet);
        uint32_t tb = sx.spvc_compiler_get_decoration(c, cs[i].image_id, SpvDecorationBinding);
        uint32_t sg = 0xFFu, sb = 0xFFFFu;
        if (cs[i].sampler_id != dummy || dummy == 0) {
            sg = sx.spvc_compiler_get_decoration(c, cs[i].sampler_id, SpvDecorationDescriptorSet);
            sb = sx.spvc_compiler_get_decoration(c, cs[i].sampler_id, SpvDecorationBinding);
        }
        int u = unit_for(p, tg, tb, sg, sb);
        if (u < 0) {
            shader_error("the program uses more than %u texture-sampler pairs (GL texture units)",
                         (unsigned)EG_GL_MAX_UNITS);
            return false;
        }
        sx.spvc_compiler_set_decoration(c, cs[i].combined_id, SpvDecorationBinding, (unsigned)u);
        set_name(c, cs[i].combined_id, "eg_ts", (uint32_t)u);
    }
    return true;
}

static void rename_io(spvc_compiler c, spvc_resources res, spvc_resource_type type)
{
    const spvc_reflected_resource *list = NULL;
    size_t n = 0;
    sx.spvc_resources_get_resource_list_for_type(res, type, &list, &n);
    for (size_t i = 0; i < n; i++)
        set_name(c, list[i].id, "eg_io", sx.spvc_compiler_get_decoration(c, list[i].id, SpvDecorationLocation));
}

static bool has_flat_input(spvc_compiler c, spvc_resources res)
{
    const spvc_reflected_resource *list = NULL;
    size_t n = 0;
    sx.spvc_resources_get_resource_list_for_type(res, SPVC_RESOURCE_TYPE_STAGE_INPUT, &list, &n);
    for (size_t i = 0; i < n; i++)
        if (sx.spvc_compiler_get_decoration(c, list[i].id, SpvDecorationFlat)) return true;
    return false;
}

/* `sample` interpolation (SPIR-V Sample on a stage input or output; WGSL @interpolate(_, sample))
 * is GLSL ES 3.20 or OES_shader_multisample_interpolation; SPIRV-Cross writes the qualifier for
 * #version 310 es without the #extension line, which drivers then reject. */
static bool has_sample_io(spvc_compiler c, spvc_resources res, spvc_resource_type type)
{
    const spvc_reflected_resource *list = NULL;
    size_t n = 0;
    sx.spvc_resources_get_resource_list_for_type(res, type, &list, &n);
    for (size_t i = 0; i < n; i++)
        if (sx.spvc_compiler_get_decoration(c, list[i].id, SpvDecorationSample)) return true;
    return false;
}

static void set_options(spvc_compiler c, eg_hal_device_t *dev, eg_shader_stage_t stage)
{
    spvc_compiler_options o = NULL;
    sx.spvc_compiler_create_compiler_options(c, &o);
    sx.spvc_compiler_options_set_uint(o, SPVC_COMPILER_OPTION_GLSL_VERSION, dev->es31 ? 310u : 300u);
    sx.spvc_compiler_options_set_bool(o, SPVC_COMPILER_OPTION_GLSL_ES, SPVC_TRUE);
    sx.spvc_compiler_options_set_bool(o, SPVC_COMPILER_OPTION_GLSL_VULKAN_SEMANTICS, SPVC_FALSE);
    sx.spvc_compiler_options_set_bool(o, SPVC_COMPILER_OPTION_GLSL_ES_DEFAULT_FLOAT_PRECISION_HIGHP, SPVC_TRUE);
    sx.spvc_compiler_options_set_bool(o, SPVC_COMPILER_OPTION_GLSL_ES_DEFAULT_INT_PRECISION_HIGHP, SPVC_TRUE);
    sx.spvc_compiler_options_set_bool(o, SPVC_COMPILER_OPTION_GLSL_SUPPORT_NONZERO_BASE_INSTANCE, SPVC_TRUE);
    bool vs = stage == EG_SHADER_STAGE_VERTEX;
    sx.spvc_compiler_options_set_bool(o, SPVC_COMPILER_OPTION_FLIP_VERTEX_Y, vs ? SPVC_TRUE : SPVC_FALSE);
    sx.spvc_compiler_options_set_bool(o, SPVC_COMPILER_OPTION_FIXUP_DEPTH_CONVENTION, vs ? SPVC_TRUE : SPVC_FALSE);
    sx.spvc_compiler_install_compiler_options(c, o);
}

/* Rewrites bindings and names as the file header says, then emits GLSL ES; NULL on failure. */
static const char *translate(spvc_compiler c, eg_hal_device_t *dev, eg_gl_program_t *p, eg_shader_stage_t stage)
{
    set_options(c, dev, stage);
    spvc_variable_id dummy = 0;
    sx.spvc_compiler_build_dummy_sampler_for_combined_images(c, &dummy);
    if (sx.spvc_compiler_build_combined_image_samplers(c) != SPVC_SUCCESS) return NULL;
    /* Only the resources the entry point statically uses: the layout (explicit or auto) need
     * not contain the others, and GLSL must not declare them (they would take binding points). */
    spvc_set active = NULL;
    if (sx.spvc_compiler_get_active_interface_variables(c, &active) != SPVC_SUCCESS ||
        sx.spvc_compiler_set_enabled_interface_variables(c, active) != SPVC_SUCCESS)
        return NULL;
    spvc_resources res = NULL;
    if (sx.spvc_compiler_create_shader_resources_for_active_variables(c, &res, active) != SPVC_SUCCESS)
        return NULL;
    if (!remap_list(c, res, SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, EG_GL_BIND_UBO, p, "eg_ub") ||
        !remap_list(c, res, SPVC_RESOURCE_TYPE_STORAGE_BUFFER, EG_GL_BIND_SSBO, p, "eg_sb") ||
        !remap_list(c, res, SPVC_RESOURCE_TYPE_STORAGE_IMAGE, EG_GL_BIND_IMAGE, p, "eg_img") ||
        !combine_samplers(c, p, dummy))
        return NULL;
    if (stage == EG_SHADER_STAGE_VERTEX) rename_io(c, res, SPVC_RESOURCE_TYPE_STAGE_OUTPUT);
    if (stage == EG_SHADER_STAGE_FRAGMENT) {
        rename_io(c, res, SPVC_RESOURCE_TYPE_STAGE_INPUT);
        p->flat_inputs = has_flat_input(c, res);
    }
    if (has_sample_io(c, res, stage == EG_SHADER_STAGE_VERTEX ? SPVC_RESOURCE_TYPE_STAGE_OUTPUT : SPVC_RESOURCE_TYPE_STAGE_INPUT))
        sx.spvc_compiler_require_extension(c, "GL_OES_shader_multisample_interpolation");
    const char *src = NULL;
    if (sx.spvc_compiler_compile(c, &src) != SPVC_SUCCESS) return NULL;
    return src;
}

/* SPIR-V from glslang declares the whole gl_PerVertex block, and zero-initialised outputs touch
 * every member, so SPIRV-Cross redeclares gl_ClipDistance/gl_CullDistance, which GLSL ES
 * rejects (reserved names, no such built-ins). WebGPU core has no clip distances (feature
 * not offered), so every line naming them is dead: drop those lines. */
static char g_src[EMGPU_GLES_SHADER_SOURCE_BYTES];

/* WebGPU points are 1 px (no point size), but GLES leaves gl_PointSize undefined unless the
 * vertex shader writes it, and glslang's zero-initialised gl_PerVertex writes 0 (NVIDIA then draws
 * nothing). So in vertex shaders every gl_PointSize line is dropped too and main() starts with
 * gl_PointSize = 1.0 (ignored for lines and triangles). */
static const char k_point_size[] = "    gl_PointSize = 1.0;\n";

/* quantizeToF16: SPIRV-Cross writes OpQuantizeToF16 as unpackHalf2x16(packHalf2x16(x)), and
 * NVIDIA's GLES compiler folds that pair to x (measured on an H100: 1.0001 came back
 * unquantized). An OR with a uniform that is never set (GLSL: uniforms start at 0) gives the
 * same value but cannot be folded. Added after the #version/#extension/precision lines of every
 * stage that unpacks halves; highp, so vertex and fragment declarations match. */
static const char k_f16_opaque[] =
    "uniform highp uint eg_f16_zero;\n"
    "highp vec2 eg_unpack_half(highp uint h) { return unpackHalf2x16(h | eg_f16_zero); }\n"
    "#define unpackHalf2x16(h) eg_unpack_half(h)\n";

static bool has_text(const char *src, const char *what, size_t n)
{
    for (const char *p = src; *p; p++)
        if (*p == what[0] && eg_memcmp(p, what, n) == 0) return true;
    return false;
}

static bool header_line(const char *line, size_t len)
{
    return len == 0 || line[0] == '\n' || line[0] == '#' || (len >= 10 && eg_memcmp(line, "precision ", 10) == 0);
}

static const char *drop_clip_cull(const char *src, bool vertex)
{
    size_t n = 0;
    bool in_main = false, f16 = has_text(src, "unpackHalf2x16(", 15);
    for (const char *line = src; *line;) {
        const char *end = line;
        while (*end && *end != '\n') end++;
        if (*end) end++;
        if (f16 && !header_line(line, (size_t)(end - line))) {
            if (n + sizeof k_f16_opaque > sizeof g_src) {
                shader_error("translated shader longer than EMGPU_GLES_SHADER_SOURCE_BYTES = %u", (unsigned)sizeof g_src);
                return NULL;
            }
            eg_memcpy(g_src + n, k_f16_opaque, sizeof k_f16_opaque - 1u);
            n += sizeof k_f16_opaque - 1u;
            f16 = false;
        }
        bool dead = false;
        for (const char *p = line; p + 15 <= end && !dead; p++)
            dead = eg_memcmp(p, "gl_ClipDistance", 15) == 0 || eg_memcmp(p, "gl_CullDistance", 15) == 0;
        for (const char *p = line; vertex && p + 12 <= end && !dead; p++)
            dead = eg_memcmp(p, "gl_PointSize", 12) == 0;
        size_t len = (size_t)(end - line);
        bool open_main = vertex && in_main && len >= 1 && line[0] == '{';
        in_main = vertex && len >= 11 && eg_memcmp(line, "void main()", 11) == 0;
        if (open_main) {
            size_t add = sizeof k_point_size - 1u;
            if (n + len + add + 1 > sizeof g_src) {
                shader_error("translated shader longer than EMGPU_GLES_SHADER_SOURCE_BYTES = %u",
                             (unsigned)sizeof g_src);
                return NULL;
            }
            eg_memcpy(g_src + n, line, len);
            n += len;
            eg_memcpy(g_src + n, k_point_size, add);
            n += add;
        } else if (!dead) {
            if (n + len + 1 > sizeof g_src) {
                shader_error("translated shader longer than EMGPU_GLES_SHADER_SOURCE_BYTES = %u",
                             (unsigned)sizeof g_src);
                return NULL;
            }
            eg_memcpy(g_src + n, line, len);
            n += len;
        }
        line = end;
    }
    g_src[n] = '\0';
    return g_src;
}

static GLuint compile_glsl(const char *src, eg_shader_stage_t stage)
{
    src = drop_clip_cull(src, stage == EG_SHADER_STAGE_VERTEX);
    if (!src) return 0;
    GLenum type = stage == EG_SHADER_STAGE_VERTEX ? GL_VERTEX_SHADER
                : stage == EG_SHADER_STAGE_FRAGMENT ? GL_FRAGMENT_SHADER : GL_COMPUTE_SHADER;
    GLuint sh = eg_gl.CreateShader(type);
    eg_gl.ShaderSource(sh, 1, &src, NULL);
    eg_gl.CompileShader(sh);
    GLint ok = 0;
    eg_gl.GetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512];
        eg_gl.GetShaderInfoLog(sh, (GLsizei)sizeof log, NULL, log);
        shader_error("the driver rejected the translated shader: %s", log);
        if (eg_gl_debug) eg_log(EG_LOG_ERROR, "gles: source:\n%s", src);
        eg_gl.DeleteShader(sh);
        return 0;
    }
    return sh;
}

/* Integer division and remainder: GLSL ES leaves `/` undefined for a zero divisor and `%` for
 * negative operands (llvmpipe returns garbage), WGSL defines both. The module goes through the
 * shared polyfill (kernel/shader/spirv_polyfill.c, the same rewrite the Vulkan backend uses), so
 * every backend gives WGSL's answers. The rewritten copy lives in a static scratch, with room
 * left for lower_query_levels (4 + 4 words per textureQueryLevels uniform). */
#define EG_GL_SMOD_WORDS (EMGPU_MAX_SPIRV_WORDS * 2u)
#define EG_GL_MAX_LEVEL_VARS 8u   /* textureQueryLevels uniforms per stage */
#define EG_GL_LEVEL_WORDS (4u + 4u * EG_GL_MAX_LEVEL_VARS)
static uint32_t g_words[EG_GL_SMOD_WORDS];

static bool is_int_div(uint32_t op)
{
    return op == SpvOpSDiv || op == SpvOpUDiv || op == SpvOpSRem || op == SpvOpSMod || op == SpvOpUMod;
}

static const uint32_t *lower_int_div(const uint32_t *code, uint32_t n, uint32_t *out_n, bool *copy)
{
    uint32_t divs = 0, levels = 0;
    for (uint32_t i = EG_SPIRV_HEADER_WORDS; i < n && (code[i] >> 16); i += code[i] >> 16) {
        divs += is_int_div(code[i] & 0xFFFFu);
        levels += (code[i] & 0xFFFFu) == SpvOpImageQueryLevels;
    }
    *out_n = n;
    *copy = divs || levels;
    if (!*copy) return code;
    uint32_t cap = EG_GL_SMOD_WORDS - EG_GL_LEVEL_WORDS;
    if (!divs) {
        if (n > cap) {
            shader_error("module of %u words needs scratch above 2 * EMGPU_MAX_SPIRV_WORDS - %u = %u",
                         (unsigned)n, (unsigned)EG_GL_LEVEL_WORDS, (unsigned)cap);
            return NULL;
        }
        eg_memcpy(g_words, code, n * sizeof *code);
        return g_words;
    }
    eg_spirv_polyfill_result_t r;
    if (!eg_spirv_polyfill_int_div(code, n, g_words, cap, &r)) {
        shader_error("integer division rewrite: %s", r.message);
        return NULL;
    }
    *out_n = r.word_count;
    return g_words;
}

/* GLSL ES 3.x has no textureSamples (SPIRV-Cross refuses it for ES): say so by name. */
static bool uses_missing_query(const uint32_t *code, uint32_t n)
{
    for (uint32_t i = EG_SPIRV_HEADER_WORDS; i < n && (code[i] >> 16); i += code[i] >> 16) {
        if ((code[i] & 0xFFFFu) == SpvOpImageQuerySamples) {
            shader_error("the shader queries a texture's sample count (textureSamples), which GLSL ES 3.x "
                         "lacks; pass the count in a uniform");
            return true;
        }
    }
    return false;
}

/* ---- textureQueryLevels: GLSL ES 3.x lacks it (SPIRV-Cross refuses it for ES) ----
 * Each OpImageQueryLevels becomes an OpLoad of a new plain uniform int named after the texture's
 * (group, binding), "eg_lv_s<g>_b<b>", which the backend sets to the bound view's
 * mipLevelCount when it binds textures (gl_draw.c). The image operand is traced back through
 * OpImage / OpSampledImage / OpLoad / OpCopyObject to its variable's decorations. */
#define EG_GL_LOWER_IDS EMGPU_MAX_SPIRV_WORDS
static uint32_t g_def[EG_GL_LOWER_IDS], g_set[EG_GL_LOWER_IDS], g_bind[EG_GL_LOWER_IDS];
static uint8_t g_isvar[EG_GL_LOWER_IDS];
static struct { uint32_t count, id[EG_GL_MAX_LEVEL_VARS], set[EG_GL_MAX_LEVEL_VARS], bind[EG_GL_MAX_LEVEL_VARS]; } g_lv;

static bool scan_defs(const uint32_t *code, uint32_t n)
{
    if (code[3] > EG_GL_LOWER_IDS) {
        shader_error("textureQueryLevels emulation: the module's id bound %u exceeds EMGPU_MAX_SPIRV_WORDS = %u",
                     (unsigned)code[3], (unsigned)EG_GL_LOWER_IDS);
        return false;
    }
    eg_memset(g_isvar, 0, sizeof g_isvar);
    eg_memset(g_def, 0, sizeof g_def);
    for (uint32_t i = EG_SPIRV_HEADER_WORDS; i < n && (code[i] >> 16); i += code[i] >> 16) {
        uint32_t op = code[i] & 0xFFFFu, len = code[i] >> 16;
        if (op == SpvOpDecorate && len >= 4 && code[i + 1] < EG_GL_LOWER_IDS) {
            if (code[i + 2] == SpvDecorationDescriptorSet) g_set[code[i + 1]] = code[i + 3];
            if (code[i + 2] == SpvDecorationBinding) g_bind[code[i + 1]] = code[i + 3];
        } else if (op == SpvOpVariable && len >= 4 && code[i + 2] < EG_GL_LOWER_IDS) {
            g_isvar[code[i + 2]] = 1;
        } else if ((op == SpvOpLoad || op == SpvOpSampledImage || op == SpvOpImage || op == SpvOpCopyObject) &&
                   len >= 4 && code[i + 2] < EG_GL_LOWER_IDS) {
            g_def[code[i + 2]] = code[i + 3];
        }
    }
    return true;
}

/* The level-count uniform for the texture behind image id `img`; 0 when it cannot be traced. */
static uint32_t level_var(uint32_t img, uint32_t *bound)
{
    uint32_t x = img;
    for (uint32_t step = 0; step < 8u && x && x < EG_GL_LOWER_IDS && !g_isvar[x]; step++) x = g_def[x];
    if (!x || x >= EG_GL_LOWER_IDS || !g_isvar[x]) return 0;
    for (uint32_t k = 0; k < g_lv.count; k++)
        if (g_lv.set[k] == g_set[x] && g_lv.bind[k] == g_bind[x]) return g_lv.id[k];
    if (g_lv.count >= EG_GL_MAX_LEVEL_VARS) return 0;
    g_lv.set[g_lv.count] = g_set[x];
    g_lv.bind[g_lv.count] = g_bind[x];
    return g_lv.id[g_lv.count++] = (*bound)++;
}

/* Rewrites in place (same size), then inserts the pointer type and variables before the first
 * OpFunction; `w` has room (checked by the caller). False when a query cannot be traced. */
static bool lower_query_levels(uint32_t *w, uint32_t *n)
{
    g_lv.count = 0;
    if (!scan_defs(w, *n)) return false;
    uint32_t bound = w[3], ptr = 0, rt = 0, func_at = 0;
    for (uint32_t i = EG_SPIRV_HEADER_WORDS; i < *n && (w[i] >> 16); i += w[i] >> 16) {
        uint32_t op = w[i] & 0xFFFFu;
        if (op == SpvOpFunction && !func_at) func_at = i;
        if (op != SpvOpImageQueryLevels) continue;
        uint32_t var = level_var(w[i + 3], &bound);
        if (!var || (rt && rt != w[i + 1])) {
            shader_error("textureQueryLevels emulation: cannot trace the queried texture (or more than %u of them)",
                         (unsigned)EG_GL_MAX_LEVEL_VARS);
            return false;
        }
        if (!ptr) ptr = bound++;
        rt = w[i + 1];
        w[i] = (4u << 16) | SpvOpLoad;
        w[i + 3] = var;
    }
    if (!g_lv.count) return true;
    uint32_t extra = 4u + 4u * g_lv.count;
    for (uint32_t i = *n; i-- > func_at;) w[i + extra] = w[i];   /* overlapping: copy backwards */
    uint32_t *o = w + func_at;
    *o++ = (4u << 16) | SpvOpTypePointer; *o++ = ptr; *o++ = SpvStorageClassUniformConstant; *o++ = rt;
    for (uint32_t k = 0; k < g_lv.count; k++) {
        *o++ = (4u << 16) | SpvOpVariable; *o++ = ptr; *o++ = g_lv.id[k]; *o++ = SpvStorageClassUniformConstant;
    }
    *n += extra;
    w[3] = bound;
    return true;
}

/* Robust access (kernel/shader/spirv_robust.c): the stage's buffer and local array indices
 * clamped, arrayLength from uniforms whose layout (offset, stride) the program keeps per binding. */
static uint32_t g_robust[EG_GL_SMOD_WORDS];
static eg_spirv_robust_t g_rb;

static const uint32_t *robust_access(const uint32_t *code, uint32_t *words, eg_gl_program_t *p)
{
    uint32_t n = 0;
    if (!eg_spirv_robust_rewrite(code, *words, EG_SPIRV_ROBUST_BUFFERS | EG_SPIRV_ROBUST_LOCALS, g_robust,
                                 EG_GL_SMOD_WORDS, &n, &g_rb)) {
        shader_error("%s", g_rb.message);
        return NULL;
    }
    for (uint32_t k = 0; k < g_rb.len_count; k++)
        for (uint32_t i = 0; i < p->binding_count; i++)
            if (p->bindings[i].group == g_rb.len[k].group && p->bindings[i].binding == g_rb.len[k].binding) {
                p->len_offset_B[i] = g_rb.len[k].offset_B;
                p->len_stride_B[i] = g_rb.len[k].stride_B;
            }
    *words = n;
    return g_robust;
}

GLuint eg_gl_shader_compile(eg_hal_device_t *dev, eg_gl_program_t *p, uint32_t stage_index,
                            eg_shader_stage_t stage)
{
    const eg_shader_module_t *sm = p->mod[stage_index];
    const eg_shader_entry_t *e = eg_spirv_find_entry(&sm->spirv, stage, p->entry[stage_index]);
    if (!e) return 0;
    static const SpvExecutionModel models[] = { SpvExecutionModelVertex, SpvExecutionModelFragment,
                                                SpvExecutionModelGLCompute };
    spvc_context ctx = NULL;
    g_error[0] = '\0';
    if (uses_missing_query(sm->code, sm->word_count)) return 0;
    if (sx.spvc_context_create(&ctx) != SPVC_SUCCESS) return 0;
    spvc_parsed_ir ir = NULL;
    spvc_compiler c = NULL;
    GLuint sh = 0;
    const char *src = NULL;
    uint32_t words = 0;
    bool copied = false;
    const uint32_t *code = lower_int_div(sm->code, sm->word_count, &words, &copied);
    g_lv.count = 0;
    g_rb.len_count = 0;
    if (code && copied && !lower_query_levels(g_words, &words)) code = NULL;
    if (code) code = robust_access(code, &words, p);
    if (code && sx.spvc_context_parse_spirv(ctx, code, words, &ir) == SPVC_SUCCESS &&
        sx.spvc_context_create_compiler(ctx, SPVC_BACKEND_GLSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &c) ==
            SPVC_SUCCESS &&
        sx.spvc_compiler_set_entry_point(c, e->name, models[stage]) == SPVC_SUCCESS) {
        for (uint32_t k = 0; k < g_lv.count; k++) {   /* names gl_draw.c sets the level counts by */
            char name[32];
            eg_fmt(name, sizeof name, "eg_lv_s%u_b%u", (unsigned)g_lv.set[k], (unsigned)g_lv.bind[k]);
            sx.spvc_compiler_set_name(c, g_lv.id[k], name);
        }
        for (uint32_t k = 0; k < g_rb.len_count; k++) {   /* names gl_draw.c sets the array lengths by */
            char name[32];
            eg_fmt(name, sizeof name, "eg_len_s%u_b%u", (unsigned)g_rb.len[k].group, (unsigned)g_rb.len[k].binding);
            sx.spvc_compiler_set_name(c, g_rb.len[k].id, name);
        }
        src = translate(c, dev, p, stage);
    }
    if (src) {
        const char *dump = eg_port_getenv("EMGPU_GLES_DUMP");
        if (dump && dump[0] == '1') eg_port_log_write(EG_LOG_INFO, src, eg_strlen(src));   /* unclipped */
        sh = compile_glsl(src, stage);
    } else {
        if (!g_error[0])
            shader_error("SPIRV-Cross could not translate entry point %s: %s", e->name,
                         sx.spvc_context_get_last_error_string(ctx));
    }
    sx.spvc_context_destroy(ctx);
    return sh;
}

#endif /* EMGPU_HAL_GLES */
