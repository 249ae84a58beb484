/* SPIR-V robust access rewrite (spirv_robust.h): clamps dynamic indices into their arrays and,
 * for backends that need it, serves arrayLength from uniforms.
 *
 * WebGPU ("Robust Buffer Access"; WGSL "Out-of-Bounds Access") requires that a shader never
 * reads or writes outside the bound range [offset, offset + size) of a buffer binding, and that
 * arrayLength is floor((binding size - offset of the runtime array) / stride). GLSL ES 3.10
 * leaves out-of-bounds block access undefined; even a robust context (KHR_robust_buffer_access_
 * behavior) bounds accesses by the buffer object, not by the range that glBindBufferRange bound,
 * and `.length()` of a runtime-sized array is the driver's business. Measured on an H100 with
 * NVIDIA's GLES driver: `.length()` read 0 for ranges bound at a non-zero offset, and a load
 * past a binding returned the next word of the buffer. llvmpipe happened to get both right.
 *
 * So every GLES stage is rewritten before SPIRV-Cross (hal/gles/gl_shader.c):
 *  - each OpAccessChain / OpInBoundsAccessChain whose base is (a pointer into) a Uniform or
 *    StorageBuffer variable gets each non-constant index into an array, vector or matrix, and
 *    each constant index past a fixed array's end, replaced by umin(index, count - 1) (indices
 *    are unsigned there: a negative signed index becomes huge and clamps to the last element);
 *  - a runtime array's count is a new plain uniform uint "eg_len_s<group>_b<binding>" that the
 *    backend sets from the binding size when it binds the buffer (gl_draw.c), and OpArrayLength
 *    becomes a load of it. WebGPU's minimum binding size guarantees at least one element.
 * Clamping into the binding is one of the two results WebGPU allows for a load, and a store
 * then lands inside the binding, which it also allows.
 * Workgroup, private and function arrays (EG_SPIRV_ROBUST_LOCALS) get the same clamps: neither
 * GLSL nor Vulkan defines an index past their end (measured: lavapipe and llvmpipe let
 * `wa[5]` of a `shared uint wa[4]` write the next shared array), WGSL keeps it inside the
 * variable. Vulkan needs only these: robustBufferAccess bounds buffer accesses by the range.
 * No heap: static tables sized by EMGPU_MAX_SPIRV_WORDS, the caller's output buffer.
 */
#include "kernel/shader/spirv_robust.h"

#define SPV_ENABLE_UTILITY_CODE 1
#include <spirv/unified1/spirv.h>
#include <spirv/unified1/GLSL.std.450.h>

#include "kernel/api/shader_module.h"
#include "kernel/base/fmt.h"
#include "kernel/base/util.h"

/* Ids the tables hold: the integer-division polyfill runs first and adds ids to modules of up to
 * EMGPU_MAX_SPIRV_WORDS words (about 10 per division, at most one division per 5 words). */
#define RB_IDS (EMGPU_MAX_SPIRV_WORDS * 4u)
#define RB_MAX_CONSTS 32u        /* distinct clamp bounds per stage */
#define RB_MAX_INDICES 16u       /* indices of one access chain that can be clamped */

static uint32_t r_def[RB_IDS];   /* word offset of the defining instruction (0: none) */
static uint32_t r_type[RB_IDS];  /* result type of the id's instruction */
static uint32_t r_var[RB_IDS];   /* buffer variable a pointer id points into (0: none) */
static uint32_t r_set[RB_IDS], r_bind[RB_IDS];
static uint32_t r_cval[RB_IDS];  /* value of a 32-bit integer OpConstant */
static uint8_t r_isconst[RB_IDS];

static struct {
    uint32_t what;   /* EG_SPIRV_ROBUST_* */
    uint32_t bound, uint_type, ptr_type, glsl_import, one_id;
    bool new_uint, new_import, need_one;
    uint32_t const_count, const_val[RB_MAX_CONSTS], const_id[RB_MAX_CONSTS];
    uint32_t rt_struct[EG_SPIRV_ROBUST_MAX_LENS];   /* per length uniform: the block struct, its last member */
    uint32_t rt_member[EG_SPIRV_ROBUST_MAX_LENS];
} R;

typedef struct plan {
    uint8_t kind[RB_MAX_INDICES];   /* 0 keep, 1 clamp to a constant, 2 clamp to a length uniform */
    uint32_t arg[RB_MAX_INDICES];   /* constant id, or length uniform index */
} plan_t;

static inline uint32_t op_of(const uint32_t *w, uint32_t at) { return at ? w[at] & 0xFFFFu : 0; }

static bool scan_globals(const uint32_t *w, uint32_t n, eg_spirv_robust_t *out)
{
    eg_memset(r_def, 0, sizeof r_def);
    eg_memset(r_var, 0, sizeof r_var);
    eg_memset(r_isconst, 0, sizeof r_isconst);
    for (uint32_t i = EG_SPIRV_HEADER_WORDS; i < n && (w[i] >> 16); i += w[i] >> 16) {
        uint32_t op = w[i] & 0xFFFFu, len = w[i] >> 16;
        bool has_res = false, has_type = false;
        SpvHasResultAndType((SpvOp)op, &has_res, &has_type);
        if (has_res) {
            uint32_t res = w[i + (has_type ? 2u : 1u)];
            if (res >= RB_IDS) {
                eg_fmt(out->message, sizeof out->message,
                       "robust access rewrite: id %u exceeds 4 * EMGPU_MAX_SPIRV_WORDS = %u", (unsigned)res, (unsigned)RB_IDS);
                return false;
            }
            r_def[res] = i;
            r_type[res] = has_type ? w[i + 1] : 0;
        }
        if (op == SpvOpDecorate && len >= 4 && w[i + 1] < RB_IDS) {
            if (w[i + 2] == SpvDecorationDescriptorSet) r_set[w[i + 1]] = w[i + 3];
            if (w[i + 2] == SpvDecorationBinding) r_bind[w[i + 1]] = w[i + 3];
        } else if (op == SpvOpExtInstImport && len == 6 && eg_memcmp(&w[i + 2], "GLSL.std.450", 13) == 0) {
            R.glsl_import = w[i + 1];
        } else if (op == SpvOpTypeInt && w[i + 2] == 32u && w[i + 3] == 0u) {
            R.uint_type = w[i + 1];
        } else if (op == SpvOpConstant && len == 4 && op_of(w, r_def[w[i + 1]]) == SpvOpTypeInt) {
            r_isconst[w[i + 2]] = 1;
            r_cval[w[i + 2]] = w[i + 3];
        } else if (op == SpvOpVariable) {
            bool buffer = w[i + 3] == SpvStorageClassUniform || w[i + 3] == SpvStorageClassStorageBuffer;
            bool local = w[i + 3] == SpvStorageClassWorkgroup || w[i + 3] == SpvStorageClassPrivate ||
                         w[i + 3] == SpvStorageClassFunction;
            if ((buffer && (R.what & EG_SPIRV_ROBUST_BUFFERS)) || (local && (R.what & EG_SPIRV_ROBUST_LOCALS)))
                r_var[w[i + 2]] = w[i + 2];
        }
    }
    return true;
}

/* The id of uint constant v (new ones are declared before the first function). */
static uint32_t const_id(uint32_t v)
{
    for (uint32_t k = 0; k < R.const_count; k++)
        if (R.const_val[k] == v) return R.const_id[k];
    if (R.const_count == RB_MAX_CONSTS) return 0;
    R.const_val[R.const_count] = v;
    return R.const_id[R.const_count++] = R.bound++;
}

/* The length uniform of buffer variable var (whose block's last member is a runtime array). */
static int len_index(const uint32_t *w, uint32_t var, eg_spirv_robust_t *out)
{
    for (uint32_t k = 0; k < out->len_count; k++)
        if (out->len[k].var == var) return (int)k;
    if (out->len_count == EG_SPIRV_ROBUST_MAX_LENS) return -1;
    uint32_t ptr = r_def[r_type[var]], st = ptr ? r_def[w[ptr + 3]] : 0;
    if (op_of(w, st) != SpvOpTypeStruct) return -1;
    eg_spirv_len_var_t *l = &out->len[out->len_count];
    l->var = var;
    l->id = R.bound++;
    l->group = r_set[var];
    l->binding = r_bind[var];
    l->offset_B = 0;
    l->stride_B = 0;
    R.rt_struct[out->len_count] = w[st + 1];
    R.rt_member[out->len_count] = (w[st] >> 16) - 3u;   /* the last member */
    return (int)out->len_count++;
}

/* Which indices of the access chain at `at` need a clamp, and to what. False: none. */
static bool plan_chain(const uint32_t *w, uint32_t at, plan_t *p, eg_spirv_robust_t *out)
{
    uint32_t len = w[at] >> 16, base = w[at + 3], var = base < RB_IDS ? r_var[base] : 0;
    if (!var) return false;
    r_var[w[at + 2]] = var;   /* the result points into the same binding */
    uint32_t ptr = r_def[r_type[base]];
    if (op_of(w, ptr) != SpvOpTypePointer) return false;
    uint32_t cur = w[ptr + 3];
    bool any = false;
    for (uint32_t k = 0; k + 4u < len && k < RB_MAX_INDICES; k++) {
        uint32_t idx = w[at + 4 + k], d = cur < RB_IDS ? r_def[cur] : 0, top = 0, count = 0;
        bool is_const = idx < RB_IDS && r_isconst[idx];
        p->kind[k] = 0;
        switch (op_of(w, d)) {
        case SpvOpTypeStruct:
            if (!is_const || r_cval[idx] + 2u >= (w[d] >> 16)) return any;
            cur = w[d + 2 + r_cval[idx]];
            continue;
        case SpvOpTypeArray:
            if (!r_isconst[w[d + 3]]) return any;   /* a specialization-constant length: left alone */
            count = r_cval[w[d + 3]];
            top = w[d + 2];
            break;
        case SpvOpTypeRuntimeArray: top = w[d + 2]; break;
        case SpvOpTypeVector:
        case SpvOpTypeMatrix: count = w[d + 3]; top = w[d + 2]; break;
        default: return any;
        }
        cur = top;
        uint32_t it = idx < RB_IDS ? r_def[r_type[idx]] : 0;
        if (op_of(w, it) != SpvOpTypeInt || w[it + 2] != 32u) continue;   /* WebGPU indices are 32-bit */
        if (op_of(w, d) == SpvOpTypeRuntimeArray) {
            int li = len_index(w, var, out);
            if (li < 0) continue;
            p->kind[k] = 2;
            p->arg[k] = (uint32_t)li;
            R.need_one = true;
        } else {
            if (is_const && r_cval[idx] < count) continue;
            if (!count) continue;
            p->kind[k] = 1;
            p->arg[k] = const_id(count - 1u);
            if (!p->arg[k]) { p->kind[k] = 0; continue; }
        }
        any = true;
    }
    return any;
}

/* Member offsets and array strides of the runtime arrays behind the length uniforms. */
static void layout_of_lens(const uint32_t *w, uint32_t n, eg_spirv_robust_t *out)
{
    for (uint32_t i = EG_SPIRV_HEADER_WORDS; i < n && (w[i] >> 16); i += w[i] >> 16) {
        uint32_t op = w[i] & 0xFFFFu;
        for (uint32_t k = 0; k < out->len_count; k++) {
            if (op == SpvOpMemberDecorate && w[i + 1] == R.rt_struct[k] && w[i + 2] == R.rt_member[k] &&
                w[i + 3] == SpvDecorationOffset)
                out->len[k].offset_B = w[i + 4];
            if (op == SpvOpDecorate && w[i + 2] == SpvDecorationArrayStride) {
                uint32_t st = r_def[R.rt_struct[k]];
                if (st && w[st + 2 + R.rt_member[k]] == w[i + 1]) out->len[k].stride_B = w[i + 3];
            }
        }
    }
}

typedef struct emit { uint32_t *w, n, cap; } emit_t;

static void put(emit_t *e, const uint32_t *src, uint32_t count)
{
    if (e->n + count <= e->cap) eg_memcpy(e->w + e->n, src, count * sizeof *src);
    e->n += count;
}

static void put_globals(emit_t *e, const eg_spirv_robust_t *out)
{
    if (R.new_uint) { const uint32_t t[4] = { (4u << 16) | SpvOpTypeInt, R.uint_type, 32u, 0u }; put(e, t, 4); }
    if (out->len_count) {
        const uint32_t pt[4] = { (4u << 16) | SpvOpTypePointer, R.ptr_type, SpvStorageClassUniformConstant, R.uint_type };
        put(e, pt, 4);
    }
    for (uint32_t k = 0; k < out->len_count; k++) {
        const uint32_t v[4] = { (4u << 16) | SpvOpVariable, R.ptr_type, out->len[k].id, SpvStorageClassUniformConstant };
        put(e, v, 4);
    }
    for (uint32_t k = 0; k < R.const_count; k++) {
        const uint32_t c[4] = { (4u << 16) | SpvOpConstant, R.uint_type, R.const_id[k], R.const_val[k] };
        put(e, c, 4);
    }
}

/* umin(index as uint, bound) ahead of the chain; returns the clamped index id. */
static uint32_t put_clamp(emit_t *e, const uint32_t *w, uint32_t idx, const plan_t *p, uint32_t k,
                          const eg_spirv_robust_t *out)
{
    uint32_t it = r_def[r_type[idx]], u = idx, hi = p->arg[k];
    if (w[it + 3] != 0u) {   /* signed: reinterpret */
        u = R.bound++;
        const uint32_t b[4] = { (4u << 16) | SpvOpBitcast, R.uint_type, u, idx };
        put(e, b, 4);
    }
    if (p->kind[k] == 2) {
        uint32_t l = R.bound++;
        hi = R.bound++;
        const uint32_t ld[4] = { (4u << 16) | SpvOpLoad, R.uint_type, l, out->len[p->arg[k]].id };
        const uint32_t sub[5] = { (5u << 16) | SpvOpISub, R.uint_type, hi, l, R.one_id };
        put(e, ld, 4);
        put(e, sub, 5);
    }
    uint32_t r = R.bound++;
    const uint32_t m[7] = { (7u << 16) | SpvOpExtInst, R.uint_type, r, R.glsl_import, GLSLstd450UMin, u, hi };
    put(e, m, 7);
    return r;
}

bool eg_spirv_robust_rewrite(const uint32_t *w, uint32_t n, uint32_t what, uint32_t *o, uint32_t cap,
                             uint32_t *out_n, eg_spirv_robust_t *out)
{
    eg_memset(&R, 0, sizeof R);
    R.what = what;
    out->len_count = 0;
    out->clamps = 0;
    out->message[0] = '\0';
    R.bound = w[3];
    if (!scan_globals(w, n, out)) return false;
    if (!R.uint_type) { R.uint_type = R.bound++; R.new_uint = true; }
    /* planning pass: which chains clamp, which constants and uniforms they need */
    uint32_t first_fn = 0, mem_model = 0, clamped = 0;
    plan_t p;
    for (uint32_t i = EG_SPIRV_HEADER_WORDS; i < n && (w[i] >> 16); i += w[i] >> 16) {
        uint32_t op = w[i] & 0xFFFFu;
        if (op == SpvOpFunction && !first_fn) first_fn = i;
        if (op == SpvOpMemoryModel) mem_model = i;
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && plan_chain(w, i, &p, out)) clamped++;
        if (op == SpvOpArrayLength && w[i + 3] < RB_IDS && r_var[w[i + 3]] && len_index(w, r_var[w[i + 3]], out) < 0) {
            eg_fmt(out->message, sizeof out->message, "robust access rewrite: more than %u runtime-sized buffers",
                   (unsigned)EG_SPIRV_ROBUST_MAX_LENS);
            return false;
        }
    }
    if (!clamped && !out->len_count) {   /* nothing to do: a plain copy */
        if (n > cap) {
            eg_fmt(out->message, sizeof out->message, "robust access rewrite: %u words do not fit the %u-word scratch",
                   (unsigned)n, (unsigned)cap);
            return false;
        }
        eg_memcpy(o, w, n * sizeof *w);
        *out_n = n;
        return true;
    }
    if (R.const_count == RB_MAX_CONSTS) {
        eg_fmt(out->message, sizeof out->message, "robust access rewrite: more than %u distinct array sizes",
               (unsigned)RB_MAX_CONSTS - 1u);
        return false;
    }
    if (R.need_one) R.one_id = const_id(1u);
    if (out->len_count) R.ptr_type = R.bound++;
    if (!R.glsl_import) { R.glsl_import = R.bound++; R.new_import = true; }
    if (!first_fn || !mem_model) { eg_fmt(out->message, sizeof out->message, "robust access rewrite: no function"); return false; }
    if (R.bound >= RB_IDS) {
        eg_fmt(out->message, sizeof out->message, "robust access rewrite: id bound %u exceeds 4 * EMGPU_MAX_SPIRV_WORDS = %u",
               (unsigned)R.bound, (unsigned)RB_IDS);
        return false;
    }
    layout_of_lens(w, n, out);
    /* emission pass: the planning above is repeated chain by chain (same state, same answers) */
    for (uint32_t i = 0; i < RB_IDS && i < w[3]; i++) r_var[i] = op_of(w, r_def[i]) == SpvOpVariable ? r_var[i] : 0;
    emit_t e = { o, 0, cap };
    put(&e, w, EG_SPIRV_HEADER_WORDS);
    for (uint32_t i = EG_SPIRV_HEADER_WORDS; i < n && (w[i] >> 16); i += w[i] >> 16) {
        uint32_t op = w[i] & 0xFFFFu, len = w[i] >> 16;
        if (i == mem_model && R.new_import) {
            const uint32_t imp[6] = { (6u << 16) | SpvOpExtInstImport, R.glsl_import, 0x4C534C47u /* GLSL */,
                                      0x6474732Eu /* .std */, 0x3035342Eu /* .450 */, 0u };
            put(&e, imp, 6);
        }
        if (i == first_fn) put_globals(&e, out);
        if (op == SpvOpArrayLength && w[i + 3] < RB_IDS && r_var[w[i + 3]]) {
            int li = len_index(w, r_var[w[i + 3]], out);
            const uint32_t ld[4] = { (4u << 16) | SpvOpLoad, w[i + 1], w[i + 2], out->len[li].id };
            put(&e, ld, 4);
            continue;
        }
        /* the planning pass registered every constant and uniform: plan_chain only finds them now */
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && plan_chain(w, i, &p, out)) {
            uint32_t chain[4 + RB_MAX_INDICES + 8];
            uint32_t cl = len < (uint32_t)(sizeof chain / sizeof chain[0]) ? len : 0;
            if (cl) {
                eg_memcpy(chain, w + i, cl * sizeof *chain);
                for (uint32_t k = 0; k + 4u < len && k < RB_MAX_INDICES; k++)
                    if (p.kind[k]) { chain[4 + k] = put_clamp(&e, w, w[i + 4 + k], &p, k, out); out->clamps++; }
                put(&e, chain, cl);
                continue;
            }
        }
        put(&e, w + i, len);
    }
    if (e.n > cap) {
        eg_fmt(out->message, sizeof out->message,
               "robust access rewrite: %u words do not fit the %u-word output buffer",
               (unsigned)e.n, (unsigned)cap);
        return false;
    }
    if (R.bound >= RB_IDS) {
        eg_fmt(out->message, sizeof out->message, "robust access rewrite: id bound %u exceeds 4 * EMGPU_MAX_SPIRV_WORDS = %u",
               (unsigned)R.bound, (unsigned)RB_IDS);
        return false;
    }
    o[3] = R.bound;
    *out_n = e.n;
    return true;
}

