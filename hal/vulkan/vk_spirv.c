/* hal/vulkan SPIR-V patch: point-list pipelines get a vertex shader that writes PointSize = 1.
 *
 * WebGPU points are always one pixel and WGSL/GLSL-for-WebGPU shaders never write a point size,
 * but Vulkan (before maintenance5) leaves the size undefined unless the vertex shader writes the
 * PointSize built-in (VUID-VkGraphicsPipelineCreateInfo-Vertex-07722). So for a point-list
 * pipeline the vertex module is copied with `PointSize = 1.0` stored before every OpReturn of the
 * entry point, into one static scratch array (the copy lives only while the pipeline is created).
 * Handles PointSize as a member of the gl_PerVertex block (what glslang emits) or as a plain
 * variable; a module with neither is left unchanged.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"
#include "kernel/base/log.h"
#include "kernel/shader/spirv_polyfill.h"
#include "kernel/shader/spirv_robust.h"

enum { OP_ENTRY = 15, OP_INT = 21, OP_FLOAT = 22, OP_PTR = 32, OP_CONST = 43, OP_FUNCTION = 54,
       OP_FUNCTION_END = 56, OP_VARIABLE = 59, OP_STORE = 62, OP_ACCESS = 65, OP_DECORATE = 71,
       OP_MEMBER_DECORATE = 72, OP_RETURN = 253 };
#define SPV_BUILTIN 11u
#define SPV_POINT_SIZE 1u
#define SPV_OUTPUT 3u
#define ONE_F 0x3f800000u
#define EXTRA_WORDS 256u

static uint32_t scratch[EMGPU_MAX_SPIRV_WORDS + EXTRA_WORDS];

typedef struct scan {
    uint32_t entry_fn, blk, member, direct_var, var, f32, i32, ptr_f32, one, c_member, first_fn;
    uint32_t blk_ptr;
} scan_t;

static void scan_types(const uint32_t *w, uint32_t n, scan_t *s)
{
    for (uint32_t i = 5; i < n && (w[i] >> 16); i += w[i] >> 16) {
        uint32_t op = w[i] & 0xFFFFu, len = w[i] >> 16;
        if (op == OP_ENTRY && w[i + 1] == 0 && !s->entry_fn) s->entry_fn = w[i + 2];
        else if (op == OP_MEMBER_DECORATE && len >= 5 && w[i + 3] == SPV_BUILTIN && w[i + 4] == SPV_POINT_SIZE)
            { s->blk = w[i + 1]; s->member = w[i + 2]; }
        else if (op == OP_DECORATE && len >= 4 && w[i + 2] == SPV_BUILTIN && w[i + 3] == SPV_POINT_SIZE)
            s->direct_var = w[i + 1];
        else if (op == OP_FLOAT && w[i + 2] == 32 && !s->f32) s->f32 = w[i + 1];
        else if (op == OP_INT && w[i + 2] == 32 && w[i + 3] == 1 && !s->i32) s->i32 = w[i + 1];
        else if (op == OP_FUNCTION && !s->first_fn) s->first_fn = i;
    }
    /* Second pass: things that refer to the ids found above. */
    for (uint32_t i = 5; i < n && (w[i] >> 16); i += w[i] >> 16) {
        uint32_t op = w[i] & 0xFFFFu;
        if (op == OP_PTR && w[i + 2] == SPV_OUTPUT && s->f32 && w[i + 3] == s->f32 && !s->ptr_f32) s->ptr_f32 = w[i + 1];
        else if (op == OP_PTR && w[i + 2] == SPV_OUTPUT && s->blk && w[i + 3] == s->blk) s->blk_ptr = w[i + 1];
        else if (op == OP_CONST && s->f32 && w[i + 1] == s->f32 && w[i + 3] == ONE_F && !s->one) s->one = w[i + 2];
        else if (op == OP_CONST && s->i32 && w[i + 1] == s->i32 && w[i + 3] == s->member && !s->c_member)
            s->c_member = w[i + 2];
    }
    for (uint32_t i = 5; i < n && (w[i] >> 16); i += w[i] >> 16)
        if ((w[i] & 0xFFFFu) == OP_VARIABLE && s->blk_ptr && w[i + 1] == s->blk_ptr) s->var = w[i + 2];
}

static bool put(uint32_t *o, uint32_t *n, uint32_t cap, const uint32_t *words, uint32_t count)
{
    if (*n + count > cap) return false;
    eg_memcpy(o + *n, words, count * 4u);
    *n += count;
    return true;
}

/* Returns the patched words (in the static scratch array) or NULL to use the module as is. */
const uint32_t *eg_vk_spirv_point_size(const uint32_t *w, uint32_t n, uint32_t *out_count)
{
    scan_t s;
    eg_memset(&s, 0, sizeof s);
    if (n < 5) return NULL;
    scan_types(w, n, &s);
    bool block = s.blk && s.var;
    if (!s.entry_fn || !s.first_fn || (!block && !s.direct_var)) return NULL;
    uint32_t bound = w[3], cap = EG_ARRAY_LEN(scratch), o = 0;
    if (!put(scratch, &o, cap, w, s.first_fn)) return NULL;
    /* Missing declarations go right before the first function, in dependency order. */
    bool ok = true;
    if (!s.f32) {
        s.f32 = bound++;
        uint32_t d[3] = { (3u << 16) | OP_FLOAT, s.f32, 32 };
        ok = ok && put(scratch, &o, cap, d, 3);
    }
    if (block && !s.i32) {
        s.i32 = bound++;
        s.c_member = 0;
        uint32_t d[4] = { (4u << 16) | OP_INT, s.i32, 32, 1 };
        ok = ok && put(scratch, &o, cap, d, 4);
    }
    if (block && !s.ptr_f32) {
        s.ptr_f32 = bound++;
        uint32_t d[4] = { (4u << 16) | OP_PTR, s.ptr_f32, SPV_OUTPUT, s.f32 };
        ok = ok && put(scratch, &o, cap, d, 4);
    }
    if (!s.one) {
        s.one = bound++;
        uint32_t d[4] = { (4u << 16) | OP_CONST, s.f32, s.one, ONE_F };
        ok = ok && put(scratch, &o, cap, d, 4);
    }
    if (block && !s.c_member) {
        s.c_member = bound++;
        uint32_t d[4] = { (4u << 16) | OP_CONST, s.i32, s.c_member, s.member };
        ok = ok && put(scratch, &o, cap, d, 4);
    }
    if (!ok) return NULL;
    bool in_entry = false;
    for (uint32_t i = s.first_fn; i < n && (w[i] >> 16); i += w[i] >> 16) {
        uint32_t op = w[i] & 0xFFFFu, len = w[i] >> 16;
        if (op == OP_FUNCTION) in_entry = w[i + 2] == s.entry_fn;
        if (op == OP_FUNCTION_END) in_entry = false;
        if (in_entry && op == OP_RETURN) {
            uint32_t target = s.direct_var;
            if (block) {
                uint32_t ac[5] = { (5u << 16) | OP_ACCESS, s.ptr_f32, bound++, s.var, s.c_member };
                if (!put(scratch, &o, cap, ac, 5)) return NULL;
                target = ac[2];
            }
            uint32_t st[3] = { (3u << 16) | OP_STORE, target, s.one };
            if (!put(scratch, &o, cap, st, 3)) return NULL;
        }
        if (!put(scratch, &o, cap, w + i, len)) return NULL;
    }
    scratch[3] = bound;
    *out_count = o;
    return scratch;
}

/* Integer division: Vulkan leaves OpSRem/OpSMod with negative operands, a zero divisor and
 * INT_MIN / -1 undefined (NVIDIA differs from lavapipe there); WebGPU defines them all, so every
 * module goes through the shared polyfill (kernel/shader/spirv_polyfill.c). Its bound:
 * n + 400 + (n / 5) * 72 words, under 16 n + 512 for any n. */
static uint32_t poly_scratch[(EMGPU_MAX_SPIRV_WORDS + EXTRA_WORDS) * 16u + 512u];

/* Out-of-bounds indices into workgroup, private and function arrays: Vulkan leaves them
 * undefined (lavapipe let `wa[5]` of `shared uint wa[4]` write the next shared array), WGSL
 * keeps them inside the variable. The shared rewrite clamps them (kernel/shader/spirv_robust.c);
 * buffers are left to robustBufferAccess, which bounds them by the descriptor's range. */
static uint32_t robust_scratch[EG_ARRAY_LEN(poly_scratch) + 4096u];

const uint32_t *eg_vk_spirv_polyfill(const uint32_t *w, uint32_t n, uint32_t *out_count, eg_status_t *status)
{
    eg_spirv_polyfill_result_t res;
    *status = EG_STATUS_OK;
    *out_count = n;
    if (!eg_spirv_polyfill_int_div(w, n, poly_scratch, EG_ARRAY_LEN(poly_scratch), &res)) {
        eg_log(EG_LOG_ERROR, "vulkan: %s", res.message);
        *status = EG_STATUS_INTERNAL;
        return NULL;
    }
    const uint32_t *code = res.rewritten ? poly_scratch : w;
    uint32_t words = res.rewritten ? res.word_count : n;
    static eg_spirv_robust_t rb;
    uint32_t rn = 0;
    if (!eg_spirv_robust_rewrite(code, words, EG_SPIRV_ROBUST_LOCALS, robust_scratch, EG_ARRAY_LEN(robust_scratch),
                                 &rn, &rb)) {
        eg_log(EG_LOG_ERROR, "vulkan: %s", rb.message);
        *status = EG_STATUS_INTERNAL;
        return NULL;
    }
    if (!rb.clamps) {
        *out_count = words;
        return code;
    }
    *out_count = rn;
    return robust_scratch;
}

#endif /* EMGPU_HAL_VULKAN */
