/* SPIR-V front end over files: the GLSL test shaders (reflection asserted), one negative module
 * per rule (tests/shaders/invalid, "; expect: <fragment>" on line 1), and the real-world corpus
 * in tests/corpus/spirv, a vendored copy of ../shared/corpus/spirv (accepted modules must pass spirv-val; counts printed by reason).
 *
 * Hosted only. Compiled modules come from tests/shaders/shaders.mk, next to this binary in
 * shaders/; run from the repository root. Missing inputs are reported as skipped, by name.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <spirv/unified1/spirv.h>

#include "kernel/shader/spirv.h"
#include "tests/harness/harness.h"

/* harness.o is linked into every hosted program; this one has its own main and no registry. */
extern const eg_test_entry_t eg_test_list[];
extern const unsigned eg_test_count;
const eg_test_entry_t eg_test_list[1] = {{"shader_corpus", "none", NULL}};
const unsigned eg_test_count = 0;

#define MAX_WORDS (1u << 20)
static uint32_t g_words[MAX_WORDS];
static uint8_t g_arena_mem[1u << 20];
static unsigned g_pass, g_fail, g_skip;
static char g_spv_dir[1024];

static void check(int ok, const char *what, const char *detail)
{
    if (ok) { g_pass++; return; }
    g_fail++;
    printf("FAIL %s: %s\n", what, detail ? detail : "");
}

static long load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t n = fread(g_words, 4, MAX_WORDS, f);
    fclose(f);
    return (long)n;
}

static bool run(const char *path, eg_spirv_module_t *m, eg_spirv_error_t *err, long *words_out)
{
    static eg_arena_t arena;
    long n = load(path);
    *words_out = n;
    eg_arena_init(&arena, "test", "test arena", g_arena_mem, sizeof g_arena_mem);
    return eg_spirv_parse(m, g_words, n < 0 ? 0 : (uint32_t)n, &arena, err);
}

/* ---- valid shaders: expected reflection comes from the GLSL sources' layout qualifiers ---- */

static void test_valid(void)
{
    char path[1200];
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    long n;
    snprintf(path, sizeof path, "%s/basic.vert.spv", g_spv_dir);
    if (load(path) < 0) { printf("SKIP shader_valid: %s not built (include tests/shaders/shaders.mk)\n", path); g_skip++; return; }
    bool ok = run(path, &m, &e, &n);
    check(ok, "basic.vert accepted", e.message);
    if (ok) {
        const eg_shader_entry_t *v = eg_spirv_find_entry(&m, EG_SHADER_STAGE_VERTEX, "main");
        check(v && v->input_count == 3, "basic.vert: 3 vertex inputs (a_pos, a_uv, a_joints)", NULL);
        check(v && v->output_count == 2, "basic.vert: 2 outputs (v_uv, v_joint)", NULL);
        check(v && v->binding_count == 1 && v->bindings[0].kind == EG_SHADER_BINDING_UNIFORM &&
              v->bindings[0].group == 0 && v->bindings[0].binding == 0, "basic.vert: uniform at 0/0", NULL);
        int found = 0;
        for (uint32_t i = 0; v && i < v->input_count; i++)
            if (v->inputs[i].location == 2) found = v->inputs[i].scalar == EG_SHADER_SCALAR_U32 && v->inputs[i].components == 4;
        check(found, "basic.vert: location 2 is uvec4", NULL);
        check(eg_spirv_find_entry(&m, EG_SHADER_STAGE_FRAGMENT, "main") == NULL, "basic.vert: no fragment entry", NULL);
    }
    snprintf(path, sizeof path, "%s/textured.frag.spv", g_spv_dir);
    ok = run(path, &m, &e, &n);
    check(ok, "textured.frag accepted", e.message);
    if (ok) {
        const eg_shader_entry_t *f = eg_spirv_find_entry(&m, EG_SHADER_STAGE_FRAGMENT, "");
        check(f && f->output_count == 2 && f->input_count == 2, "textured.frag: 2 inputs, 2 outputs", NULL);
        int tex = 0, smp = 0, utex = 0;
        for (uint32_t i = 0; f && i < f->binding_count; i++) {
            const eg_shader_binding_t *b = &f->bindings[i];
            if (b->group == 0 && b->binding == 1) tex = b->kind == EG_SHADER_BINDING_SAMPLED_TEXTURE && b->dim == 1 && b->sample_type == EG_SHADER_SCALAR_F32;
            if (b->group == 0 && b->binding == 2) smp = b->kind == EG_SHADER_BINDING_SAMPLER;
            if (b->group == 1 && b->binding == 0) utex = b->kind == EG_SHADER_BINDING_SAMPLED_TEXTURE && b->sample_type == EG_SHADER_SCALAR_U32;
        }
        check(f && f->binding_count == 3 && tex && smp && utex, "textured.frag: texture2D 0/1, sampler 0/2, utexture2D 1/0", NULL);
    }
    snprintf(path, sizeof path, "%s/reduce.comp.spv", g_spv_dir);
    ok = run(path, &m, &e, &n);
    check(ok, "reduce.comp accepted", e.message);
    if (ok) {
        const eg_shader_entry_t *c = eg_spirv_find_entry(&m, EG_SHADER_STAGE_COMPUTE, "main");
        check(c && c->workgroup_size[0] == 8 && c->workgroup_size[1] == 4 && c->workgroup_size[2] == 1,
              "reduce.comp: workgroup size 8x4x1", NULL);
        int ro = 0, rw = 0, st = 0;
        for (uint32_t i = 0; c && i < c->binding_count; i++) {
            const eg_shader_binding_t *b = &c->bindings[i];
            if (b->binding == 0) ro = b->kind == EG_SHADER_BINDING_STORAGE_READ_ONLY;
            if (b->binding == 1) rw = b->kind == EG_SHADER_BINDING_STORAGE;
            if (b->binding == 2) st = b->kind == EG_SHADER_BINDING_STORAGE_TEXTURE && b->format == SpvImageFormatRgba8 && b->non_readable;
        }
        check(ro && rw && st, "reduce.comp: readonly buffer 0, buffer 1, writeonly rgba8 image 2", NULL);
    }
    /* Every std140/std430 corner glslang lays out (mat3, vec3 + float, stride-16 arrays, nested
     * and arrayed structs, row-major matrices, vec3 runtime arrays) must pass the layout rules. */
    snprintf(path, sizeof path, "%s/layout.comp.spv", g_spv_dir);
    ok = run(path, &m, &e, &n);
    check(ok, "layout.comp accepted", e.message);
}

/* Every GLSL test shader (after tools/spv_reorder.py, as shaders.mk builds them) passed spirv-val
 * at build time and must be accepted: rules_* exercise loops, switches, calls, matrices, atomics,
 * barriers and workgroup memory; the others are other tests' inputs. */
static void test_all_glsl(void)
{
    DIR *d = opendir(g_spv_dir);
    if (!d) { printf("SKIP shader_glsl: %s not built\n", g_spv_dir); g_skip++; return; }
    struct dirent *de;
    unsigned n = 0;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".spv")) continue;
        char path[1400], what[300];
        snprintf(path, sizeof path, "%s/%s", g_spv_dir, de->d_name);
        snprintf(what, sizeof what, "%s accepted", de->d_name);
        eg_spirv_module_t m;
        eg_spirv_error_t e;
        long words;
        bool ok = run(path, &m, &e, &words);
        check(ok, what, e.message);
        n++;
    }
    closedir(d);
    check(n >= 3, "GLSL test shaders found", g_spv_dir);
}

/* ---- one negative module per rule ---- */

static void test_invalid(void)
{
    DIR *d = opendir("tests/shaders/invalid");
    if (!d) { printf("SKIP shader_invalid: tests/shaders/invalid not found (run from the repo root)\n"); g_skip++; return; }
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 8 || strcmp(de->d_name + len - 7, ".spvasm")) continue;
        char src[1200], spv[1200], line[256] = "", want[200] = "";
        snprintf(src, sizeof src, "tests/shaders/invalid/%s", de->d_name);
        snprintf(spv, sizeof spv, "%s/invalid/%.*s.spv", g_spv_dir, (int)(len - 7), de->d_name);
        FILE *f = fopen(src, "r");
        if (f) { if (!fgets(line, sizeof line, f)) line[0] = 0; fclose(f); }
        if (sscanf(line, "; expect: %199[^\n]", want) != 1) { check(0, src, "first line is not '; expect: <fragment>'"); continue; }
        eg_spirv_module_t m;
        eg_spirv_error_t e;
        long n;
        if (load(spv) < 0) { printf("SKIP %s: %s not built\n", de->d_name, spv); g_skip++; continue; }
        bool ok = run(spv, &m, &e, &n);
        char detail[1024];
        snprintf(detail, sizeof detail, "expected \"%s\", got %s", want, ok ? "accepted" : e.message);
        /* "rule NAME..." must be exactly that rule, not a longer one sharing the prefix. */
        char rule[64] = "";
        bool rule_ok = sscanf(want, "rule %63[A-Z0-9_]", rule) != 1 || strcmp(rule, eg_spirv_rule_name(e.rule)) == 0;
        check(!ok && strstr(e.message, want) != NULL && rule_ok, de->d_name, detail);
    }
    closedir(d);
}

/* ---- real-world corpus ---- */

static unsigned c_total, c_accepted, c_val_fail, by_rule[EG_SPIRV_RULE_COUNT];
static unsigned c_fixed_tried, c_fixed_accepted, by_rule_fixed[EG_SPIRV_RULE_COUNT];
static bool c_have_val, c_have_fix;
static char c_fixed_path[256];
#define CORPUS_DIR "tests/corpus/spirv"   /* vendored copy of ../shared/corpus/spirv (MIT, see its LICENSE.md) */

/* spirv-val with vulkan1.0, the baseline; a module of a later SPIR-V version is validated with
 * the oldest Vulkan environment that accepts that version (1.1 takes SPIR-V 1.3, 1.2 takes 1.5),
 * since spirv-val rejects any version newer than its environment's before looking further. */
static void spirv_val(const eg_spirv_module_t *m, const char *path)
{
    if (!c_have_val) return;
    char cmd[1400];
    const char *env = m->version <= 0x00010000u ? "vulkan1.0" : m->version <= 0x00010300u ? "vulkan1.1" : "vulkan1.2";
    snprintf(cmd, sizeof cmd, "spirv-val --target-env %s '%s' >/dev/null 2>&1", env, path);
    if (system(cmd) != 0) { c_val_fail++; printf("FAIL corpus: accepted but spirv-val (%s) rejects %s\n", env, path); }
}

static int corpus_file(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb; (void)ftw;
    size_t len = strlen(path);
    if (type != FTW_F || len < 4 || strcmp(path + len - 4, ".spv")) return 0;
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    long n;
    c_total++;
    if (run(path, &m, &e, &n)) { c_accepted++; spirv_val(&m, path); return 0; }
    by_rule[e.rule]++;
    /* Real-world GLSL breaks two WebGPU rules that tools/spv_reorder.py fixes without changing
     * the shader (callee order, null initializers): what else would the module need? */
    if (!c_have_fix || (e.rule != EG_SPIRV_RULE_INITIALIZER_REQUIRED && e.rule != EG_SPIRV_RULE_FUNCTION_ORDER))
        return 0;
    char fixed[1400];
    snprintf(fixed, sizeof fixed, "%s/%s", c_fixed_path, path + strlen(CORPUS_DIR));
    c_fixed_tried++;
    if (!run(fixed, &m, &e, &n)) { by_rule_fixed[e.rule]++; return 0; }
    c_fixed_accepted++;
    spirv_val(&m, fixed);
    return 0;
}

static void test_corpus(void)
{
    const char *dir = CORPUS_DIR;
    DIR *d = opendir(dir);
    if (!d) { printf("SKIP shader_corpus: %s not present\n", dir); g_skip++; return; }
    closedir(d);
    c_have_val = system("spirv-val --version >/dev/null 2>&1") == 0;
    if (!c_have_val) printf("SKIP shader_corpus.spirv_val: spirv-val not found\n");
    /* Every module rewritten once up front (one python start, not one per module). */
    char cmd[600];
    snprintf(c_fixed_path, sizeof c_fixed_path, "/tmp/shader_corpus_%ld", (long)getpid());
    snprintf(cmd, sizeof cmd, "python3 tools/spv_reorder.py --tree %s %s", dir, c_fixed_path);
    c_have_fix = system(cmd) == 0;
    if (!c_have_fix) printf("SKIP shader_corpus.spv_reorder: python3 tools/spv_reorder.py failed\n");
    nftw(dir, corpus_file, 16, FTW_PHYS);
    snprintf(cmd, sizeof cmd, "rm -rf %s", c_fixed_path);
    if (system(cmd) != 0) printf("note: could not remove %s\n", c_fixed_path);
    printf("corpus: %u modules, %u accepted, %u rejected\n", c_total, c_accepted, c_total - c_accepted);
    for (int r = 0; r < EG_SPIRV_RULE_COUNT; r++)
        if (by_rule[r]) printf("  rejected %-24s %u\n", eg_spirv_rule_name((eg_spirv_rule_t)r), by_rule[r]);
    printf("corpus after tools/spv_reorder.py: %u of those %u modules accepted, %u rejected\n",
           c_fixed_accepted, c_fixed_tried, c_fixed_tried - c_fixed_accepted);
    for (int r = 0; r < EG_SPIRV_RULE_COUNT; r++)
        if (by_rule_fixed[r]) printf("  rejected %-24s %u\n", eg_spirv_rule_name((eg_spirv_rule_t)r), by_rule_fixed[r]);
    check(c_total > 0, "corpus: found modules", NULL);
    check(c_val_fail == 0, "corpus: every accepted module passes spirv-val (vulkan1.0, or the env its version needs)", NULL);
}

int main(int argc, char **argv)
{
    const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
    snprintf(g_spv_dir, sizeof g_spv_dir, "%.*s/shaders", slash ? (int)(slash - argv[0]) : 1,
             slash ? argv[0] : ".");
    test_valid();
    test_all_glsl();
    test_invalid();
    test_corpus();
    printf("%u passed, %u failed, %u skipped\n", g_pass, g_fail, g_skip);
    return g_fail ? 1 : 0;
}
