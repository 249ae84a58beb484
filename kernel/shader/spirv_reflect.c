/* SPIR-V reflection: per entry point stage, workgroup size, resources, stage IO and built-ins. */
#include <webgpu/webgpu.h>

#include "kernel/shader/spirv_reflect_internal.h"

void *eg_reflect_array(eg_spirv_ctx_t *c, uint32_t count, size_t elem_B, const char *what)
{
    if (count == 0) return c->arena->base;   /* never dereferenced: any non-NULL pointer */
    void *p = eg_arena_alloc(c->arena, (size_t)count * elem_B, 8);
    if (!p)
        eg_spirv_fail(c, EG_SPIRV_RULE_ARENA_FULL, 0, "reflection (%s, %u bytes) does not fit: %s arena "
                      "has %u bytes left (%s = %u)", what, (unsigned)(count * elem_B), c->arena->name,
                      (unsigned)eg_arena_free_B(c->arena), c->arena->knob, (unsigned)c->arena->cap_B);
    else
        eg_memset(p, 0, (size_t)count * elem_B);
    return p;
}

static uint8_t scalar_of(const eg_spirv_module_t *m, uint32_t type)
{
    uint32_t d = eg_spirv_def(m, type);
    if (!d) return EG_SHADER_SCALAR_F32;
    switch (eg_spirv_op(m, d)) {
    case SpvOpTypeInt: return eg_spirv_word(m, d, 3) ? EG_SHADER_SCALAR_I32 : EG_SHADER_SCALAR_U32;
    case SpvOpTypeBool: return EG_SHADER_SCALAR_BOOL;
    default: return EG_SHADER_SCALAR_F32;
    }
}

/* The pointee type of a pointer type id. */
static uint32_t pointee(const eg_spirv_module_t *m, uint32_t ptr_type)
{
    return eg_spirv_word(m, eg_spirv_def(m, ptr_type), 3);
}

/* Finds OpMemberDecorate(st, member, decoration) and returns its literal through *value. */
static bool find_member_decoration(const eg_spirv_ctx_t *c, uint32_t st, uint32_t member, uint32_t decoration,
                                   uint32_t *value)
{
    const eg_spirv_module_t *m = c->m;
    for (uint32_t w = c->anno_begin; w < c->anno_end; w += eg_spirv_wc(m, w))
        if (eg_spirv_op(m, w) == SpvOpMemberDecorate && eg_spirv_word(m, w, 1) == st &&
            eg_spirv_word(m, w, 2) == member && eg_spirv_word(m, w, 3) == decoration) {
            if (value) *value = eg_spirv_word(m, w, 4);
            return true;
        }
    return false;
}

/* Counts the struct's members decorated NonWritable; a block with all of them is read-only. */
static bool all_members_non_writable(const eg_spirv_ctx_t *c, uint32_t st)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t members = eg_spirv_wc(m, eg_spirv_def(m, st)) - 2, n = 0;
    for (uint32_t w = c->anno_begin; w < c->anno_end; w += eg_spirv_wc(m, w))
        if (eg_spirv_op(m, w) == SpvOpMemberDecorate && eg_spirv_word(m, w, 1) == st &&
            eg_spirv_word(m, w, 3) == SpvDecorationNonWritable)
            n++;
    return members > 0 && n >= members;
}

/* ---- buffer minimum binding size ---- */

/* Size of a member type inside an explicitly laid out block. Arrays use their ArrayStride (a
 * runtime array counts one element: WGSL's "minimum binding size" rule), matrices their
 * MatrixStride. A struct is not expected here (the caller follows last members). */
static uint64_t member_size_B(const eg_spirv_ctx_t *c, uint32_t st, uint32_t idx, uint32_t t)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t d = eg_spirv_def(m, t), stride = 0;
    switch (d ? eg_spirv_op(m, d) : 0) {
    case SpvOpTypeVector: return 4u * eg_spirv_word(m, d, 3);
    case SpvOpTypeMatrix: {
        find_member_decoration(c, st, idx, SpvDecorationMatrixStride, &stride);
        bool row_major = find_member_decoration(c, st, idx, SpvDecorationRowMajor, NULL);
        uint32_t col = eg_spirv_word(m, d, 2);
        uint32_t n = row_major ? eg_spirv_word(m, eg_spirv_def(m, col), 3) : eg_spirv_word(m, d, 3);
        return (uint64_t)n * stride;
    }
    case SpvOpTypeArray: {
        eg_spirv_find_decoration(c, t, SpvDecorationArrayStride, &stride);
        uint32_t len_d = eg_spirv_def(m, eg_spirv_word(m, d, 3));
        uint32_t len = len_d && eg_spirv_op(m, len_d) == SpvOpConstant ? eg_spirv_word(m, len_d, 3) : 1;
        return (uint64_t)len * stride;
    }
    case SpvOpTypeRuntimeArray:
        eg_spirv_find_decoration(c, t, SpvDecorationArrayStride, &stride);
        return stride;
    default: return 4;
    }
}

/* std430 alignment recorded by the layout check (spirv_layout.c: 2 << code, 4 when unset). */
static uint32_t struct_align_B(const eg_spirv_module_t *m, uint32_t st)
{
    uint32_t code = (m->ids[st].flags >> EG_SPIRV_ID_ALIGN_SHIFT) & 3u;
    return code ? 2u << code : 4u;
}

/* WebGPU minimum binding size of a Block: follows the chain of last members (iteratively) and
 * adds their Offsets; the end is rounded up to the block's alignment (16 for Uniform: std140).
 * Member offsets are multiples of their struct's alignment, so one final rounding is exact. */
static uint64_t block_min_size_B(const eg_spirv_ctx_t *c, uint32_t st, bool uniform)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t align = uniform ? 16u : struct_align_B(m, st);
    uint64_t total = 0;
    for (uint32_t depth = 0; depth < 64; depth++) {
        uint32_t d = eg_spirv_def(m, st), wc = eg_spirv_wc(m, d);
        if (wc <= 2) break;                                    /* empty struct */
        uint32_t last = wc - 3, t = m->words[d + 2 + last], off = 0;
        find_member_decoration(c, st, last, SpvDecorationOffset, &off);
        total += off;
        if (eg_spirv_def_op(m, t) != SpvOpTypeStruct) {
            total += member_size_B(c, st, last, t);
            break;
        }
        st = t;
    }
    return (total + align - 1) / align * align;
}

/* ---- resources ---- */

static uint8_t view_dim_of(uint32_t dim, uint32_t arrayed)
{
    switch (dim) {
    case SpvDim1D: return WGPUTextureViewDimension_1D;
    case SpvDim2D: return arrayed ? WGPUTextureViewDimension_2DArray : WGPUTextureViewDimension_2D;
    case SpvDim3D: return WGPUTextureViewDimension_3D;
    case SpvDimCube: return arrayed ? WGPUTextureViewDimension_CubeArray : WGPUTextureViewDimension_Cube;
    default: return WGPUTextureViewDimension_Undefined;
    }
}

/* SpvImageFormat -> WGPUTextureFormat for the formats WebGPU can use as storage textures;
 * Undefined for the others (pipeline creation then finds no compatible layout entry). */
static uint32_t texture_format_of(uint32_t f)
{
    static const struct { uint16_t spv; uint16_t wgpu; } map[] = {
        { SpvImageFormatRgba8, WGPUTextureFormat_RGBA8Unorm },
        { SpvImageFormatRgba8Snorm, WGPUTextureFormat_RGBA8Snorm },
        { SpvImageFormatRgba8ui, WGPUTextureFormat_RGBA8Uint },
        { SpvImageFormatRgba8i, WGPUTextureFormat_RGBA8Sint },
        { SpvImageFormatRgba16ui, WGPUTextureFormat_RGBA16Uint },
        { SpvImageFormatRgba16i, WGPUTextureFormat_RGBA16Sint },
        { SpvImageFormatRgba16f, WGPUTextureFormat_RGBA16Float },
        { SpvImageFormatR32ui, WGPUTextureFormat_R32Uint },
        { SpvImageFormatR32i, WGPUTextureFormat_R32Sint },
        { SpvImageFormatR32f, WGPUTextureFormat_R32Float },
        { SpvImageFormatRg32ui, WGPUTextureFormat_RG32Uint },
        { SpvImageFormatRg32i, WGPUTextureFormat_RG32Sint },
        { SpvImageFormatRg32f, WGPUTextureFormat_RG32Float },
        { SpvImageFormatRgba32ui, WGPUTextureFormat_RGBA32Uint },
        { SpvImageFormatRgba32i, WGPUTextureFormat_RGBA32Sint },
        { SpvImageFormatRgba32f, WGPUTextureFormat_RGBA32Float },
        { SpvImageFormatR8, WGPUTextureFormat_R8Unorm },
        { SpvImageFormatR8ui, WGPUTextureFormat_R8Uint },
        { SpvImageFormatR8i, WGPUTextureFormat_R8Sint },
        { SpvImageFormatRg8, WGPUTextureFormat_RG8Unorm },
        { SpvImageFormatRg8ui, WGPUTextureFormat_RG8Uint },
        { SpvImageFormatRg8i, WGPUTextureFormat_RG8Sint },
        { SpvImageFormatR16f, WGPUTextureFormat_R16Float },
        { SpvImageFormatRg16f, WGPUTextureFormat_RG16Float },
        { SpvImageFormatR16ui, WGPUTextureFormat_R16Uint },
        { SpvImageFormatR16i, WGPUTextureFormat_R16Sint },
        { SpvImageFormatRg16ui, WGPUTextureFormat_RG16Uint },
        { SpvImageFormatRg16i, WGPUTextureFormat_RG16Sint },
        { SpvImageFormatRgb10A2, WGPUTextureFormat_RGB10A2Unorm },
        { SpvImageFormatRgb10a2ui, WGPUTextureFormat_RGB10A2Uint },
        { SpvImageFormatR11fG11fB10f, WGPUTextureFormat_RG11B10Ufloat },
    };
    for (uint32_t i = 0; i < EG_ARRAY_LEN(map); i++)
        if (map[i].spv == f) return map[i].wgpu;
    return WGPUTextureFormat_Undefined;
}

static void fill_image(const eg_spirv_module_t *m, uint32_t d, eg_shader_binding_t *b)
{
    b->kind = eg_spirv_word(m, d, 7) == 2 ? EG_SHADER_BINDING_STORAGE_TEXTURE : EG_SHADER_BINDING_SAMPLED_TEXTURE;
    b->sample_type = scalar_of(m, eg_spirv_word(m, d, 2));
    b->dim = (uint8_t)eg_spirv_word(m, d, 3);
    b->depth = (uint8_t)eg_spirv_word(m, d, 4);
    b->arrayed = (uint8_t)eg_spirv_word(m, d, 5);
    b->multisampled = (uint8_t)eg_spirv_word(m, d, 6);
    b->format = eg_spirv_word(m, d, 8);
    b->view_dim = view_dim_of(b->dim, b->arrayed);
    b->texture_class = b->sample_type == EG_SHADER_SCALAR_I32 ? EG_SHADER_TEXTURE_SINT
                     : b->sample_type == EG_SHADER_SCALAR_U32 ? EG_SHADER_TEXTURE_UINT
                     : b->depth == 1 ? EG_SHADER_TEXTURE_DEPTH : EG_SHADER_TEXTURE_FLOAT;
    b->texture_format = texture_format_of(b->format);
    b->storage_access = (uint8_t)(b->non_readable ? WGPUStorageTextureAccess_WriteOnly
                                : b->non_writable ? WGPUStorageTextureAccess_ReadOnly
                                                  : WGPUStorageTextureAccess_ReadWrite);
}

static bool fill_binding(eg_spirv_ctx_t *c, uint32_t w, eg_shader_binding_t *b)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t var = eg_spirv_word(m, w, 2), sc = eg_spirv_word(m, w, 3);
    uint32_t type = pointee(m, eg_spirv_word(m, w, 1)), d = eg_spirv_def(m, type);
    eg_memset(b, 0, sizeof *b);
    if (!eg_spirv_find_decoration(c, var, SpvDecorationDescriptorSet, &b->group) ||
        !eg_spirv_find_decoration(c, var, SpvDecorationBinding, &b->binding))
        return eg_spirv_fail(c, EG_SPIRV_RULE_DECORATION, w, "resource variable %u needs both DescriptorSet "
                             "and Binding decorations", (unsigned)var);
    b->non_writable = eg_spirv_find_decoration(c, var, SpvDecorationNonWritable, NULL);
    b->non_readable = eg_spirv_find_decoration(c, var, SpvDecorationNonReadable, NULL);
    uint32_t op = d ? eg_spirv_op(m, d) : 0;
    if (op == SpvOpTypeStruct) {
        if (sc == SpvStorageClassUniform) b->kind = EG_SHADER_BINDING_UNIFORM;
        else b->kind = b->non_writable || all_members_non_writable(c, type) ? EG_SHADER_BINDING_STORAGE_READ_ONLY
                                                                           : EG_SHADER_BINDING_STORAGE;
        b->min_size_B = block_min_size_B(c, type, sc == SpvStorageClassUniform);
    } else if (op == SpvOpTypeImage) {
        fill_image(m, d, b);
    } else if (op == SpvOpTypeSampler) {
        b->kind = EG_SHADER_BINDING_SAMPLER;
    } else {
        return eg_spirv_fail(c, EG_SPIRV_RULE_STORAGE_CLASS, w, "variable %u in storage class %u is not "
                             "a buffer block, texture or sampler", (unsigned)var, (unsigned)sc);
    }
    return true;
}

static bool is_resource(const eg_spirv_module_t *m, uint32_t w)
{
    uint32_t sc = eg_spirv_word(m, w, 3);
    return eg_spirv_op(m, w) == SpvOpVariable && (sc == SpvStorageClassUniformConstant ||
           sc == SpvStorageClassUniform || sc == SpvStorageClassStorageBuffer);
}

static bool is_sampling_op(uint32_t op)
{
    return (op >= SpvOpImageSampleImplicitLod && op <= SpvOpImageSampleProjDrefExplicitLod) ||
           op == SpvOpImageGather || op == SpvOpImageDrefGather || op == SpvOpImageQueryLod;
}

/* Module-wide resource list, plus the counts the static-use walk sizes its arrays with. */
static bool reflect_resources(eg_spirv_ctx_t *c, eg_reflect_resources_t *res)
{
    const eg_spirv_module_t *m = c->m;
    eg_memset(res, 0, sizeof *res);
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w)) {
        uint32_t op = eg_spirv_op(m, w);
        res->count += op != SpvOpFunction && res->function_count == 0 && is_resource(m, w);
        res->function_count += op == SpvOpFunction;
        res->sampling_count += is_sampling_op(op);
    }
    res->bindings = eg_reflect_array(c, res->count, sizeof *res->bindings, "bindings");
    res->var_ids = res->bindings ? eg_reflect_array(c, res->count, sizeof *res->var_ids, "binding ids") : NULL;
    if (!res->var_ids) return false;
    uint32_t i = 0;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count && i < res->count; w += eg_spirv_wc(m, w)) {
        if (!is_resource(m, w)) continue;
        res->var_ids[i] = eg_spirv_word(m, w, 2);
        if (!fill_binding(c, w, &res->bindings[i++])) return false;
    }
    return true;
}

/* ---- stage IO and built-ins ---- */

static uint32_t builtin_bit(uint32_t b)
{
    switch (b) {
    case SpvBuiltInPosition: return EG_SHADER_BUILTIN_POSITION;
    case SpvBuiltInFragCoord: return EG_SHADER_BUILTIN_FRAG_COORD;
    case SpvBuiltInVertexIndex: return EG_SHADER_BUILTIN_VERTEX_INDEX;
    case SpvBuiltInInstanceIndex: return EG_SHADER_BUILTIN_INSTANCE_INDEX;
    case SpvBuiltInFrontFacing: return EG_SHADER_BUILTIN_FRONT_FACING;
    case SpvBuiltInFragDepth: return EG_SHADER_BUILTIN_FRAG_DEPTH;
    case SpvBuiltInSampleId: return EG_SHADER_BUILTIN_SAMPLE_ID;
    case SpvBuiltInSampleMask: return EG_SHADER_BUILTIN_SAMPLE_MASK;
    case SpvBuiltInLocalInvocationId: return EG_SHADER_BUILTIN_LOCAL_INVOCATION_ID;
    case SpvBuiltInLocalInvocationIndex: return EG_SHADER_BUILTIN_LOCAL_INVOCATION_INDEX;
    case SpvBuiltInGlobalInvocationId: return EG_SHADER_BUILTIN_GLOBAL_INVOCATION_ID;
    case SpvBuiltInWorkgroupId: return EG_SHADER_BUILTIN_WORKGROUP_ID;
    case SpvBuiltInNumWorkgroups: return EG_SHADER_BUILTIN_NUM_WORKGROUPS;
    case SpvBuiltInPointSize: return EG_SHADER_BUILTIN_POINT_SIZE;
    case SpvBuiltInClipDistance: return EG_SHADER_BUILTIN_CLIP_DISTANCE;
    default: return 0;
    }
}

/* Built-ins of one interface variable: its own BuiltIn decoration, or its block's members'. */
static uint32_t builtins_of(const eg_spirv_ctx_t *c, uint32_t var, uint32_t type)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t b, bits = 0;
    if (eg_spirv_find_decoration(c, var, SpvDecorationBuiltIn, &b)) return builtin_bit(b);
    if (eg_spirv_def_op(m, type) != SpvOpTypeStruct) return 0;
    for (uint32_t w = c->anno_begin; w < c->anno_end; w += eg_spirv_wc(m, w))
        if (eg_spirv_op(m, w) == SpvOpMemberDecorate && eg_spirv_word(m, w, 1) == type &&
            eg_spirv_word(m, w, 3) == SpvDecorationBuiltIn)
            bits |= builtin_bit(eg_spirv_word(m, w, 4));
    return bits;
}

static eg_shader_io_t io_of(const eg_spirv_ctx_t *c, uint32_t var, uint32_t loc, uint32_t t)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t td = eg_spirv_def(m, t);
    eg_shader_io_t v = { loc, scalar_of(m, t), 1, EG_SHADER_INTERP_PERSPECTIVE, EG_SHADER_SAMPLING_CENTER };
    if (td && eg_spirv_op(m, td) == SpvOpTypeVector) {
        v.scalar = scalar_of(m, eg_spirv_word(m, td, 2));
        v.components = (uint8_t)eg_spirv_word(m, td, 3);
    }
    if (eg_spirv_find_decoration(c, var, SpvDecorationFlat, NULL)) v.interpolation = EG_SHADER_INTERP_FLAT;
    else if (eg_spirv_find_decoration(c, var, SpvDecorationNoPerspective, NULL)) v.interpolation = EG_SHADER_INTERP_LINEAR;
    if (eg_spirv_find_decoration(c, var, SpvDecorationCentroid, NULL)) v.sampling = EG_SHADER_SAMPLING_CENTROID;
    else if (eg_spirv_find_decoration(c, var, SpvDecorationSample, NULL)) v.sampling = EG_SHADER_SAMPLING_SAMPLE;
    return v;
}

/* Input/Output variables of the entry point's interface: those with a Location become
 * inputs/outputs, those with BuiltIn decorations set builtins_in/out. */
static bool reflect_io(eg_spirv_ctx_t *c, uint32_t w, eg_shader_entry_t *e)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t first = eg_spirv_string_end(m, w, 3), wc = eg_spirv_wc(m, w);
    eg_shader_io_t *io = eg_reflect_array(c, wc - first, sizeof *io, "stage inputs/outputs");
    if (!io) return false;
    /* Inputs fill the array from the front, outputs from the back. */
    uint32_t n_in = 0, n_out = 0, cap = wc - first;
    for (uint32_t i = first; i < wc; i++) {
        uint32_t var = m->words[w + i], d = eg_spirv_def(m, var), loc;
        if (!d || eg_spirv_op(m, d) != SpvOpVariable) continue;
        uint32_t sc = eg_spirv_word(m, d, 3);
        if (sc != SpvStorageClassInput && sc != SpvStorageClassOutput) continue;
        uint32_t t = pointee(m, eg_spirv_word(m, d, 1));
        if (!eg_spirv_find_decoration(c, var, SpvDecorationLocation, &loc)) {
            if (sc == SpvStorageClassInput) e->builtins_in |= builtins_of(c, var, t);
            else e->builtins_out |= builtins_of(c, var, t);
            continue;
        }
        eg_shader_io_t v = io_of(c, var, loc, t);
        if (sc == SpvStorageClassInput) io[n_in++] = v;
        else io[cap - 1 - n_out++] = v;
    }
    e->inputs = io;
    e->input_count = n_in;
    e->outputs = io + cap - n_out;
    e->output_count = n_out;
    return true;
}

static void reflect_modes(const eg_spirv_ctx_t *c, eg_shader_entry_t *e)
{
    const eg_spirv_module_t *m = c->m;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w)) {
        uint32_t op = eg_spirv_op(m, w), mode = eg_spirv_word(m, w, 2);
        if (op == SpvOpFunction) break;
        if (op != SpvOpExecutionMode || eg_spirv_word(m, w, 1) != e->function_id) continue;
        if (mode == SpvExecutionModeLocalSize)
            for (uint32_t i = 0; i < 3; i++) e->workgroup_size[i] = eg_spirv_word(m, w, 3 + i);
        if (mode == SpvExecutionModeDepthReplacing || mode == SpvExecutionModeDepthGreater ||
            mode == SpvExecutionModeDepthLess)
            e->depth_replacing = 1;
    }
}

/* ---- specialization constants ---- */

static bool reflect_spec_consts(eg_spirv_ctx_t *c)
{
    eg_spirv_module_t *m = c->m;
    uint32_t n = 0, id;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w)) {
        uint32_t op = eg_spirv_op(m, w);
        if (op == SpvOpFunction) break;
        n += op >= SpvOpSpecConstantTrue && op <= SpvOpSpecConstant &&
             eg_spirv_find_decoration(c, eg_spirv_word(m, w, 2), SpvDecorationSpecId, &id);
    }
    eg_shader_spec_const_t *sc = eg_reflect_array(c, n, sizeof *sc, "specialization constants");
    if (!sc) return false;
    uint32_t i = 0;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count && i < n; w += eg_spirv_wc(m, w)) {
        uint32_t op = eg_spirv_op(m, w), rid = eg_spirv_word(m, w, 2);
        if (!(op >= SpvOpSpecConstantTrue && op <= SpvOpSpecConstant) ||
            !eg_spirv_find_decoration(c, rid, SpvDecorationSpecId, &id))
            continue;
        sc[i].spec_id = id;
        sc[i].result_id = rid;
        sc[i].scalar = op == SpvOpSpecConstant ? scalar_of(m, eg_spirv_word(m, w, 1)) : EG_SHADER_SCALAR_BOOL;
        sc[i].default_bits = op == SpvOpSpecConstant ? eg_spirv_word(m, w, 3) : op == SpvOpSpecConstantTrue;
        i++;
    }
    m->spec_consts = sc;
    m->spec_const_count = n;
    return true;
}

bool eg_spirv_reflect(eg_spirv_ctx_t *c)
{
    eg_spirv_module_t *m = c->m;
    eg_reflect_resources_t res;
    m->entries = eg_reflect_array(c, m->entry_count, sizeof *m->entries, "entry points");
    if (!m->entries || !reflect_resources(c, &res) || !eg_reflect_use_init(c, &res) || !reflect_spec_consts(c))
        return false;
    uint32_t i = 0;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count && i < m->entry_count; w += eg_spirv_wc(m, w)) {
        if (eg_spirv_op(m, w) != SpvOpEntryPoint) continue;
        eg_shader_entry_t *e = &m->entries[i++];
        eg_memset(e, 0, sizeof *e);
        uint32_t model = eg_spirv_word(m, w, 1);
        e->stage = model == SpvExecutionModelVertex ? EG_SHADER_STAGE_VERTEX
                 : model == SpvExecutionModelFragment ? EG_SHADER_STAGE_FRAGMENT : EG_SHADER_STAGE_COMPUTE;
        e->name = (const char *)(const void *)&m->words[w + 3];
        e->function_id = eg_spirv_word(m, w, 2);
        reflect_modes(c, e);
        if (!reflect_io(c, w, e) || !eg_reflect_static_use(c, &res, e)) return false;
    }
    return true;
}
