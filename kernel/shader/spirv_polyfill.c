/* SPIR-V integer-division polyfill (see spirv_polyfill.h for the WGSL rules it implements). */
#include "kernel/shader/spirv_polyfill.h"

#include "kernel/base/fmt.h"
#include "kernel/base/util.h"
#include "kernel/shader/spirv.h"

enum {
    OP_TYPE_BOOL = 20, OP_TYPE_INT = 21, OP_TYPE_VECTOR = 23, OP_CONSTANT = 43, OP_CONSTANT_COMPOSITE = 44,
    OP_FUNCTION = 54, OP_IADD = 128, OP_ISUB = 130, OP_IMUL = 132, OP_UDIV = 134, OP_SDIV = 135,
    OP_UMOD = 137, OP_SREM = 138, OP_SMOD = 139, OP_LOGICAL_OR = 166, OP_LOGICAL_AND = 167, OP_SELECT = 169,
    OP_IEQUAL = 170, OP_INOTEQUAL = 171, OP_SLESS_THAN = 177, OP_BITWISE_XOR = 198
};

#define HEADER_WORDS 5u
#define DECL_WORDS_MAX 50u   /* bool + bool vector + 4 scalar + 4 composite constants, per type */
#define OP_EXTRA_WORDS_MAX 72u  /* OpSMod: 77 words replace 5 */

/* One division result type and the ids the replacement sequences need for it. */
typedef struct div_type {
    uint32_t type, comp, count, bool_type;
    uint32_t zero, one, minus1, int_min;
} div_type_t;

typedef struct emitter {
    uint32_t *out, cap, n, bound;
} emitter_t;

static void put(emitter_t *e, const uint32_t *w, uint32_t count)
{
    /* Past the end, keep counting so the error can say how many words were needed. */
    if (e->n + count <= e->cap) eg_memcpy(e->out + e->n, w, count * sizeof *w);
    e->n += count;
}

static void put5(emitter_t *e, uint32_t op, uint32_t rt, uint32_t res, uint32_t a, uint32_t b)
{
    const uint32_t w[5] = { (5u << 16) | op, rt, res, a, b };
    put(e, w, 5);
}

static uint32_t put_bin(emitter_t *e, uint32_t op, uint32_t rt, uint32_t a, uint32_t b)
{
    uint32_t id = e->bound++;
    put5(e, op, rt, id, a, b);
    return id;
}

static uint32_t put_select(emitter_t *e, uint32_t rt, uint32_t cond, uint32_t t, uint32_t f)
{
    uint32_t id = e->bound++;
    const uint32_t w[6] = { (6u << 16) | OP_SELECT, rt, id, cond, t, f };
    put(e, w, 6);
    return id;
}

static bool is_div(uint32_t op)
{
    return op == OP_SDIV || op == OP_UDIV || op == OP_SREM || op == OP_SMOD || op == OP_UMOD;
}

static uint32_t first_function(const uint32_t *in, uint32_t n)
{
    uint32_t i = HEADER_WORDS;
    while (i < n && (in[i] >> 16) && (in[i] & 0xFFFFu) != OP_FUNCTION) i += in[i] >> 16;
    return i;
}

uint32_t eg_spirv_polyfill_words_max(const uint32_t *in, uint32_t in_words)
{
    uint32_t ops = 0;
    for (uint32_t i = HEADER_WORDS; i < in_words && (in[i] >> 16); i += in[i] >> 16)
        ops += is_div(in[i] & 0xFFFFu) && (in[i] >> 16) == 5u;
    return in_words + EG_SPIRV_POLYFILL_MAX_TYPES * DECL_WORDS_MAX + ops * OP_EXTRA_WORDS_MAX;
}

/* Fills comp/count for a 32-bit integer scalar or vector type; false for anything else. */
static bool describe_type(const uint32_t *in, uint32_t end, div_type_t *t)
{
    uint32_t scalar = t->type;
    t->count = 1;
    for (uint32_t i = HEADER_WORDS; i < end && (in[i] >> 16); i += in[i] >> 16)
        if ((in[i] & 0xFFFFu) == OP_TYPE_VECTOR && in[i + 1] == t->type) { scalar = in[i + 2]; t->count = in[i + 3]; }
    t->comp = scalar;
    for (uint32_t i = HEADER_WORDS; i < end && (in[i] >> 16); i += in[i] >> 16)
        if ((in[i] & 0xFFFFu) == OP_TYPE_INT && in[i + 1] == scalar) return in[i + 2] == 32u;
    return false;
}

/* Finds the bool type of t's width (0 when the module lacks it). */
static uint32_t find_bool(const uint32_t *in, uint32_t end, uint32_t count)
{
    uint32_t b = 0, v = 0;
    for (uint32_t i = HEADER_WORDS; i < end && (in[i] >> 16); i += in[i] >> 16)
        if ((in[i] & 0xFFFFu) == OP_TYPE_BOOL) b = in[i + 1];
    if (count == 1 || !b) return b;
    for (uint32_t i = HEADER_WORDS; i < end && (in[i] >> 16); i += in[i] >> 16)
        if ((in[i] & 0xFFFFu) == OP_TYPE_VECTOR && in[i + 2] == b && in[i + 3] == count) v = in[i + 1];
    return v;
}

/* Declares what the sequences for t need, before the first function (types section). */
static void declare(emitter_t *e, const uint32_t *in, uint32_t end, div_type_t *t, uint32_t *bool_scalar)
{
    if (!*bool_scalar) *bool_scalar = find_bool(in, end, 1);
    if (!*bool_scalar) {
        *bool_scalar = e->bound++;
        const uint32_t w[2] = { (2u << 16) | OP_TYPE_BOOL, *bool_scalar };
        put(e, w, 2);
    }
    t->bool_type = t->count == 1 ? *bool_scalar : find_bool(in, end, t->count);
    if (!t->bool_type) {
        t->bool_type = e->bound++;
        const uint32_t w[4] = { (4u << 16) | OP_TYPE_VECTOR, t->bool_type, *bool_scalar, t->count };
        put(e, w, 4);
    }
    /* Duplicate constants are valid SPIR-V (only non-aggregate types must be unique). */
    const uint32_t values[4] = { 0u, 1u, 0xFFFFFFFFu, 0x80000000u };
    uint32_t *ids[4] = { &t->zero, &t->one, &t->minus1, &t->int_min };
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t s = e->bound++;
        const uint32_t c[4] = { (4u << 16) | OP_CONSTANT, t->comp, s, values[k] };
        put(e, c, 4);
        *ids[k] = s;
        if (t->count > 1) {
            uint32_t v = e->bound++;
            const uint32_t head[3] = { ((3u + t->count) << 16) | OP_CONSTANT_COMPOSITE, t->type, v };
            put(e, head, 3);
            for (uint32_t j = 0; j < t->count; j++) put(e, &s, 1);
            *ids[k] = v;
        }
    }
}

/* The divisor with 1 in the lanes WGSL gives a fixed answer for (b == 0; signed INT_MIN / -1). */
static uint32_t safe_divisor(emitter_t *e, const div_type_t *t, bool is_signed, uint32_t a, uint32_t b)
{
    uint32_t bad = put_bin(e, OP_IEQUAL, t->bool_type, b, t->zero);
    if (is_signed) {
        uint32_t amin = put_bin(e, OP_IEQUAL, t->bool_type, a, t->int_min);
        uint32_t bm1 = put_bin(e, OP_IEQUAL, t->bool_type, b, t->minus1);
        uint32_t ovf = put_bin(e, OP_LOGICAL_AND, t->bool_type, amin, bm1);
        bad = put_bin(e, OP_LOGICAL_OR, t->bool_type, bad, ovf);
    }
    return put_select(e, t->type, bad, t->one, b);
}

static void rewrite(emitter_t *e, const div_type_t *t, uint32_t op, uint32_t res, uint32_t a, uint32_t b)
{
    bool is_signed = op == OP_SDIV || op == OP_SREM || op == OP_SMOD;
    uint32_t bs = safe_divisor(e, t, is_signed, a, b);
    if (op == OP_SDIV || op == OP_UDIV || op == OP_UMOD) {
        put5(e, op, t->type, res, a, bs);
        return;
    }
    /* Truncating remainder from OpSDiv: a - (a / bs) * bs. */
    uint32_t q = put_bin(e, OP_SDIV, t->type, a, bs);
    uint32_t m = put_bin(e, OP_IMUL, t->type, q, bs);
    if (op == OP_SREM) {
        put5(e, OP_ISUB, t->type, res, a, m);
        return;
    }
    /* OpSMod: a nonzero remainder whose sign differs from the divisor's moves by one divisor. */
    uint32_t r = put_bin(e, OP_ISUB, t->type, a, m);
    uint32_t nz = put_bin(e, OP_INOTEQUAL, t->bool_type, r, t->zero);
    uint32_t x = put_bin(e, OP_BITWISE_XOR, t->type, r, bs);
    uint32_t neg = put_bin(e, OP_SLESS_THAN, t->bool_type, x, t->zero);
    uint32_t fix = put_bin(e, OP_LOGICAL_AND, t->bool_type, nz, neg);
    uint32_t rb = put_bin(e, OP_IADD, t->type, r, bs);
    const uint32_t w[6] = { (6u << 16) | OP_SELECT, t->type, res, fix, rb, r };
    put(e, w, 6);
}

static div_type_t *lookup(div_type_t *types, uint32_t count, uint32_t type)
{
    for (uint32_t k = 0; k < count; k++)
        if (types[k].type == type) return &types[k];
    return NULL;
}

/* Collects the 32-bit integer result types of the module's divisions; false when too many. */
static bool collect_types(const uint32_t *in, uint32_t n, uint32_t fn, div_type_t *types, uint32_t *count,
                          eg_spirv_polyfill_result_t *res)
{
    for (uint32_t i = fn; i < n && (in[i] >> 16); i += in[i] >> 16) {
        if (!is_div(in[i] & 0xFFFFu) || (in[i] >> 16) != 5u || lookup(types, *count, in[i + 1])) continue;
        div_type_t t = { .type = in[i + 1] };
        if (!describe_type(in, fn, &t)) continue;
        if (*count == EG_SPIRV_POLYFILL_MAX_TYPES) {
            eg_fmt(res->message, sizeof res->message,
                   "the module divides integers of more than EG_SPIRV_POLYFILL_MAX_TYPES = %u types",
                   (unsigned)EG_SPIRV_POLYFILL_MAX_TYPES);
            return false;
        }
        types[(*count)++] = t;
    }
    return true;
}

bool eg_spirv_polyfill_int_div(const uint32_t *in, uint32_t in_words, uint32_t *out, uint32_t out_cap,
                               eg_spirv_polyfill_result_t *res)
{
    eg_memset(res, 0, sizeof *res);
    if (in_words < HEADER_WORDS) {
        eg_fmt(res->message, sizeof res->message, "the module has %u words, fewer than the 5-word header",
               (unsigned)in_words);
        return false;
    }
    div_type_t types[EG_SPIRV_POLYFILL_MAX_TYPES];
    uint32_t type_count = 0, fn = first_function(in, in_words), bool_scalar = 0;
    if (!collect_types(in, in_words, fn, types, &type_count, res)) return false;
    emitter_t e = { out, out_cap, 0, in[3] };
    put(&e, in, fn);
    for (uint32_t k = 0; k < type_count; k++) declare(&e, in, fn, &types[k], &bool_scalar);
    for (uint32_t i = fn; i < in_words && (in[i] >> 16);) {
        uint32_t op = in[i] & 0xFFFFu, len = in[i] >> 16;
        const div_type_t *t = len == 5u && is_div(op) ? lookup(types, type_count, in[i + 1]) : NULL;
        if (t) {
            rewrite(&e, t, op, in[i + 2], in[i + 3], in[i + 4]);
            res->rewritten++;
        } else {
            put(&e, in + i, len);
        }
        i += len;
    }
    if (e.n > out_cap) {
        eg_fmt(res->message, sizeof res->message,
               "the integer-division polyfill needs %u words of output, the buffer holds %u", (unsigned)e.n,
               (unsigned)out_cap);
        return false;
    }
    out[3] = e.bound;
    res->word_count = e.n;
    return true;
}
