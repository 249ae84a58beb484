/* hal/soft block-constant fragments: a 4x4 block whose program outputs provably do not vary runs once.
 *
 * WHY. UI shaders compute coverage from a signed distance (rounded rectangles, circles): inside
 * a shape, away from its 1 px ramp, every pixel gets the same color although the inputs (local
 * coordinates) vary. The VM would run the whole program for 16 lanes to find that out.
 *
 * HOW. A fragment program qualifies at pipeline creation (eg_soft_const_create, which compiles
 * it to a compact op list over a value table) when it is straight-line code (the copy class's rules: blocks in order joined by unconditional branches,
 * so every instruction runs on exactly the invocation's lanes) of the ops below, with no side
 * effects, discard, depth or sample-mask output. Per block (eg_soft_const_block), after the
 * inputs are interpolated, the program is evaluated ONCE over abstract values: each register is
 * either CONST (every lane holds the same bits, known) or a RANGE [lo, hi] that contains every
 * lane's value. Ranges come from the interpolated lanes themselves (exact min / max) and are
 * carried through each op with the op's own float arithmetic on the bounds: round-to-nearest is
 * monotone, so for + - * the rounded results at the corners of the operand box bound the
 * rounded result of any operands inside it, and abs / neg / min / max / clamp / sqrt are
 * monotone pieces. Any non-finite bound stops the analysis (then the VM runs).
 * A register becomes CONST when its lanes must all equal one nonzero value (lo == hi != 0:
 * +0 and -0 compare equal but differ in bits), when every operand is CONST (then the value is
 * computed with the VM's own expression, soft_vm_alu.c, so the bits are the VM's), or when a
 * min / max / clamp picks one operand in every lane (strict comparisons of the bounds).
 * When all four components of output 0 are CONST the block's output is those bits in every
 * lane: exactly what the VM would have written, by construction, on any CPU.
 *
 * Cost (x86-64, the bench's rounded rectangle): about 1.7 k instructions per block against the
 * VM's 3.1 k, and the constant color then blends once per run of equal stored pixels
 * (eg_soft_blend_const).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_vm.h"
#include "hal/soft/soft_vm_simd.h"

#define CONST_MAX_REGS 64u         /* lane registers a qualifying program may use */
#define CONST_MAX_OPS  64u         /* instructions after dropping control flow */
#define CONST_MAX_VALS 128u        /* value table: constants [0, 64), then one per instruction */

/* One register over the block: every lane's value lies in [lo, hi]; cst: all lanes hold lo's bits. */
typedef eg_soft_range_t aval_t;

/* A compiled instruction: operands index the value table. */
typedef eg_soft_cop_t cop_t;

struct eg_soft_const_prog {
    uint32_t nops, nconst, nvals;
    uint8_t out[4];                /* value index of each component of output 0 */
    bool persp;                    /* a perspective-interpolated input is read (region proofs) */
    eg_soft_cm_prog_t cm;          /* the corner memo's view of the program (cm_prep) */
    cop_t ops[CONST_MAX_OPS];
    aval_t consts[CONST_MAX_VALS / 2u];
};

static inline uint32_t fbits(float f) { union { float f; uint32_t u; } c = { f }; return c.u; }
static inline float bitsf(uint32_t u) { union { uint32_t u; float f; } c = { u }; return c.f; }
static inline bool finite_f(float f) { return (fbits(f) & 0x7f800000u) != 0x7f800000u; }
static inline float min_f(float a, float b) { return b < a ? b : a; }   /* soft_vm_alu.c fmin_f */
static inline float max_f(float a, float b) { return a < b ? b : a; }   /* soft_vm_alu.c fmax_f */
static inline int64_t floor_div64(int64_t n, int64_t d)   /* d > 0 */
{
    return n >= 0 ? n / d : -((-n + d - 1) / d);
}

/* Operand count of the ops evaluated here (0: not supported). */
static inline uint32_t op_args(uint32_t op)
{
    switch (op) {
    case EG_VM_MOV: case EG_VM_FNEG: case EG_VM_FABS: case EG_VM_FSQRT: return 1;
    case EG_VM_FADD: case EG_VM_FSUB: case EG_VM_FMUL: case EG_VM_FMIN: case EG_VM_FMAX: case EG_VM_FNMIN:
    case EG_VM_FNMAX: return 2;
    case EG_VM_FFMA: case EG_VM_FCLAMP: case EG_VM_FNCLAMP: return 3;
    default: return 0;
    }
}

typedef struct cbuild {
    const eg_soft_program_t *p;
    struct eg_soft_const_prog *cp;
    uint8_t reg_val[CONST_MAX_REGS];   /* value index holding each register (0xff: not written yet) */
    uint16_t const_reg[CONST_MAX_VALS / 2u];
} cbuild_t;

/* The value index of operand r, or -1: constants get a table entry, registers must be written. */
static int32_t operand_val(cbuild_t *b, uint32_t r)
{
    if (r == EG_VM_NONE) return -1;
    if (r >= EG_VM_CONST_BASE) {
        if (r - EG_VM_CONST_BASE >= b->p->const_count) return -1;
        for (uint32_t i = 0; i < b->cp->nconst; i++)
            if (b->const_reg[i] == r) return (int32_t)i;
        float c = b->p->consts[r - EG_VM_CONST_BASE].f[0];
        if (b->cp->nconst >= CONST_MAX_VALS / 2u || !finite_f(c)) return -1;
        b->const_reg[b->cp->nconst] = (uint16_t)r;
        b->cp->consts[b->cp->nconst] = (aval_t){ c, c, 1u };
        return (int32_t)b->cp->nconst++;
    }
    return r < CONST_MAX_REGS && b->reg_val[r] != 0xffu ? b->reg_val[r] : -1;
}

/* Straight-line check (the copy class's rules) and compilation; false: not of the class. */
static bool compile(cbuild_t *b)
{
    const eg_soft_program_t *p = b->p;
    uint32_t block = 0, written = 0, math = 0;
    bool after_br = false;
    for (uint32_t r = 0; r < CONST_MAX_REGS; r++) b->reg_val[r] = 0xffu;
    for (uint32_t i = 0; i < p->code_count; i++) {
        const eg_vm_inst_t *in = &p->code[i];
        if (after_br && in->op != EG_VM_BLOCK) return false;
        after_br = false;
        switch (in->op) {
        case EG_VM_END: continue;
        case EG_VM_BLOCK:
            if (in->imm != block || (block > 0u && p->code[i - 1u].op != EG_VM_BR)) return false;
            block++;
            continue;
        case EG_VM_BR:
            if (in->imm != block) return false;
            after_br = true;
            continue;
        case EG_VM_ST_OUT: {
            int32_t v = operand_val(b, in->a);
            if (in->imm >= 4u || v < 0) return false;
            b->cp->out[in->imm] = (uint8_t)v;
            written |= 1u << in->imm;
            continue;
        }
        default: break;
        }
        uint32_t n = op_args(in->op);
        if (in->op != EG_VM_LD_IN && n == 0u) return false;
        if (in->dst >= CONST_MAX_REGS || b->cp->nops >= CONST_MAX_OPS) return false;
        if (in->op == EG_VM_LD_IN && in->imm >= 4u * EG_SOFT_MAX_LOCATIONS) return false;
        int32_t a = n > 0u ? operand_val(b, in->a) : (int32_t)in->imm;
        int32_t bb = n > 1u ? operand_val(b, in->b) : 0, c = n > 2u ? operand_val(b, in->c) : 0;
        if (a < 0 || bb < 0 || c < 0) return false;
        /* each write gets a fresh value index (registers are reused by the allocator) */
        uint32_t dst = CONST_MAX_VALS / 2u + b->cp->nops;
        b->cp->ops[b->cp->nops++] = (cop_t){ (uint8_t)in->op, (uint8_t)dst, (uint8_t)a, (uint8_t)bb, (uint8_t)c };
        b->reg_val[in->dst] = (uint8_t)dst;
        math += in->op != EG_VM_MOV && in->op != EG_VM_LD_IN;
    }
    b->cp->nvals = CONST_MAX_VALS / 2u + b->cp->nops;
    /* without arithmetic the copy class (or the VM) is as fast */
    return written == 0xFu && math > 0u;
}

/* The corner memo's view of cp (soft_raster_shade.c cm_*, helper cornermemo, session 16): the
 * output components that copy an input slot unchanged (LD_IN, then MOVs: bits copied; pass),
 * the io_in slots the other components read through the ops (need), and a number no other
 * program gets (pipeline creation is single-threaded, as tmp below assumes). Every component
 * is a function of its lane's inputs alone: the ops are per-lane arithmetic (op_args), no
 * derivative, no side effect (eg_soft_const_create's checks). */
static void cm_prep(struct eg_soft_const_prog *cp)
{
    static uint64_t serials;
    const uint32_t base = CONST_MAX_VALS / 2u;
    uint8_t need[CONST_MAX_VALS] = { 0 };
    cp->cm.serial = ++serials;
    cp->cm.need = 0;
    for (uint32_t c = 0; c < 4u; c++) {
        uint32_t v = cp->out[c];
        while (v >= base && cp->ops[v - base].op == EG_VM_MOV) v = cp->ops[v - base].a;
        const bool pass = v >= base && cp->ops[v - base].op == EG_VM_LD_IN;
        cp->cm.pass[c] = pass ? cp->ops[v - base].a : EG_SOFT_CM_COMPUTED;
        if (!pass) need[cp->out[c]] = 1u;
    }
    for (uint32_t i = cp->nops; i-- > 0;) {
        const cop_t *o = &cp->ops[i];
        if (!need[base + i]) continue;
        if (o->op == EG_VM_LD_IN) {
            cp->cm.need |= (uint64_t)1 << o->a;
            continue;
        }
        const uint8_t opd[3] = { o->a, o->b, o->c };
        for (uint32_t j = 0, n = op_args(o->op); j < n; j++) need[opd[j]] = 1u;
    }
}

const eg_soft_cm_prog_t *eg_soft_const_cm(const struct eg_soft_const_prog *cp) { return &cp->cm; }

eg_status_t eg_soft_const_create(struct eg_soft_raster_pipeline *r)
{
    const eg_soft_program_t *p = r->fs;
    r->fs_const = NULL;
    if (!p || r->fs_copy || r->alpha_to_coverage) return EG_STATUS_OK;
    const eg_soft_program_info_t *info = &p->info;
    if (info->stage != EG_SHADER_STAGE_FRAGMENT || info->output_mask != 1u || info->writes_depth ||
        info->may_discard || info->has_side_effects || p->writes_sample_mask || p->uses_sample_id ||
        p->reg_count > CONST_MAX_REGS)
        return EG_STATUS_OK;
    static struct eg_soft_const_prog tmp;   /* pipeline creation is single-threaded */
    cbuild_t b;
    eg_memset(&tmp, 0, sizeof tmp);
    b.p = p;
    b.cp = &tmp;
    if (!compile(&b)) return EG_STATUS_OK;
    /* LD_IN's b (unused by the block proof): the packed varying the slot is interpolated into,
     * 0xff when none (eg_soft_const_region then gives up) */
    for (uint32_t i = 0; i < tmp.nops; i++) {
        cop_t *o = &tmp.ops[i];
        if (o->op != EG_VM_LD_IN) continue;
        o->b = 0xffu;
        for (uint32_t j = 0; j < r->nvary && o->b == 0xffu; j++)
            if (r->vary_loc[j] * 4u + r->vary_comp[j] == o->a) o->b = (uint8_t)j;
        tmp.persp |= o->b != 0xffu && r->vary_interp[o->b] == EG_SOFT_INTERP_PERSPECTIVE;
    }
    cm_prep(&tmp);
    r->fs_const = eg_soft_heap_alloc(sizeof tmp);
    if (!r->fs_const) return EG_STATUS_OUT_OF_MEMORY;
    eg_memcpy(r->fs_const, &tmp, sizeof tmp);
    return EG_STATUS_OK;
}

void eg_soft_const_destroy(struct eg_soft_raster_pipeline *r)
{
    if (r->fs_const) eg_soft_heap_free(r->fs_const);
    r->fs_const = NULL;
}

/* ---- evaluation over one block ---- */

/* A range result: false when a bound is not finite; CONST when lo == hi != 0. */
static inline bool range(float lo, float hi, aval_t *out)
{
    if (!finite_f(lo) || !finite_f(hi) || !(lo <= hi)) return false;
    /* lo == hi && lo != 0.0f on the bits (finite here: two nonzero floats are equal exactly when
     * their bits are; +-0 is neither way): the finite tests' bits serve, where the two float
     * compares with their NaN flags did not (0.36 M instructions fewer on the UI row) */
    uint32_t bl = fbits(lo);
    *out = (aval_t){ lo, hi, (bl == fbits(hi)) & ((bl << 1) != 0u) };
    return true;
}

static inline bool cst(float v, aval_t *out)
{
    if (!finite_f(v)) return false;
    *out = (aval_t){ v, v, 1u };
    return true;
}

static EG_ALWAYS_INLINE bool mul(const aval_t *a, const aval_t *b, aval_t *out)
{
    if (a->cst && b->cst) return cst(a->lo * b->lo, out);
    float p0 = a->lo * b->lo, p1 = a->lo * b->hi, p2 = a->hi * b->lo, p3 = a->hi * b->hi;
    if (!finite_f(p0) || !finite_f(p1) || !finite_f(p2) || !finite_f(p3)) return false;
    float lo = p0 < p1 ? p0 : p1, hi = p0 < p1 ? p1 : p0;
    lo = p2 < lo ? p2 : lo; hi = p2 > hi ? p2 : hi;
    lo = p3 < lo ? p3 : lo; hi = p3 > hi ? p3 : hi;
    return range(lo, hi, out);
}

static inline bool add(const aval_t *a, float blo, float bhi, uint32_t bcst, aval_t *out)
{
    if (a->cst && bcst) return cst(a->lo + blo, out);
    return range(a->lo + blo, a->hi + bhi, out);
}

/* min_f(a, b) = b < a ? b : a in every lane: one operand when the ranges do not overlap. */
static inline bool vmin(const aval_t *a, const aval_t *b, aval_t *out)
{
    if (a->cst && b->cst) return cst(min_f(a->lo, b->lo), out);
    if (a->hi < b->lo) { *out = *a; return true; }
    if (b->hi < a->lo) { *out = *b; return true; }
    return range(a->lo < b->lo ? a->lo : b->lo, a->hi < b->hi ? a->hi : b->hi, out);
}

/* max_f(a, b) = a < b ? b : a. */
static inline bool vmax(const aval_t *a, const aval_t *b, aval_t *out)
{
    if (a->cst && b->cst) return cst(max_f(a->lo, b->lo), out);
    if (a->hi < b->lo) { *out = *b; return true; }
    if (b->hi < a->lo) { *out = *a; return true; }
    return range(a->lo > b->lo ? a->lo : b->lo, a->hi > b->hi ? a->hi : b->hi, out);
}

/* b and c are taken where an operation reads them (B, C below), not up front: GCC computed all
 * four operand addresses before the switch, where most operations read one or two (the region
 * proofs: ~20 operations each, ~8.7 k a run of the UI bench row; 0.47 M instructions fewer). */
static EG_ALWAYS_INLINE bool one_op(const cop_t *o, const aval_t *v, aval_t *d)
{
    const aval_t *a = &v[o->a];
#define B (&v[o->b])
#define C (&v[o->c])
    aval_t t;
    switch (o->op) {
    case EG_VM_MOV: *d = *a; return true;
    case EG_VM_FNEG:   /* the VM flips the sign bit: so does '-' */
        *d = (aval_t){ -a->hi, -a->lo, a->cst };
        return true;
    case EG_VM_FABS:
        if (a->cst) return cst(bitsf(fbits(a->lo) & 0x7fffffffu), d);
        if (a->lo > 0.0f) { *d = *a; return true; }
        if (a->hi < 0.0f) { *d = (aval_t){ -a->hi, -a->lo, 0u }; return true; }
        return range(0.0f, -a->lo > a->hi ? -a->lo : a->hi, d);
    case EG_VM_FSQRT:   /* correctly rounded, so monotone; negative inputs may give NaN */
        if (a->lo < 0.0f) return false;
        if (a->cst) return cst(eg_vm_sqrtf(a->lo), d);
        return range(eg_vm_sqrtf(a->lo), eg_vm_sqrtf(a->hi), d);
    case EG_VM_FADD: return add(a, B->lo, B->hi, B->cst, d);
    case EG_VM_FSUB: return add(a, -B->hi, -B->lo, B->cst, d);   /* a - b == a + (-b) in IEEE */
    case EG_VM_FMUL: return mul(a, B, d);
    case EG_VM_FMIN: case EG_VM_FNMIN: return vmin(a, B, d);   /* finite ranges: no NaN lanes */
    case EG_VM_FMAX: case EG_VM_FNMAX: return vmax(a, B, d);
    case EG_VM_FFMA:   /* a * b + c, two roundings (-ffp-contract=off) */
        return mul(a, B, &t) && add(&t, C->lo, C->hi, C->cst, d);
    case EG_VM_FCLAMP: case EG_VM_FNCLAMP:   /* min_f(max_f(a, b), c) */
        return vmax(a, B, &t) && vmin(&t, C, d);
    default: return false;
    }
#undef B
#undef C
}

/* The block's value of input slot s over all 16 lanes (their exact min / max); false when a lane
 * is not finite (so the compare-selects below never see a NaN). */
static bool input(const eg_soft_worker_t *w, uint32_t s, aval_t *o)
{
    const eg_soft_reg_t *r = &w->io_in[s >> 2].c[s & 3u];
    if (w->in_uniform >> s & 1u) {   /* interpolate() found every lane equal */
        if (!finite_f(r->f[0])) return false;
        *o = (aval_t){ r->f[0], r->f[0], 1u };
        return true;
    }
#if VM_SIMD
    vf_t lo, hi, x;
    vu_t ux, u0 = { r->u[0], r->u[0], r->u[0], r->u[0] }, e = { 0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u };
    vu_t diff = { 0, 0, 0, 0 }, bad = { 0, 0, 0, 0 };
    VLOAD(lo, r->f);
    hi = lo;
    for (uint32_t k = 0; k < EG_SOFT_LANES; k += 4) {
        VLOAD(x, r->f + k);
        VLOAD(ux, r->u + k);
        vu_t ml = (vu_t)(x < lo), mh = (vu_t)(hi < x), ul, uh;
        __builtin_memcpy(&ul, &lo, 16);
        __builtin_memcpy(&uh, &hi, 16);
        ul = (ux & ml) | (ul & ~ml);
        uh = (ux & mh) | (uh & ~mh);
        __builtin_memcpy(&lo, &ul, 16);
        __builtin_memcpy(&hi, &uh, 16);
        diff |= ux ^ u0;
        bad |= (vu_t)((ux & e) == e);
    }
    if (bad[0] | bad[1] | bad[2] | bad[3]) return false;
    float l = lo[0], h = hi[0];
    for (uint32_t k = 1; k < 4u; k++) {
        l = lo[k] < l ? lo[k] : l;
        h = hi[k] > h ? hi[k] : h;
    }
    *o = (aval_t){ l, h, (diff[0] | diff[1] | diff[2] | diff[3]) == 0u };
#else
    float lo = r->f[0], hi = r->f[0];
    uint32_t diff = 0, bad = 0;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        lo = r->f[l] < lo ? r->f[l] : lo;
        hi = r->f[l] > hi ? r->f[l] : hi;
        diff |= r->u[l] ^ r->u[0];
        bad |= (r->u[l] & 0x7f800000u) == 0x7f800000u;
    }
    if (bad) return false;
    *o = (aval_t){ lo, hi, diff == 0u };
#endif
    return true;
}

/* The program over v (constants and inputs set): false when an output is not provably constant. */
static bool evaluate(const struct eg_soft_const_prog *cp, aval_t *v, uint32_t outb[4])
{
    for (uint32_t i = 0; i < cp->nops; i++) {
        const cop_t *o = &cp->ops[i];
        if (o->op != EG_VM_LD_IN && !one_op(o, v, &v[o->dst])) return false;
    }
    for (uint32_t c = 0; c < 4u; c++) {
        const aval_t *a = &v[cp->out[c]];
        if (!a->cst) return false;
        outb[c] = fbits(a->lo);
    }
    return true;
}

bool eg_soft_const_block(const struct eg_soft_const_prog *cp, eg_soft_worker_t *w)
{
    aval_t v[CONST_MAX_VALS];
    uint32_t outb[4];
    eg_memcpy(v, cp->consts, cp->nconst * sizeof v[0]);
    for (uint32_t i = 0; i < cp->nops; i++) {
        const cop_t *o = &cp->ops[i];
        if (o->op == EG_VM_LD_IN && !input(w, o->a, &v[o->dst])) return false;
    }
    if (!evaluate(cp, v, outb)) return false;
    for (uint32_t c = 0; c < 4u; c++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) w->io_out[0].c[c].u[l] = outb[c];
    return true;
}

/* ---- the same proof over a region of blocks (helper "ui", session 5) ---- */

/* Inputs bounded without interpolating a lane (soft_raster_bound.c): one evaluation covers the
 * region's blocks, so the interiors of shapes cost one proof per region, not per 4x4 block. */
bool eg_soft_const_region(const eg_soft_frag_t *f, const eg_soft_pxset_t *p, uint32_t outb[4])
{
    f->w->crange = false;   /* bits only (rrect9's ranges are region_tri's) */
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const struct eg_soft_const_prog *cp = rs->fs_const;
    const eg_soft_tri_t *t = f->t;
    eg_soft_wbound_t wb;
    if (!eg_soft_weights_bound(f, p, cp->persp, &wb)) return false;
    aval_t v[CONST_MAX_VALS];
    eg_soft_affine_t ac;   /* p's corner weights: once for every input */
    ac.state = 0;
    eg_memcpy(v, cp->consts, cp->nconst * sizeof v[0]);
    for (uint32_t i = 0; i < cp->nops; i++) {
        const cop_t *o = &cp->ops[i];
        if (o->op != EG_VM_LD_IN) continue;
        uint32_t j = o->b;
        if (j >= rs->nvary) return false;   /* not interpolated: the block path reads io_in as is */
        float a0 = rs->vary_interp[j] == EG_SOFT_INTERP_FLAT ? t->prov->var[j] : t->v[0]->var[j];
        float d1 = rs->vary_interp[j] == EG_SOFT_INTERP_FLAT ? 0.0f : t->v[1]->var[j] - a0;
        float d2 = rs->vary_interp[j] == EG_SOFT_INTERP_FLAT ? 0.0f : t->v[2]->var[j] - a0;
        eg_soft_range_t r;
        if (!eg_soft_vary_bound_best_ac(f, p, &wb, &ac, rs->vary_interp[j], a0, d1, d2, &r)) return false;
        v[o->dst] = (aval_t){ r.lo, r.hi, r.cst };
    }
    return evaluate(cp, v, outb);
}

/* ---- the per-triangle part done once (helper "ui", session 6) ---- */

_Static_assert(CONST_MAX_VALS == EG_SOFT_CONST_TRI_VALS &&
               CONST_MAX_OPS == EG_SOFT_CONST_TRI_OPS, "soft: the triangle's value table holds the program's");

static inline void pv_set(float d[4], float x) { d[0] = d[1] = d[2] = d[3] = x; }

/* A region's result does not depend on how its constant part was reached: the same one_op on the
 * same constant operands gives the same values once per triangle as once per region. */
void eg_soft_const_tri_init(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const struct eg_soft_const_prog *cp = rs->fs_const;
    const eg_soft_tri_t *t = f->t;
    aval_t *v = ct->v;
    ct->state = 0;
    ct->pm_cls = 0;   /* (pxset_eval: the memo's class, looked up at the triangle's first proof) */
    ct->nin = ct->nops = 0;
    ct->sup = 0;
    ct->lim_x0 = ct->lim_x1 = ct->lim_y0 = ct->lim_y1 = 0;
    ct->nband = 0;
    ct->rng = eg_soft_fill_range_ok(f);
    ct->pg[0] = (float)(f->s.A[1] * EG_SOFT_SUBPIX) * f->s.inv_area2;
    ct->pg[1] = (float)(f->s.B[1] * EG_SOFT_SUBPIX) * f->s.inv_area2;
    ct->pg[2] = (float)(f->s.A[2] * EG_SOFT_SUBPIX) * f->s.inv_area2;
    ct->pg[3] = (float)(f->s.B[2] * EG_SOFT_SUBPIX) * f->s.inv_area2;
    /* centre (256 x + 128 subpixels) within the snapped vertices' extent: covered pixels only */
    int64_t x0 = INT64_MAX, x1 = INT64_MIN, y0 = INT64_MAX, y1 = INT64_MIN;
    for (uint32_t i = 0; i < 3u; i++) {
        int64_t X = eg_soft_snap(t->x[i]), Y = eg_soft_snap(t->y[i]);
        x0 = X < x0 ? X : x0; x1 = X > x1 ? X : x1;
        y0 = Y < y0 ? Y : y0; y1 = Y > y1 ? Y : y1;
    }
    ct->cx0 = floor_div64(x0 - EG_SOFT_SUBPIX / 2 + EG_SOFT_SUBPIX - 1, EG_SOFT_SUBPIX);
    ct->cx1 = floor_div64(x1 - EG_SOFT_SUBPIX / 2, EG_SOFT_SUBPIX);
    ct->cy0 = floor_div64(y0 - EG_SOFT_SUBPIX / 2 + EG_SOFT_SUBPIX - 1, EG_SOFT_SUBPIX);
    ct->cy1 = floor_div64(y1 - EG_SOFT_SUBPIX / 2, EG_SOFT_SUBPIX);
    ct->persp = cp->persp;
    for (uint32_t c = 0; c < 4u; c++) ct->out[c] = cp->out[c];
    eg_memcpy(v, cp->consts, cp->nconst * sizeof v[0]);
    for (uint32_t i = 0; i < cp->nconst; i++) pv_set(ct->pv[i], v[i].lo);
    for (uint32_t i = 0; i < cp->nops; i++) {
        const cop_t *o = &cp->ops[i];
        if (o->op == EG_VM_LD_IN) {
            uint32_t j = o->b;
            if (j >= rs->nvary) return;   /* eg_soft_const_region gives up on it too */
            uint32_t interp = rs->vary_interp[j];
            float a0 = interp == EG_SOFT_INTERP_FLAT ? t->prov->var[j] : t->v[0]->var[j];
            float d1 = interp == EG_SOFT_INTERP_FLAT ? 0.0f : t->v[1]->var[j] - a0;
            float d2 = interp == EG_SOFT_INTERP_FLAT ? 0.0f : t->v[2]->var[j] - a0;
            union { float f; uint32_t u; } b = { a0 };
            if (interp == EG_SOFT_INTERP_FLAT || (d1 == 0.0f && d2 == 0.0f && (b.u & 0x7fffffffu) != 0u)) {
                /* eg_soft_vary_bound's constant case, whatever the pixel set */
                if (!finite_f(a0)) { ct->state = -1; return; }
                v[o->dst] = (aval_t){ a0, a0, 1u };
                pv_set(ct->pv[o->dst], a0);
                continue;
            }
            if (ct->nin >= EG_SOFT_CONST_TRI_IN) return;
            ct->in_dst[ct->nin] = o->dst;
            ct->in_interp[ct->nin] = (uint8_t)interp;
            ct->in_a0[ct->nin] = a0;
            ct->in_d1[ct->nin] = d1;
            ct->in_d2[ct->nin] = d2;
            v[o->dst].cst = 0u;   /* not constant: written per region */
            ct->nin++;
            continue;
        }
        uint32_t n = op_args(o->op);
        /* every operand was written above (constants, inputs, earlier ops), its cst set to whether
         * it is one value over the whole triangle */
        if (v[o->a].cst && (n < 2u || v[o->b].cst) && (n < 3u || v[o->c].cst)) {
            if (!one_op(o, v, &v[o->dst])) { ct->state = -1; return; }
            pv_set(ct->pv[o->dst], v[o->dst].lo);
            continue;
        }
        v[o->dst].cst = 0u;
        ct->ops[ct->nops++] = *o;
    }
    /* (fill11) an output component whose value is constant over the triangle (a constant, a
     * flat or equal input, or an operation on those: its cst is still set here) holds the same
     * bits at every probe point, so probe_differs never sees it differ: it checks the others only
     * (the bench's rounded rectangles: the color's three components; 1.4 M instructions on the
     * UI row) */
    ct->probe_out = 0;
    for (uint32_t c = 0; c < 4u; c++)
        if (!v[ct->out[c]].cst) ct->probe_out |= (uint8_t)(1u << c);
    ct->state = 1;
}

/* Output ranges (rrect9, session 9). A shape's alpha is exactly 1.0 at the first pixel centre
 * inside its quad (the bench's rounded rectangles: d = -0.5, clamp(0.5 - d, 0, 1)), and the
 * perspective weights' 1 / w rounds differently from pixel to pixel: those lanes hold 1.0 or a
 * float or two below it, so no proof of one value can hold there (51% of the regions failed).
 * Their stored bytes are one value nevertheless, nearly always: the row fill (soft_raster_fill.c)
 * blends each stored pixel with both ends of the range (the blend is monotone in the source)
 * and runs the VM for the pixels where the two differ. eg_soft_const_range_max keeps those pixels rare. */
float eg_soft_const_range_max = 0x1p-10f;

/* Probes (rrect10, session 10). Nearly half of the bench's region proofs failed (1 420 of 3 005
 * a frame on the UI row, ~3 k instructions each): regions over a rounded rectangle's corner
 * arcs, where the output really varies (alpha 0 outside the arc, 1 inside). A proof that holds
 * puts every pixel's output 0 within one value or a range no wider than eg_soft_const_range_max,
 * so two pixels whose outputs differ by more than that mean that it fails. The program run on
 * plain floats at the set's 4 corner pixels (4 lanes at once, weights from the exact edge values
 * at the first corner and the gradients: ~700 instructions for the bench's 18 operations) sees
 * the arc's corners differ by ~1; a difference over eg_soft_const_range_max + 2^-8 (relative
 * above 1), far beyond the probe's rounding differences from the per-pixel float chain (~2^-20
 * relative here), skips the proof. After it 8 of 3 178 proofs on the bench fail (2 832
 * skipped). The probe only chooses between the proof and the VM, whose bytes the proof
 * reproduces, so a wrong guess would cost instructions, never bytes (eg_soft_const_probe_check
 * counts the skipped proofs that would have held). Bands are not probed: they hold (probing
 * them cost 2.2 M instructions more on the row). */
bool eg_soft_const_probe_check = false;

/* The 4 points of a probe value: a vector where the VM has them (one instruction per operation),
 * else a loop. */
#if VM_SIMD && VM_VW == 4
typedef vf_t pv4_t;
#define PV_LOAD(v, p) VLOAD(v, p)
#define PV_STORE(p, v) VSTORE(p, v)
static inline pv4_t pv_pick(pv4_t x, pv4_t y, vi_t m)   /* y where m, else x (min_f / max_f's selects) */
{
    vu_t ux, uy, um = (vu_t)m, r;
    __builtin_memcpy(&ux, &x, 16);
    __builtin_memcpy(&uy, &y, 16);
    r = (uy & um) | (ux & ~um);
    __builtin_memcpy(&x, &r, 16);
    return x;
}
static inline pv4_t pv_min(pv4_t a, pv4_t b) { return pv_pick(a, b, (vi_t)(b < a)); }
static inline pv4_t pv_max(pv4_t a, pv4_t b) { return pv_pick(a, b, (vi_t)(a < b)); }
static inline pv4_t pv_abs(pv4_t a)
{
    vu_t u;
    __builtin_memcpy(&u, &a, 16);
    u &= 0x7fffffffu;
    __builtin_memcpy(&a, &u, 16);
    return a;
}
static inline pv4_t pv_sqrt(pv4_t a)   /* (negative lanes: NaN, as eg_vm_sqrtf gives) */
{
#if defined(__SSE__) && !defined(__clang__)
    return __builtin_ia32_sqrtps(a);
#else
    for (uint32_t k = 0; k < 4u; k++) a[k] = eg_vm_sqrtf(a[k]);
    return a;
#endif
}

static void probe_op(const cop_t *o, float (*pv)[4])
{
    pv4_t a, b, c, r;
    PV_LOAD(a, pv[o->a]);
    switch (o->op) {
    case EG_VM_MOV: r = a; break;
    case EG_VM_FNEG: r = -a; break;
    case EG_VM_FABS: r = pv_abs(a); break;
    case EG_VM_FSQRT: r = pv_sqrt(a); break;
    case EG_VM_FADD: PV_LOAD(b, pv[o->b]); r = a + b; break;
    case EG_VM_FSUB: PV_LOAD(b, pv[o->b]); r = a - b; break;
    case EG_VM_FMUL: PV_LOAD(b, pv[o->b]); r = a * b; break;
    case EG_VM_FMIN: case EG_VM_FNMIN: PV_LOAD(b, pv[o->b]); r = pv_min(a, b); break;
    case EG_VM_FMAX: case EG_VM_FNMAX: PV_LOAD(b, pv[o->b]); r = pv_max(a, b); break;
    case EG_VM_FFMA: PV_LOAD(b, pv[o->b]); PV_LOAD(c, pv[o->c]); r = a * b; r = r + c; break;
    case EG_VM_FCLAMP: case EG_VM_FNCLAMP: PV_LOAD(b, pv[o->b]); PV_LOAD(c, pv[o->c]); r = pv_min(pv_max(a, b), c); break;
    default: r = a - a + bitsf(0x7fc00000u); break;   /* (compile() admits no other op) */
    }
    PV_STORE(pv[o->dst], r);
}
#else
static void probe_op(const cop_t *o, float (*pv)[4])
{
    const float *a = pv[o->a], *b = pv[o->b], *c = pv[o->c];
    float *d = pv[o->dst];
    uint32_t k;
    switch (o->op) {
    case EG_VM_MOV: for (k = 0; k < 4u; k++) d[k] = a[k]; break;
    case EG_VM_FNEG: for (k = 0; k < 4u; k++) d[k] = -a[k]; break;
    case EG_VM_FABS: for (k = 0; k < 4u; k++) d[k] = bitsf(fbits(a[k]) & 0x7fffffffu); break;
    case EG_VM_FSQRT: for (k = 0; k < 4u; k++) d[k] = eg_vm_sqrtf(a[k]); break;
    case EG_VM_FADD: for (k = 0; k < 4u; k++) d[k] = a[k] + b[k]; break;
    case EG_VM_FSUB: for (k = 0; k < 4u; k++) d[k] = a[k] - b[k]; break;
    case EG_VM_FMUL: for (k = 0; k < 4u; k++) d[k] = a[k] * b[k]; break;
    case EG_VM_FMIN: case EG_VM_FNMIN: for (k = 0; k < 4u; k++) d[k] = min_f(a[k], b[k]); break;
    case EG_VM_FMAX: case EG_VM_FNMAX: for (k = 0; k < 4u; k++) d[k] = max_f(a[k], b[k]); break;
    case EG_VM_FFMA: for (k = 0; k < 4u; k++) d[k] = a[k] * b[k] + c[k]; break;
    case EG_VM_FCLAMP: case EG_VM_FNCLAMP: for (k = 0; k < 4u; k++) d[k] = min_f(max_f(a[k], b[k]), c[k]); break;
    default: for (k = 0; k < 4u; k++) d[k] = bitsf(0x7fc00000u); break;   /* (compile() admits no other op) */
    }
}
#endif

/* True when an output component certainly differs between pixels of p by more than a proof allows. */
static bool probe_differs(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p)
{
    const eg_soft_setup_t *s = &f->s;
    const float *iw = f->t->invw;
    float (*pv)[4] = ct->pv, l1[4], l2[4], p1[4], p2[4];
    /* equal 1 / w (an affine triangle): the perspective weights are the linear ones (rounding apart) */
    /* ct->persp (the program reads a perspective input) rather than a loop over ct->in_interp:
     * p1 / p2 are read only by the inputs that are perspective, so where none of ct->in is, they
     * are computed and unused, the same values either way (the loop: ~0.3 M on the UI row) */
    bool persp = ct->persp && (iw[0] != iw[1] || iw[0] != iw[2]);
    /* the weights at the first corner from its exact edge values, at the others by the weights'
     * per-pixel gradients (ct->pg, once per triangle) */
    int64_t X = (p->bx0 + p->fx0) * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, Y = (p->by0 + p->fy0) * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    float e1 = (float)(s->A[1] * X + s->B[1] * Y + s->C[1]) * s->inv_area2;
    float e2 = (float)(s->A[2] * X + s->B[2] * Y + s->C[2]) * s->inv_area2;
    float dx = (float)(p->bx1 + p->fx1 - p->bx0 - p->fx0), dy = (float)(p->by1 + p->fy1 - p->by0 - p->fy0);
    for (uint32_t k = 0; k < 4u; k++) {
        float fx = (k & 1u) ? dx : 0.0f, fy = (k & 2u) ? dy : 0.0f;
        l1[k] = e1 + fx * ct->pg[0] + fy * ct->pg[1];
        l2[k] = e2 + fx * ct->pg[2] + fy * ct->pg[3];
    }
    if (persp)
        for (uint32_t k = 0; k < 4u; k++) {
            float q0 = (1.0f - l1[k] - l2[k]) * iw[0], q1 = l1[k] * iw[1], q2 = l2[k] * iw[2], r = 1.0f / (q0 + q1 + q2);
            p1[k] = q1 * r;
            p2[k] = q2 * r;
        }
    for (uint32_t i = 0; i < ct->nin; i++) {
        const float *w1 = !persp || ct->in_interp[i] == EG_SOFT_INTERP_LINEAR ? l1 : p1;
        const float *w2 = !persp || ct->in_interp[i] == EG_SOFT_INTERP_LINEAR ? l2 : p2;
        float a0 = ct->in_a0[i], d1 = ct->in_d1[i], d2 = ct->in_d2[i], *d = pv[ct->in_dst[i]];
        for (uint32_t k = 0; k < 4u; k++) d[k] = a0 + w1[k] * d1 + w2[k] * d2;
    }
    /* (the count read once: the value stores may alias uint8_t fields for the compiler, which
     * reloaded ct->nops after every operation; with region_tri_eval's, 0.67 M on the UI row) */
    for (uint32_t i = 0, n = ct->nops; i < n; i++) probe_op(&ct->ops[i], pv);
    for (uint32_t c = 0; c < 4u; c++) {
        if (!(ct->probe_out >> c & 1u)) continue;   /* one value over the triangle */
        const float *o = pv[ct->out[c]];
        float lo = min_f(min_f(o[0], o[1]), min_f(o[2], o[3])), hi = max_f(max_f(o[0], o[1]), max_f(o[2], o[3]));
        if (!finite_f(lo) || !finite_f(hi)) continue;   /* (a NaN too) unknown */
        float m = hi > -lo ? hi : -lo;
        if (hi - lo > eg_soft_const_range_max + 0x1p-8f * (m > 1.0f ? m : 1.0f)) return true;
    }
    return false;
}

static bool region_tri_eval(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p,
                            uint32_t outb[4], uint32_t *hi);

/* hi: NULL for one value only; else the proof may end in ranges no wider than eg_soft_const_range_max, outb
 * then their lower and hi their upper ends (equal where a component is one value). */
static bool region_tri(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p, uint32_t outb[4],
                       uint32_t *hi)
{
    if (ct->nin && probe_differs(f, ct, p)) {
        f->w->probe_skips++;
        if (!eg_soft_const_probe_check) return false;
        if (region_tri_eval(f, ct, p, outb, hi)) f->w->probe_wrong++;
        return false;
    }
    return region_tri_eval(f, ct, p, outb, hi);
}

/* region_tri_eval's outputs from the value table: the bits, or false (not one value, nor a
 * narrow range where hi asks for one) */
static inline bool tri_out(const eg_soft_const_tri_t *ct, uint32_t outb[4], uint32_t *hi)
{
    for (uint32_t c = 0; c < 4u; c++) {
        const aval_t *a = &ct->v[ct->out[c]];
        if (!a->cst && (!hi || !(a->hi - a->lo <= eg_soft_const_range_max))) return false;
        outb[c] = fbits(a->lo);
        if (hi) hi[c] = a->cst ? outb[c] : fbits(a->hi);
    }
    return true;
}

static bool region_tri_eval(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p,
                            uint32_t outb[4], uint32_t *hi)
{
    aval_t *v = ct->v;
    if (ct->nin) {
        eg_soft_wbound_t wb;
        eg_soft_affine_t ac;
        int32_t wbs = 0;   /* wb: 0 not computed yet, 1 computed, -1 failed */
        ac.state = 0;
        /* One bound per input (rrect10; both bounds hold, so either alone does): where d1 or d2 is
         * 0 the corner bound is the tight one (the affine one alone is looser there: 16% more
         * blocks through the VM, session 6), where both are nonzero (a quad's second triangle)
         * the affine one (the corner bound treats w1 and w2 as independent there). Intersecting
         * both cost ~650 instructions a proof on the UI bench and sent no block fewer to the VM
         * (shade_block 20.82 M instructions either way); the weights' bound is computed only
         * when an input needs it. */
        for (uint32_t i = 0; i < ct->nin; i++) {
            eg_soft_range_t *r = &v[ct->in_dst[i]];
            if (ct->in_d1[i] != 0.0f && ct->in_d2[i] != 0.0f) {
                if (ac.state == 0) eg_soft_affine_corners(f, p, &ac);
                if (eg_soft_vary_bound_affine_ac(f, &ac, ct->in_interp[i], ct->in_a0[i], ct->in_d1[i], ct->in_d2[i], r))
                    continue;
            }
            if (wbs == 0) wbs = eg_soft_weights_bound(f, p, ct->persp, &wb) ? 1 : -1;
            if (wbs < 0 || !eg_soft_vary_bound(&wb, ct->in_interp[i], ct->in_a0[i], ct->in_d1[i], ct->in_d2[i], r))
                return false;
        }
    }
    for (uint32_t i = 0, n = ct->nops; i < n; i++) {   /* (n: as probe_differs) */
        const cop_t *o = &ct->ops[i];
        if (!one_op(o, v, &v[o->dst])) return false;
    }
    return tri_out(ct, outb, hi);
}

/* soft_raster_rect.c (rectpair, session 12): probe_differs at p's corner pixels alone (p need not
 * be a pixel set the proof takes: only its first and last pixels are read), true when it sees the
 * outputs differ (a proof over any set holding those pixels would fail; a wrong skip costs a
 * proof's pixels, never bytes). With eg_soft_const_probe_check false: the proofs run. */
static bool probe_eval(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p);

bool eg_soft_const_probe_tri(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p)
{
    if (ct->state <= 0 || !ct->nin || eg_soft_const_probe_check || !probe_eval(f, ct, p)) return false;
    f->w->probe_skips++;
    return true;
}

static inline bool differ4(const uint32_t a[4], const uint32_t b[4])
{
    return ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3])) != 0u;
}

/* ---- the rect path's proofs by their exact relative inputs (helper rectcut, session 15) ----
 *
 * WHY. A UI draws many rounded rectangles of one size: the UI bench's 50 a frame (120 x 80 px,
 * radius 12) at 2 horizontal phases (x = 0 or 2 mod 4). raster_rect_pair proves ~10 pixel sets
 * each (the rows' middles, the middle row's sides and middle, for both triangles), ~1.85 k
 * instructions a proof: 4.6 M of the 20.0 M the rectangles take on row 4 (BENCH_UI_DRAWS=2).
 * The same set of another rectangle of the same shape at the same phase is the same proof: the
 * same operations on the same operands, colour apart.
 *
 * WHAT A PROOF READS (region_tri_eval, after eg_soft_const_tri_init): the triangle's edges 1 and
 * 2 through A1, B1, A2, B2, inv_area2 and their exact integer values E = A X + B Y + C at pixel
 * centres of the set (eg_soft_weights_bound's edge_bound: its least and greatest block-origin
 * values, A and B times the set's block extent added to E at its first block origin;
 * eg_soft_affine_corners: E at its corner pixels, E at the first block origin plus A and B times
 * the in-block offsets and extents); the set's in-block offsets fx0 .. fy1 (lambda_bound2) and
 * extents; 1 / w at the vertices (perspective inputs); the per-triangle inputs (interp, a0,
 * d1, d2, destination slot); the op list; the values of the slots those ops read before they
 * write them (constants, and the colour and shape folded in per triangle by
 * eg_soft_const_tri_init: the bench's alpha); the output slots; whether a range may end it
 * (hi) and eg_soft_const_range_max. Every one of them is in pm_key_t, E as its value at the set's
 * first block origin (the same integers whatever the translation), floats as bits. The result
 * is then the same function of the same arguments: the same bits, or the same failure, and the
 * key never depends on where the rectangle is, only on what the proof computes from. The colour
 * channels the program passes through unchanged are output slots no op writes: tri_out reads
 * them from this triangle's own table, so rectangles of other colours share the entry (the
 * bench's: 2 keys a set, one per phase). The triangle's part of the key is read once, at its
 * first proof (pm_classify): after eg_soft_const_tri_init nothing writes the ops, inputs or
 * the slots read before written (the proofs write the inputs' and the ops' own slots only). A
 * slot read before it is written that the ops also
 * write (a value carried from one proof to the next) makes the set unmemoized (never in the
 * compiled programs, which give each operation its own slot). The memo is per worker (no
 * sharing between threads), 2-way set-associative; a hit restores the written output slots
 * (all that tri_out reads of them) and returns what the proof returned. eg_soft_proof_memo_verify
 * (tests) recomputes every hit and counts the mismatches (proof_memo_wrong). The probes
 * (probe_eval) go through the same memo.
 * Measured (callgrind, 5 frames, 1 thread): row 4 with BENCH_UI_DRAWS=2 20.01 M -> 16.55 M
 * instructions; of 2 500 proofs 77 run, of 500 probes 4; a hit is ~400 instructions (key,
 * lookup, outputs). What is left a rectangle: its ~32 VM blocks (~31 k), fills (~16 k), the two
 * triangles' set-up (eg_soft_const_tri_init ~1.4 k each). */
bool eg_soft_proof_memo_on = true;
bool eg_soft_proof_memo_verify = false;

uint32_t eg_soft_proof_memo_entries(void) { return (uint32_t)(EMGPU_SOFT_PROOF_MEMO); }

#if EMGPU_SOFT_PROOF_MEMO
_Static_assert((EMGPU_SOFT_PROOF_MEMO) >= 2 && ((EMGPU_SOFT_PROOF_MEMO) & ((EMGPU_SOFT_PROOF_MEMO) - 1)) == 0,
               "EMGPU_SOFT_PROOF_MEMO: a power of two, at least 2 (2-way sets)");
_Static_assert(EG_SOFT_CONST_TRI_VALS <= 128u, "pm_tri_key's slot masks: 2 x 64 bits");
#define PM_OPS 32u    /* memoized proofs: at most this many ops (the bench's rounded rectangle: 18) */
#define PM_IN 4u      /* inputs */
#define PM_LIVE 16u   /* slots read before written */
#define PM_CLS 8u     /* triangle keys a worker keeps */

/* The triangle's part of the key (ct's, once per triangle: its loop over the ops was ~1.3 k
 * instructions a proof when built per set): compared whole, zeroed first (padding). */
typedef struct pm_tri_key {
    uint8_t small[8];      /* persp, nin, nops, nlive, out[0..3] */
    uint8_t in_dst[PM_IN], in_interp[PM_IN];
    uint32_t in_f[PM_IN][3];           /* a0, d1, d2 */
    cop_t ops[PM_OPS];
    uint32_t live[PM_LIVE][3];         /* lo, hi, cst of each slot read before written, in read order */
} pm_tri_key_t;

/* The set's part: the triangle key's class (index and generation: a class reused for another
 * key gets a new generation, so entries of the old one never match), the geometry. */
typedef struct pm_key {
    int64_t e[2];          /* edges 1, 2 at the set's first block origin's pixel centre */
    int64_t ab[4];         /* A1, B1, A2, B2 */
    int64_t span[2];       /* bx1 - bx0, by1 - by0 */
    uint32_t cls, gen;
    uint32_t bits[6];      /* inv_area2, invw[0..2], eg_soft_const_range_max, hi asked */
    uint32_t f4;           /* fx0, fx1, fy0, fy1 */
} pm_key_t;

typedef struct pm_entry {
    pm_key_t k;
    uint32_t used, ok;
    aval_t out[4];                     /* the output slots after the proof (those it wrote are read) */
} pm_entry_t;

/* The slots an op list reads before it writes them, and the outputs it writes (pm_tri_key):
 * a function of the ops, the input slots and the output slots alone, kept for the last list
 * seen (the walk over the ops was ~1.3 k instructions a triangle; a UI draw's triangles share
 * one list). ok: memoizable (no more than PM_LIVE such slots, none of them written later). */
typedef struct pm_live {
    uint32_t valid, ok, nin, nops, nlive, wm;
    uint8_t in_dst[PM_IN], out[4], slot[PM_LIVE];
    cop_t ops[PM_OPS];
} pm_live_t;

typedef struct pm_worker {
    EG_SOFT_OWN_LINE pm_live_t live;
    pm_tri_key_t cls[PM_CLS];
    uint32_t cls_gen[PM_CLS], cls_used[PM_CLS], cls_next;
    pm_entry_t e[EMGPU_SOFT_PROOF_MEMO];
} pm_worker_t;

static pm_worker_t pm_tab[EMGPU_SOFT_MAX_THREADS];

static void pm_live_scan(pm_live_t *L, const eg_soft_const_tri_t *ct)
{
    L->valid = 1u;
    L->ok = 0u;
    L->nin = ct->nin;
    L->nops = ct->nops;
    eg_memcpy(L->in_dst, ct->in_dst, ct->nin);
    eg_memcpy(L->out, ct->out, 4);
    eg_memcpy(L->ops, ct->ops, ct->nops * sizeof(cop_t));
    uint64_t wr[2] = { 0, 0 }, rd[2] = { 0, 0 };
    for (uint32_t i = 0; i < ct->nin; i++) wr[ct->in_dst[i] >> 6] |= 1ull << (ct->in_dst[i] & 63u);
    uint32_t nlive = 0;
    for (uint32_t i = 0; i < ct->nops; i++) {
        const cop_t *o = &ct->ops[i];
        const uint8_t opd[3] = { o->a, o->b, o->c };
        for (uint32_t j = 0, n = op_args(o->op); j < n; j++) {
            const uint32_t s = opd[j];
            const uint64_t b = 1ull << (s & 63u);
            if ((wr[s >> 6] | rd[s >> 6]) & b) continue;
            if (nlive == PM_LIVE) return;
            rd[s >> 6] |= b;
            L->slot[nlive++] = (uint8_t)s;
        }
        wr[o->dst >> 6] |= 1ull << (o->dst & 63u);
    }
    if ((rd[0] & wr[0]) | (rd[1] & wr[1])) return;
    L->wm = 0;
    for (uint32_t c = 0; c < 4u; c++) L->wm |= (uint32_t)(wr[ct->out[c] >> 6] >> (ct->out[c] & 63u) & 1u) << c;
    L->nlive = nlive;
    L->ok = 1u;
}

/* ct's triangle key; false: not memoized (too big, or a value carried from proof to proof). *wm:
 * the output components whose slots the proof writes. */
static bool pm_tri_key(pm_live_t *L, const eg_soft_const_tri_t *ct, pm_tri_key_t *k, uint32_t *wm)
{
    if (ct->nops > PM_OPS || ct->nin > PM_IN) return false;
    if (!L->valid || L->nops != ct->nops || L->nin != ct->nin || eg_memcmp(L->out, ct->out, 4) != 0 ||
        eg_memcmp(L->in_dst, ct->in_dst, ct->nin) != 0 || eg_memcmp(L->ops, ct->ops, ct->nops * sizeof(cop_t)) != 0)
        pm_live_scan(L, ct);
    if (!L->ok) return false;
    eg_memset(k, 0, sizeof *k);
    for (uint32_t i = 0; i < ct->nin; i++) {
        k->in_dst[i] = ct->in_dst[i];
        k->in_interp[i] = ct->in_interp[i];
        k->in_f[i][0] = fbits(ct->in_a0[i]);
        k->in_f[i][1] = fbits(ct->in_d1[i]);
        k->in_f[i][2] = fbits(ct->in_d2[i]);
    }
    eg_memcpy(k->ops, ct->ops, ct->nops * sizeof(cop_t));
    for (uint32_t i = 0; i < L->nlive; i++) {
        const aval_t *v = &ct->v[L->slot[i]];
        k->live[i][0] = fbits(v->lo);
        k->live[i][1] = fbits(v->hi);
        k->live[i][2] = v->cst;
    }
    for (uint32_t c = 0; c < 4u; c++) k->small[4u + c] = ct->out[c];
    k->small[0] = ct->persp;
    k->small[1] = ct->nin;
    k->small[2] = ct->nops;
    k->small[3] = (uint8_t)L->nlive;
    *wm = L->wm;
    return true;
}

/* ct's class in the worker's memo (ct->pm_cls: index + 1, or PM_NONE), once per triangle */
#define PM_NONE 0xffffffffu
static void pm_classify(pm_worker_t *m, eg_soft_const_tri_t *ct)
{
    pm_tri_key_t k;
    uint32_t wm;
    ct->pm_cls = PM_NONE;
    if (!pm_tri_key(&m->live, ct, &k, &wm)) return;
    uint32_t c = eg_soft_memo_class(m->cls, m->cls_used, m->cls_gen, PM_CLS, &m->cls_next, &k, sizeof k);
    ct->pm_cls = c + 1u;
    ct->pm_gen = m->cls_gen[c];
    ct->pm_wm = (uint8_t)wm;
}

static inline uint32_t pm_hash(const pm_key_t *k)
{
    uint64_t h = (uint64_t)k->e[0] * 0x9e3779b97f4a7c15ull ^ (uint64_t)k->e[1] * 0xc2b2ae3d27d4eb4full;
    h ^= (uint64_t)(k->span[0] * 31 + k->span[1]) * 0x165667b19e3779f9ull;
    h ^= (uint64_t)(k->f4 * 0x27d4eb2fu) ^ (uint64_t)k->cls * 0x85ebca77u;
    return (uint32_t)(h >> 32 ^ h);
}

static inline bool pm_same(const pm_key_t *a, const pm_key_t *b)
{
    return a->e[0] == b->e[0] && a->e[1] == b->e[1] && a->span[0] == b->span[0] && a->span[1] == b->span[1] &&
           a->f4 == b->f4 && a->cls == b->cls && a->gen == b->gen && a->ab[0] == b->ab[0] && a->ab[1] == b->ab[1] &&
           a->ab[2] == b->ab[2] && a->ab[3] == b->ab[3] && a->bits[0] == b->bits[0] && a->bits[1] == b->bits[1] &&
           a->bits[2] == b->bits[2] && a->bits[3] == b->bits[3] && a->bits[4] == b->bits[4] && a->bits[5] == b->bits[5];
}

/* The set key of ct's proof (tag 0, or 1: hi asked) or probe (tag 2 | probe_out << 2) over p;
 * false: not memoized. */
static bool pm_set_key(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p, uint32_t tag, pm_key_t *k)
{
    const eg_soft_worker_t *w = f->w;
    /* (in-block offsets are 0..3: f4 below holds them exactly) */
    if (!eg_soft_proof_memo_on || w->index >= EMGPU_SOFT_MAX_THREADS || (p->fx0 | p->fx1 | p->fy0 | p->fy1) > 3u)
        return false;
    if (ct->pm_cls == 0u) pm_classify(&pm_tab[w->index], ct);
    if (ct->pm_cls == PM_NONE) return false;
    const eg_soft_setup_t *st = &f->s;
    const int64_t X = p->bx0 * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, Y = p->by0 * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    const float *iw = f->t->invw;
    *k = (pm_key_t){ { st->A[1] * X + st->B[1] * Y + st->C[1], st->A[2] * X + st->B[2] * Y + st->C[2] },
                     { st->A[1], st->B[1], st->A[2], st->B[2] },
                     { p->bx1 - p->bx0, p->by1 - p->by0 },
                     ct->pm_cls,
                     ct->pm_gen,
                     { fbits(st->inv_area2), fbits(iw[0]), fbits(iw[1]), fbits(iw[2]), fbits(eg_soft_const_range_max), tag },
                     p->fx0 | p->fx1 << 8 | p->fy0 << 16 | p->fy1 << 24 };
    return true;
}

/* k's 2-way set in the worker's memo, and its entry there (NULL: a miss) */
static pm_entry_t *pm_lookup(const eg_soft_worker_t *w, const pm_key_t *k, pm_entry_t **set)
{
    *set = &pm_tab[w->index].e[2u * (pm_hash(k) & ((EMGPU_SOFT_PROOF_MEMO) / 2u - 1u))];
    for (uint32_t way = 0; way < 2u; way++)
        if ((*set)[way].used && pm_same(&(*set)[way].k, k)) return &(*set)[way];
    return NULL;
}

static pm_entry_t *pm_insert(pm_entry_t *set, const pm_key_t *k, bool ok)
{
    set[1] = set[0];
    set[0].k = *k;
    set[0].used = 1u;
    set[0].ok = ok;
    return &set[0];
}

/* region_tri_eval of ct over p through the worker's memo */
static bool pxset_eval(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p, uint32_t outb[4],
                       uint32_t *hi)
{
    eg_soft_worker_t *w = f->w;
    pm_key_t k;
    if (!pm_set_key(f, ct, p, hi != NULL, &k)) return region_tri_eval(f, ct, p, outb, hi);
    pm_entry_t *set, *e = pm_lookup(w, &k, &set);
    if (e) {
        w->proof_memo_hits++;
        bool ok = e->ok != 0u;
        if (ok) {
            for (uint32_t c = 0; c < 4u; c++)
                if (ct->pm_wm >> c & 1u) ct->v[ct->out[c]] = e->out[c];
            ok = tri_out(ct, outb, hi);
        }
        if (eg_soft_proof_memo_verify) {
            uint32_t o2[4], h2[4];
            bool ok2 = region_tri_eval(f, ct, p, o2, hi ? h2 : NULL);
            if (ok2 != ok || (ok && (differ4(o2, outb) || (hi && differ4(h2, hi))))) w->proof_memo_wrong++;
        }
        return ok;
    }
    const bool ok = region_tri_eval(f, ct, p, outb, hi);
    e = pm_insert(set, &k, ok);
    for (uint32_t c = 0; c < 4u; c++) e->out[c] = ct->v[ct->out[c]];
    return ok;
}

/* probe_differs through the memo (its inputs are the proof's, but for the 4 corner pixels'
 * plain float run: the same key; the output components it checks, probe_out, in the tag; a
 * component it reads that no proof writes would be read from the value table: not memoized).
 * A probe only chooses between a proof and the program, so a wrong answer could cost
 * instructions, never bytes (eg_soft_const_probe_tri); it is exact all the same. */
static bool probe_eval(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p)
{
    eg_soft_worker_t *w = f->w;
    pm_key_t k;
    if (!pm_set_key(f, ct, p, 2u | (uint32_t)ct->probe_out << 2, &k) || (ct->probe_out & ~ct->pm_wm))
        return probe_differs(f, ct, p);
    pm_entry_t *set, *e = pm_lookup(w, &k, &set);
    if (e) {
        w->proof_memo_hits++;
        if (eg_soft_proof_memo_verify && probe_differs(f, ct, p) != (e->ok != 0u)) w->proof_memo_wrong++;
        return e->ok != 0u;
    }
    const bool d = probe_differs(f, ct, p);
    pm_insert(set, &k, d);
    return d;
}
#else
static bool pxset_eval(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p, uint32_t outb[4],
                       uint32_t *hi)
{
    return region_tri_eval(f, ct, p, outb, hi);
}

static bool probe_eval(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p)
{
    return probe_differs(f, ct, p);
}
#endif

/* soft_raster_rect.c (rectpair, session 12): one pixel set's proof (no interior or band: the
 * rectangle walk keeps its own pieces). Without region_tri's probe (session 13, rectc): the
 * rectangle walk probes a piece once before its sets (eg_soft_const_probe_tri) or proves pieces
 * that are expected to hold (the second triangle's of the first's proved pieces, a cut row's
 * middles), so the sets' own probes (~650 instructions each, 2 850 on row 2's rectangles) nearly
 * never skipped a failing proof: 1.08 M instructions fewer on the row's rectangles. */
bool eg_soft_const_pxset_tri(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p, uint32_t outb[4],
                             uint32_t hi[4])
{
    f->w->crange = false;
    if (ct->state <= 0 || !pxset_eval(f, ct, p, outb, ct->rng ? hi : NULL)) return false;
    if (!ct->rng && hi) eg_memcpy(hi, outb, 4u * sizeof hi[0]);
    return true;
}


void eg_soft_const_tri_interior(eg_soft_const_tri_t *ct, int64_t x0, int64_t x1, int64_t y0, int64_t y1)
{
    ct->lim_x0 = x0;
    ct->lim_x1 = x1;
    ct->lim_y0 = y0;
    ct->lim_y1 = y1;
}

/* p without the lanes of its one block column (row) whose pixel centres lie outside the
 * triangle's extent (ct->cx*, cy*): with one sample (at the centre) those pixels are never
 * covered, so a proof over the rest holds for every pixel the region stores. The walk's side
 * strips hold the shape's edge: the uncovered lanes beside it are where a shape drawn on its
 * quad fades out. With 4 samples a pixel whose centre is outside may be covered (and shaded at
 * its centre): p as it is. */
static eg_soft_pxset_t covered_lanes(const eg_soft_frag_t *f, const eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p)
{
    eg_soft_pxset_t q = *p;
    if (f->samples != 1u) return q;
    if (q.bx0 == q.bx1) {
        int64_t a = ct->cx0 - q.bx0, b = ct->cx1 - q.bx0;
        if (a > (int64_t)q.fx0 && a <= (int64_t)q.fx1) q.fx0 = (uint32_t)a;
        if (b < (int64_t)q.fx1 && b >= (int64_t)q.fx0) q.fx1 = (uint32_t)b;
    }
    if (q.by0 == q.by1) {
        int64_t a = ct->cy0 - q.by0, b = ct->cy1 - q.by0;
        if (a > (int64_t)q.fy0 && a <= (int64_t)q.fy1) q.fy0 = (uint32_t)a;
        if (b < (int64_t)q.fy1 && b >= (int64_t)q.fy0) q.fy1 = (uint32_t)b;
    }
    return q;
}

/* Bands (ui8, session 8). The walk proves a side region that fails whole as four 4 px strips
 * along the side, and the interior's regions one by one when the interior fails whole (the
 * bench's rounded rectangles: ~94 proofs a triangle). A set's proof holds for each subset (the
 * interior's argument), so the strips of one block column (row) beside the interior, away from
 * its first and last region row (column), are proved once as that column's band, and when the
 * interior fails, its two cross bands (all its columns but the first and last region's rows, and
 * the other way) are tried: a rounded rectangle's corners fall outside both. Each band is
 * proved once per triangle; a failed one is remembered and its regions proved as before. */
static int32_t band_prove(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *q, bool rng)
{
    uint32_t i = 0;
    while (i < ct->nband && eg_memcmp(&ct->band[i], q, sizeof *q) != 0) i++;
    if (i < ct->nband) return (int32_t)i;
    if (ct->nband >= EG_SOFT_CONST_TRI_BANDS || q->bx0 > q->bx1 || q->by0 > q->by1) return -1;
    ct->band[i] = *q;
    ct->band_ok[i] = region_tri_eval(f, ct, q, ct->band_out[i], rng ? ct->band_hi[i] : NULL) ? 1 : -1;
    if (!rng) eg_memcpy(ct->band_hi[i], ct->band_out[i], sizeof ct->band_hi[i]);
    ct->nband++;
    return (int32_t)i;
}

static inline bool band_has(const eg_soft_pxset_t *b, const eg_soft_pxset_t *p)
{
    return b->bx0 <= p->bx0 && p->bx1 <= b->bx1 && b->by0 <= p->by0 && p->by1 <= b->by1 && b->fx0 <= p->fx0 &&
           p->fx1 <= b->fx1 && b->fy0 <= p->fy0 && p->fy1 <= b->fy1;
}

/* 1: p (covered lanes) lies in a proved band, outb its bits; 0: prove p itself. */
static int band_lookup(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p, uint32_t outb[4],
                       uint32_t hi[4], bool rng)
{
    const int64_t R = 16;   /* the walk's region size: the interior's first and last region rows */
    int32_t hit = -1;
    for (uint32_t i = 0; i < ct->nband && hit < 0; i++)
        if (ct->band_ok[i] > 0 && band_has(&ct->band[i], p)) hit = (int32_t)i;
    if (hit < 0 && ct->lim_x0 + 2 * R < ct->lim_x1 && ct->lim_y0 + 2 * R < ct->lim_y1) {
        bool col = p->bx0 == p->bx1 && p->by0 >= ct->lim_y0 + R && p->by1 + 4 <= ct->lim_y1 - R &&
                   (p->bx0 + 4 <= ct->lim_x0 || p->bx0 >= ct->lim_x1);
        bool row = p->by0 == p->by1 && p->bx0 >= ct->lim_x0 + R && p->bx1 + 4 <= ct->lim_x1 - R &&
                   (p->by0 + 4 <= ct->lim_y0 || p->by0 >= ct->lim_y1);
        eg_soft_pxset_t q = *p;
        if (col) { q.by0 = ct->lim_y0 + R; q.by1 = ct->lim_y1 - R - 4; q.fy0 = 0; q.fy1 = 3; }
        if (row) { q.bx0 = ct->lim_x0 + R; q.bx1 = ct->lim_x1 - R - 4; q.fx0 = 0; q.fx1 = 3; }
        int32_t i = col || row ? band_prove(f, ct, &q, rng) : -1;
        if (i >= 0 && ct->band_ok[i] > 0) hit = i;
    }
    if (hit < 0) return 0;
    for (uint32_t c = 0; c < 4u; c++) { outb[c] = ct->band_out[hit][c]; hi[c] = ct->band_hi[hit][c]; }
    return 1;
}

/* The interior's cross bands, after the interior failed whole. */
static void band_cross(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, bool rng)
{
    const int64_t R = 16;
    eg_soft_pxset_t h = { ct->lim_x0, ct->lim_x1 - 4, ct->lim_y0 + R, ct->lim_y1 - R - 4, 0, 3, 0, 3 };
    eg_soft_pxset_t v = { ct->lim_x0 + R, ct->lim_x1 - R - 4, ct->lim_y0, ct->lim_y1 - 4, 0, 3, 0, 3 };
    (void)band_prove(f, ct, &h, rng);
    (void)band_prove(f, ct, &v, rng);
}

/* The interior (bin7, session 7): a proof over a pixel set holds for every subset of it (each
 * input's bound over the subset lies inside the bound over the set, and the operations are
 * monotone in their operands' ranges), so once the interior rectangle of the walk is proved
 * whole, a region inside it takes its bits without a proof of its own. It is tried once, after
 * the first region inside it holds (a shape whose interior is not constant fails that first). */
bool eg_soft_const_region_tri(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p, uint32_t outb[4])
{
    eg_soft_worker_t *w = f->w;
    w->crange = false;
    if (ct->state < 0) return false;
    if (ct->sup > 0 && p->bx0 >= ct->lim_x0 && p->bx1 + 4 <= ct->lim_x1 && p->by0 >= ct->lim_y0 &&
        p->by1 + 4 <= ct->lim_y1) {
        for (uint32_t c = 0; c < 4u; c++) outb[c] = ct->sup_out[c];
        f->w->interior_hits++;
        return true;
    }
    eg_soft_pxset_t pc = covered_lanes(f, ct, p);
    /* ranges only where the row fill takes the region (region_const stores outb's bits else) */
    bool rng = ct->rng;
    if (band_lookup(f, ct, &pc, outb, w->crange_hi, rng)) {
        w->band_hits++;
        w->crange = differ4(outb, w->crange_hi);
        return true;
    }
    if (!region_tri(f, ct, &pc, outb, rng ? w->crange_hi : NULL)) return false;
    w->crange = rng && differ4(outb, w->crange_hi);
    if (ct->sup == 0 && !w->crange && p->bx0 >= ct->lim_x0 && p->bx1 + 4 <= ct->lim_x1 && p->by0 >= ct->lim_y0 &&
        p->by1 + 4 <= ct->lim_y1) {
        eg_soft_pxset_t q = { ct->lim_x0, ct->lim_x1 - 4, ct->lim_y0, ct->lim_y1 - 4, 0, 3, 0, 3 };
        ct->sup = region_tri(f, ct, &q, ct->sup_out, NULL) ? 1 : -1;
        for (uint32_t c = 0; c < 4u && ct->sup > 0; c++)
            if (ct->sup_out[c] != outb[c]) ct->sup = -1;   /* cannot happen: p lies in q */
        if (ct->sup < 0) band_cross(f, ct, rng);
    }
    return true;
}

#endif /* EMGPU_HAL_SOFT */
