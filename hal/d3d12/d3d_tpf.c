/* hal/d3d12 TPF emitter: entry point, token and operand writers, temps and scalarized values. */
#include "config/emgpu_config.h"

#if EMGPU_D3D12_TPF

#include <stdarg.h>

#include "hal/d3d12/d3d_tpf_internal.h"
#include "kernel/base/fmt.h"
#include "kernel/base/util.h"

bool tpf_fail(tpf_t *t, const char *fmt, ...)
{
    if (t->failed) return false;
    va_list ap;
    va_start(ap, fmt);
    eg_vfmt(t->err->message, sizeof t->err->message, fmt, ap);
    va_end(ap);
    t->failed = true;
    return false;
}

/* Constructs the emitter does not lower name the instruction's index and opcode. */
bool tpf_unsupported(tpf_t *t, const eg_ir_inst_t *in, const char *what)
{
    return tpf_fail(t, "DXBC emitter: %s is not lowered (instruction %u, opcode %u)", what,
                    (unsigned)(in - t->ir->insts), (unsigned)in->op);
}

static bool full(tpf_t *t, const char *what)
{
    return tpf_fail(t, "%s full: the DXBC emitter's %s table does not fit; raise %s", t->arena->name, what,
                    t->arena->knob);
}

void tpf_tok(tpf_t *t, uint32_t w)
{
    if (t->code_n >= t->code_cap) { full(t, "code"); return; }
    t->code[t->code_n++] = w;
}

void tpf_dtok(tpf_t *t, uint32_t w)
{
    if (t->decl_n >= t->decl_cap) { full(t, "declaration"); return; }
    t->decl[t->decl_n++] = w;
}

/* ---- temps and values ---- */

uint32_t tpf_temp(tpf_t *t) { return t->temps++; }

uint32_t tpf_vtemp(tpf_t *t)
{
    t->temps = EG_ALIGN_UP(t->temps, 4u) + 4u;
    return t->temps / 4u - 1u;
}

tpf_sc_t tpf_imm(uint32_t bits) { return (tpf_sc_t){ bits, 1 }; }
tpf_sc_t tpf_tsc(uint32_t temp) { return (tpf_sc_t){ temp, 0 }; }

tpf_val_t tpf_alias_comps(tpf_t *t, uint32_t n)
{
    tpf_val_t v = { TV_COMPS, (uint16_t)n, t->comps_n };
    if (t->comps_n + n > t->comps_cap) { full(t, "component"); v.n = 0; v.idx = 0; return v; }
    for (uint32_t i = 0; i < n; i++) t->comps[t->comps_n + i] = tpf_imm(0);
    t->comps_n += n;
    return v;
}

tpf_val_t tpf_new_comps(tpf_t *t, uint32_t n)
{
    tpf_val_t v = tpf_alias_comps(t, n);
    for (uint32_t i = 0; i < v.n; i++) t->comps[v.idx + i] = tpf_tsc(tpf_temp(t));
    return v;
}

tpf_sc_t *tpf_c(tpf_t *t, const tpf_val_t *v) { return &t->comps[v->idx]; }

/* Bool constants are 0/1 in the IR; TPF comparisons give 0 / ~0, which every bool here uses. */
tpf_sc_t tpf_bool_const(uint32_t v) { return tpf_imm(v ? 0xffffffffu : 0u); }

static tpf_val_t const_val(tpf_t *t, uint32_t id)
{
    const eg_ir_const_t *k = &t->ir->consts[t->ir->values[id].index];
    uint32_t n = eg_ir_scalars(t->ir, k->type);
    bool is_bool = eg_ir_scalar_kind(t->ir, k->type) == EG_IR_BOOL;
    tpf_val_t v = tpf_alias_comps(t, n);
    for (uint32_t i = 0; i < v.n; i++) {
        uint32_t bits = k->scalars[i];
        if (k->spec_id != ~0u && n == 1)      /* pipeline-overridable constant */
            for (uint32_t c = 0; c < t->in->constant_count; c++)
                if (t->in->constants[c].spec_id == k->spec_id) bits = t->in->constants[c].bits;
        t->comps[v.idx + i] = is_bool ? tpf_bool_const(bits) : tpf_imm(bits);
    }
    return v;
}

tpf_val_t *tpf_val(tpf_t *t, uint32_t id)
{
    static tpf_val_t none;
    if (id == 0 || id >= t->ir->value_count) { none.kind = TV_NONE; return &none; }
    if (t->ir->values[id].kind == EG_IR_VAL_CONST && t->vals[id].kind == TV_NONE) t->vals[id] = const_val(t, id);
    return &t->vals[id];
}

tpf_sc_t *tpf_comps(tpf_t *t, uint32_t id, uint32_t *n)
{
    static tpf_sc_t zero[16];
    tpf_val_t *v = tpf_val(t, id);
    if (v->kind != TV_COMPS) {
        tpf_fail(t, "DXBC emitter: value %u is used as a number but is not one (kind %u)", (unsigned)id,
                 (unsigned)v->kind);
        *n = 0;
        return zero;
    }
    *n = v->n;
    return &t->comps[v->idx];
}

uint32_t tpf_new_ptr(tpf_t *t, const tpf_ptr_t *p)
{
    if (t->ptrs_n >= t->ptrs_cap) { full(t, "pointer"); return 0; }
    t->ptrs[t->ptrs_n] = *p;
    return t->ptrs_n++;
}

/* ---- instructions and operands ---- */

static uint32_t op_start;

void tpf_begin(tpf_t *t, uint32_t opcode_token)
{
    op_start = t->code_n;
    tpf_tok(t, opcode_token);
}

/* The instruction length (in dwords, opcode token included) lives in bits 24..30. */
void tpf_end(tpf_t *t)
{
    if (t->failed) return;
    uint32_t len = t->code_n - op_start;
    if (len > 127) { tpf_fail(t, "DXBC emitter: instruction of %u dwords", (unsigned)len); return; }
    t->code[op_start] |= len << 24;
}

/* Operand token: bits 0-1 component count (2 = four), 2-3 selection mode (0 mask, 1 swizzle,
 * 2 select one), 4-11 mask/swizzle/component, 12-19 register type, 20-21 index dimension,
 * 22-24/25-27/28-30 index representations (0 = immediate 32-bit). */
void tpf_o_reg(tpf_t *t, uint32_t type, uint32_t order, const uint32_t *idx, uint32_t comps_mode_bits)
{
    tpf_tok(t, comps_mode_bits | type << 12 | order << 20);
    for (uint32_t i = 0; i < order; i++) tpf_tok(t, idx[i]);
}

void tpf_o_dstv(tpf_t *t, uint32_t reg, uint32_t mask) { tpf_o_reg(t, TPF_R_TEMP, 1, &reg, 2u | mask << 4); }
void tpf_o_dst(tpf_t *t, uint32_t temp) { tpf_o_dstv(t, temp / 4u, 1u << (temp % 4u)); }
void tpf_o_srcv(tpf_t *t, uint32_t reg, uint32_t swz) { tpf_o_reg(t, TPF_R_TEMP, 1, &reg, 2u | 1u << 2 | swz << 4); }

void tpf_o_src(tpf_t *t, tpf_sc_t s)
{
    if (s.imm) {
        tpf_tok(t, 1u | TPF_R_IMM32 << 12);
        tpf_tok(t, s.v);
        return;
    }
    uint32_t reg = s.v / 4u;
    tpf_o_reg(t, TPF_R_TEMP, 1, &reg, 2u | 2u << 2 | (s.v % 4u) << 4);
}

void tpf_o_imm4(tpf_t *t, const uint32_t v[4])
{
    tpf_tok(t, 2u | TPF_R_IMM32 << 12);
    for (uint32_t i = 0; i < 4; i++) tpf_tok(t, v[i]);
}

void tpf_o_res(tpf_t *t, uint32_t res, uint32_t swz)
{
    static const uint32_t type_of[] = { TPF_R_CB, TPF_R_RESOURCE, TPF_R_UAV, TPF_R_RESOURCE, TPF_R_UAV, TPF_R_SAMPLER };
    const tpf_res_t *r = &t->res[res];
    uint32_t idx[2] = { r->range, r->reg };
    uint32_t bits = r->cls == RC_SAMPLER ? 0u : 2u | 1u << 2 | swz << 4;
    tpf_o_reg(t, type_of[r->cls], 2, idx, bits);
}

void tpf_op1(tpf_t *t, uint32_t op, uint32_t dst, tpf_sc_t a)
{
    tpf_begin(t, op); tpf_o_dst(t, dst); tpf_o_src(t, a); tpf_end(t);
}

void tpf_op2(tpf_t *t, uint32_t op, uint32_t dst, tpf_sc_t a, tpf_sc_t b)
{
    tpf_begin(t, op); tpf_o_dst(t, dst); tpf_o_src(t, a); tpf_o_src(t, b); tpf_end(t);
}

void tpf_op3(tpf_t *t, uint32_t op, uint32_t dst, tpf_sc_t a, tpf_sc_t b, tpf_sc_t c)
{
    tpf_begin(t, op); tpf_o_dst(t, dst); tpf_o_src(t, a); tpf_o_src(t, b); tpf_o_src(t, c); tpf_end(t);
}

/* c ? a : b with c a 0 / ~0 mask, bit for bit: b ^ (c & (a ^ b)). Not movc: vkd3d-shader
 * types movc's operands as floats (an OpSelect on floats), and integers that are float
 * denormals or NaN patterns must come through exactly whatever a driver does with those. */
tpf_sc_t tpf_sel(tpf_t *t, tpf_sc_t c, tpf_sc_t a, tpf_sc_t b)
{
    uint32_t x = tpf_temp(t), y = tpf_temp(t), d = tpf_temp(t);
    tpf_op2(t, TPF_XOR, x, a, b);
    tpf_op2(t, TPF_AND, y, c, tpf_tsc(x));
    tpf_op2(t, TPF_XOR, d, b, tpf_tsc(y));
    return tpf_tsc(d);
}

tpf_sc_t tpf_mov_new(tpf_t *t, tpf_sc_t a)
{
    uint32_t d = tpf_temp(t);
    tpf_op1(t, TPF_MOV, d, a);
    return tpf_tsc(d);
}

uint32_t tpf_pack(tpf_t *t, const tpf_sc_t *s, uint32_t n)
{
    uint32_t r = tpf_vtemp(t);
    for (uint32_t i = 0; i < 4; i++) tpf_op1(t, TPF_MOV, r * 4u + i, i < n ? s[i] : tpf_imm(0));
    return r;
}

/* The root constants of d3d_tpf.h's contract, as cbuffer EG_D3D_TPF_SYSVALS_REGISTER. */
uint32_t tpf_sysvals(tpf_t *t)
{
    if (t->sysvals_res >= 0) return (uint32_t)t->sysvals_res;
    if (t->res_n >= TPF_MAX_RES) { tpf_fail(t, "DXBC emitter: more than %u resources", TPF_MAX_RES); return 0; }
    t->res[t->res_n] = (tpf_res_t){ .cls = RC_CB, .range = t->range_n[RC_CB]++, .space = EG_D3D_TPF_SYSVALS_SPACE,
                                     .reg = EG_D3D_TPF_SYSVALS_REGISTER };
    t->sysvals_res = (int32_t)t->res_n;
    return t->res_n++;
}

tpf_sc_t tpf_cb_load(tpf_t *t, uint32_t res, uint32_t row, uint32_t comp)
{
    const tpf_res_t *r = &t->res[res];
    uint32_t d = tpf_temp(t), idx[3] = { r->range, r->reg, row };
    tpf_begin(t, TPF_MOV);
    tpf_o_dst(t, d);
    tpf_o_reg(t, TPF_R_CB, 3, idx, 2u | 2u << 2 | comp << 4);
    tpf_end(t);
    return tpf_tsc(d);
}

/* ---- entry point ---- */

static void *carve(tpf_t *t, size_t bytes)
{
    void *p = eg_arena_alloc(t->arena, bytes ? bytes : 4, 8);
    if (!p) full(t, "setup");
    else eg_memset(p, 0, bytes);
    return p;
}

static bool setup(tpf_t *t)
{
    const eg_ir_t *ir = t->ir;
    t->vals = carve(t, (size_t)ir->value_count * sizeof *t->vals);
    t->var_indexed = carve(t, ir->value_count);
    t->cmp_sampler = carve(t, ir->value_count);
    t->var_used = carve(t, ir->value_count);
    t->call_result = carve(t, (size_t)ir->function_count * 4u);
    if (t->failed) return false;
    size_t free_B = eg_arena_free_B(t->arena);
    t->code_cap = (uint32_t)(free_B * 4 / 10 / 4);
    t->decl_cap = (uint32_t)(free_B / 20 / 4);
    t->comps_cap = (uint32_t)(free_B * 2 / 10 / sizeof(tpf_sc_t));
    t->ptrs_cap = (uint32_t)(free_B / 10 / sizeof(tpf_ptr_t));
    t->code = carve(t, (size_t)t->code_cap * 4u);
    t->decl = carve(t, (size_t)t->decl_cap * 4u);
    t->comps = carve(t, (size_t)t->comps_cap * sizeof(tpf_sc_t));
    t->ptrs = carve(t, (size_t)t->ptrs_cap * sizeof(tpf_ptr_t));
    t->sysvals_res = -1;
    return !t->failed;
}

/* The tables above are scratch: once the container is written they are released, so the
 * arena keeps only the container (moved down to where the scratch began). */
bool eg_d3d_tpf_emit(const eg_d3d_tpf_in_t *in, eg_arena_t *arena, eg_d3d_tpf_out_t *out,
                     eg_d3d_tpf_error_t *err)
{
    static tpf_t t;
    eg_memset(&t, 0, sizeof t);
    eg_memset(out, 0, sizeof *out);
    err->message[0] = 0;
    t.in = in;
    t.ir = in->ir;
    t.arena = arena;
    t.err = err;
    if (!in->ir || in->ir->function_count == 0)
        return tpf_fail(&t, "DXBC emitter: no entry point in the IR");
    size_t mark = eg_arena_mark(arena);
    bool ok = setup(&t) && tpf_prescan(&t) && tpf_globals(&t) && tpf_walk(&t) &&
              tpf_declare(&t);
    if (ok) {
        /* The code buffer sits in the arena: build the container above it, then move it down. */
        eg_d3d_tpf_out_t tmp;
        ok = tpf_container(&t, &tmp);
        if (ok) {
            eg_arena_reset(arena, mark);
            uint8_t *dst = eg_arena_alloc(arena, tmp.size_B, 4);   /* <= tmp.bytes: memmove-safe */
            for (uint32_t i = 0; i < tmp.size_B; i++) dst[i] = tmp.bytes[i];
            out->bytes = dst;
            out->size_B = tmp.size_B;
            out->uses_sysvals = t.sysvals_res >= 0;
        }
    }
    if (!ok) eg_arena_reset(arena, mark);
    return ok && !t.failed;
}

#endif /* EMGPU_D3D12_TPF */
