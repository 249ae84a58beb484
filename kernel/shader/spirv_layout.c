/* SPIR-V validation: memory layout of Block structs in Uniform and StorageBuffer (Offsets, strides). */
#include "kernel/shader/spirv_internal.h"

/* WebGPU env "Memory Layout": Uniform blocks follow Vulkan's standard uniform buffer layout
 * (std140: arrays, matrices and structs aligned to 16, strides multiples of 16), StorageBuffer
 * blocks the standard storage buffer layout (std430: the same without the rounding to 16). With
 * every member at a multiple of its base alignment, no vector can straddle a 16-byte boundary
 * improperly, so the alignment check covers the straddle rule too.
 *
 * No recursion: each struct type is checked on its own, relative to its own start. Member types
 * are declared before their struct, so one forward pass computes every struct's std430 alignment
 * (kept in the id flags), and checking proceeds one nesting level per pass over the types. */

enum { UBO = 0, SSBO = 1 };

/* OpMemberDecorate of struct s, member i: finds dec and returns its first literal in *value. */
static bool member_dec(const eg_spirv_ctx_t *c, uint32_t s, uint32_t i, uint32_t dec, uint32_t *value)
{
    const eg_spirv_module_t *m = c->m;
    for (uint32_t w = c->anno_begin; w < c->anno_end; w += eg_spirv_wc(m, w))
        if (eg_spirv_op(m, w) == SpvOpMemberDecorate && eg_spirv_word(m, w, 1) == s &&
            eg_spirv_word(m, w, 2) == i && eg_spirv_word(m, w, 3) == dec) {
            if (value) *value = eg_spirv_word(m, w, 4);
            return true;
        }
    return false;
}

static uint32_t struct_align(const eg_spirv_module_t *m, uint32_t s)
{
    uint32_t code = (m->ids[s].flags >> EG_SPIRV_ID_ALIGN_SHIFT) & 3u;
    return code ? 2u << code : 4u;
}

/* Components of a matrix's column (row when row-major) vector. */
static uint32_t matrix_vec_n(const eg_spirv_ctx_t *c, uint32_t mat, bool row_major)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t d = eg_spirv_def(m, mat), col = eg_spirv_word(m, d, 2);
    return row_major ? eg_spirv_word(m, d, 3) : eg_spirv_word(m, eg_spirv_def(m, col), 3);
}

/* Base alignment of member i (type t) of struct s in the given layout. */
static uint32_t base_align_raw(const eg_spirv_ctx_t *c, uint32_t s, uint32_t i, uint32_t t, int layout)
{
    const eg_spirv_module_t *m = c->m;
    bool round16 = false;
    for (uint32_t guard = 0; guard < m->bound; guard++) {
        switch (eg_spirv_def_op(m, t)) {
        case SpvOpTypeVector: {
            uint32_t n = eg_spirv_word(m, eg_spirv_def(m, t), 3);
            return round16 || n > 2 ? 16u : 4u * n;
        }
        case SpvOpTypeMatrix: {
            uint32_t n = matrix_vec_n(c, t, member_dec(c, s, i, SpvDecorationRowMajor, NULL));
            return layout == UBO || n > 2 ? 16u : 4u * n;
        }
        case SpvOpTypeArray: case SpvOpTypeRuntimeArray:
            round16 = layout == UBO;
            t = eg_spirv_word(m, eg_spirv_def(m, t), 2);
            continue;
        case SpvOpTypeStruct:
            return layout == UBO ? 16u : struct_align(m, t);
        default:
            return round16 ? 16u : 4u;
        }
    }
    return 16u;
}

/* Never 0, so the checks that divide by it stay defined on malformed input (an empty struct, a
 * vector or matrix of 0 components) that other rules reject: found by the fuzzer. */
static uint32_t base_align(const eg_spirv_ctx_t *c, uint32_t s, uint32_t i, uint32_t t, int layout)
{
    uint32_t al = base_align_raw(c, s, i, t, layout);
    return al ? al : 1u;
}

/* Bytes from a member's Offset to its end (arrays: length x ArrayStride; structs: through the
 * member at the highest Offset). */
static uint32_t extent(const eg_spirv_ctx_t *c, uint32_t s, uint32_t i, uint32_t t)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t acc = 0;
    for (uint32_t guard = 0; guard < m->bound; guard++) {
        uint32_t d = eg_spirv_def(m, t), stride = 16;
        switch (eg_spirv_def_op(m, t)) {
        case SpvOpTypeVector: return acc + 4u * eg_spirv_word(m, d, 3);
        case SpvOpTypeMatrix: {
            bool rm = member_dec(c, s, i, SpvDecorationRowMajor, NULL);
            uint32_t col_n = matrix_vec_n(c, t, false);
            member_dec(c, s, i, SpvDecorationMatrixStride, &stride);
            return acc + stride * (rm ? col_n : eg_spirv_word(m, d, 3));
        }
        case SpvOpTypeArray: {
            uint32_t len = eg_spirv_word(m, eg_spirv_def(m, eg_spirv_word(m, d, 3)), 3);
            eg_spirv_find_decoration(c, t, SpvDecorationArrayStride, &stride);
            return acc + len * stride;
        }
        case SpvOpTypeRuntimeArray: return acc;
        case SpvOpTypeStruct: {
            uint32_t best = ~0u, best_off = 0;
            for (uint32_t k = 0; k + 2 < eg_spirv_wc(m, d); k++) {
                uint32_t off;
                if (member_dec(c, t, k, SpvDecorationOffset, &off) && (best == ~0u || off >= best_off))
                    best = k, best_off = off;
            }
            if (best == ~0u) return acc;
            acc += best_off;
            s = t, i = best, t = eg_spirv_word(m, d, 2 + best);
            continue;
        }
        default: return acc + 4u;
        }
    }
    return acc;
}

/* Strides along member i's array levels and its matrix; marks member structs for checking. */
static bool check_strides(eg_spirv_ctx_t *c, uint32_t sw, uint32_t s, uint32_t i, uint32_t t, int layout,
                          bool *again)
{
    eg_spirv_module_t *m = c->m;
    const char *lname = layout == UBO ? "Uniform" : "StorageBuffer";
    for (uint32_t guard = 0; guard < m->bound; guard++) {
        uint32_t op = eg_spirv_def_op(m, t), d = eg_spirv_def(m, t), stride = 0;
        if (op == SpvOpTypeArray || op == SpvOpTypeRuntimeArray) {
            uint32_t el = eg_spirv_word(m, d, 2);
            uint32_t need = extent(c, s, i, el);
            uint32_t al = base_align(c, s, i, t, layout);
            if (!eg_spirv_find_decoration(c, t, SpvDecorationArrayStride, &stride))
                return eg_spirv_fail(c, EG_SPIRV_RULE_LAYOUT_STRIDE, sw, "member %u: array %%%u in a %s "
                                     "block has no ArrayStride", (unsigned)i, (unsigned)t, lname);
            if (stride < need || stride % al)
                return eg_spirv_fail(c, EG_SPIRV_RULE_LAYOUT_STRIDE, sw, "member %u: ArrayStride %u of "
                                     "%%%u must be >= %u (element size) and a multiple of %u in a %s block",
                                     (unsigned)i, (unsigned)stride, (unsigned)t, (unsigned)need,
                                     (unsigned)al, lname);
            t = el;
            continue;
        }
        if (op == SpvOpTypeMatrix) {
            bool rm = member_dec(c, s, i, SpvDecorationRowMajor, NULL);
            uint32_t n = matrix_vec_n(c, t, rm), al = base_align(c, s, i, t, layout);
            if (!member_dec(c, s, i, SpvDecorationMatrixStride, &stride))
                return eg_spirv_fail(c, EG_SPIRV_RULE_LAYOUT_STRIDE, sw, "member %u: matrix in a %s block "
                                     "has no MatrixStride", (unsigned)i, lname);
            if (stride < 4u * n || stride % al)
                return eg_spirv_fail(c, EG_SPIRV_RULE_LAYOUT_STRIDE, sw, "member %u: MatrixStride %u must "
                                     "be >= %u and a multiple of %u (%s, %s block)", (unsigned)i,
                                     (unsigned)stride, (unsigned)(4u * n), (unsigned)al,
                                     rm ? "RowMajor" : "ColMajor", lname);
        } else if (op == SpvOpTypeStruct) {
            uint16_t want = layout == UBO ? EG_SPIRV_ID_LAYOUT_UBO : EG_SPIRV_ID_LAYOUT_SSBO;
            if (!(m->ids[t].flags & want)) {
                m->ids[t].flags |= want;
                *again = true;
            }
        }
        return true;
    }
    return true;
}

/* One struct, relative to its own start: Offsets present, aligned, increasing, non-overlapping. */
static bool check_struct(eg_spirv_ctx_t *c, uint32_t sw, int layout, bool *again)
{
    const eg_spirv_module_t *m = c->m;
    const char *lname = layout == UBO ? "Uniform" : "StorageBuffer";
    uint32_t s = eg_spirv_word(m, sw, 1), end = 0, next_min = 0;
    for (uint32_t i = 0; i + 2 < eg_spirv_wc(m, sw); i++) {
        uint32_t t = m->words[sw + 2 + i], off, al = base_align(c, s, i, t, layout);
        uint32_t op = eg_spirv_def_op(m, t);
        if (!member_dec(c, s, i, SpvDecorationOffset, &off))
            return eg_spirv_fail(c, EG_SPIRV_RULE_LAYOUT_OFFSET, sw, "member %u of a struct in a %s block "
                                 "has no Offset decoration", (unsigned)i, lname);
        if (off % al)
            return eg_spirv_fail(c, EG_SPIRV_RULE_LAYOUT_OFFSET, sw, "member %u: Offset %u is not a multiple "
                                 "of its base alignment %u (%s block layout)", (unsigned)i, (unsigned)off,
                                 (unsigned)al, lname);
        if (off < next_min)
            return eg_spirv_fail(c, EG_SPIRV_RULE_LAYOUT_OFFSET, sw, "member %u: Offset %u overlaps or "
                                 "precedes the previous member (next free offset %u, %s block)",
                                 (unsigned)i, (unsigned)off, (unsigned)next_min, lname);
        end = off + extent(c, s, i, t);
        next_min = end;
        /* After a struct, array or matrix, the next member starts at its alignment (std140: 16). */
        if (op == SpvOpTypeStruct || op == SpvOpTypeArray || op == SpvOpTypeMatrix)
            next_min = (end + al - 1u) / al * al;
        if (!check_strides(c, sw, s, i, t, layout, again)) return false;
    }
    return true;
}

/* std430 alignment of every struct, in declaration order (members come first). */
static void compute_struct_aligns(eg_spirv_ctx_t *c)
{
    eg_spirv_module_t *m = c->m;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w)) {
        if (eg_spirv_op(m, w) != SpvOpTypeStruct) continue;
        uint32_t s = eg_spirv_word(m, w, 1), al = 4, code = 1;
        for (uint32_t i = 0; i + 2 < eg_spirv_wc(m, w); i++) {
            uint32_t a = base_align(c, s, i, m->words[w + 2 + i], SSBO);
            if (a > al) al = a;
        }
        code = al >= 16 ? 3u : al >= 8 ? 2u : 1u;
        m->ids[s].flags = (uint16_t)((m->ids[s].flags & ~(3u << EG_SPIRV_ID_ALIGN_SHIFT)) |
                                     (code << EG_SPIRV_ID_ALIGN_SHIFT));
    }
}

bool eg_spirv_validate_layout(eg_spirv_ctx_t *c)
{
    eg_spirv_module_t *m = c->m;
    compute_struct_aligns(c);
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w)) {
        uint32_t sc = eg_spirv_word(m, w, 2), p = eg_spirv_word(m, w, 3);
        if (eg_spirv_op(m, w) != SpvOpTypePointer || eg_spirv_def_op(m, p) != SpvOpTypeStruct ||
            !(m->ids[p].flags & EG_SPIRV_ID_BLOCK))
            continue;
        if (sc == SpvStorageClassUniform) m->ids[p].flags |= EG_SPIRV_ID_LAYOUT_UBO;
        if (sc == SpvStorageClassStorageBuffer) m->ids[p].flags |= EG_SPIRV_ID_LAYOUT_SSBO;
    }
    /* Each pass checks the marked structs and marks their member structs, one level deeper. */
    bool again = true;
    while (again) {
        again = false;
        for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w)) {
            if (eg_spirv_op(m, w) != SpvOpTypeStruct) continue;
            eg_spirv_id_t *id = &m->ids[eg_spirv_word(m, w, 1)];
            for (int layout = UBO; layout <= SSBO; layout++) {
                uint16_t want = layout == UBO ? EG_SPIRV_ID_LAYOUT_UBO : EG_SPIRV_ID_LAYOUT_SSBO;
                uint16_t done = layout == UBO ? EG_SPIRV_ID_LAYOUT_UBO_DONE : EG_SPIRV_ID_LAYOUT_SSBO_DONE;
                if (!(id->flags & want) || (id->flags & done)) continue;
                id->flags |= done;
                if (!check_struct(c, w, layout, &again)) return false;
            }
        }
    }
    return true;
}
