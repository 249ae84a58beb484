/* DXBC emitter check: every shader the front end accepts -> IR -> DXBC -> vkd3d-compiler (wine's TPF reader) -> spirv-val.
 *
 * Hosted only. Inputs: the compiled test shaders (shaders/ next to this binary: tests/shaders,
 * which the scenes use too) and the corpus directories given as arguments (tools/tpf_check.sh
 * passes tests/corpus/spirv). Needs vkd3d-compiler and spirv-val on PATH (tools/deps
 * windows-x64); without them, or in a build without EMGPU_D3D12_TPF=1, everything is reported
 * as skipped by name. Prints one line per failure with the reason, then "N passed, N failed, N skipped".
 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/emgpu_config.h"

/* vkd3d-compiler runs on the Linux build machine: the check is a POSIX program. */
#if EMGPU_D3D12_TPF && !defined(_WIN32)
#define TPF_CHECK 1
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#define TPF_CHECK 0
#endif

#include "hal/d3d12/d3d_tpf.h"
#include "kernel/shader/ir.h"
#include "tests/harness/harness.h"

extern const eg_test_entry_t eg_test_list[];
extern const unsigned eg_test_count;
const eg_test_entry_t eg_test_list[1] = {{"d3d12_tpf_check", "none", NULL}};
const unsigned eg_test_count = 0;

static unsigned g_pass, g_fail, g_skip;

#if TPF_CHECK
#define MAX_WORDS (1u << 20)
static uint32_t g_words[MAX_WORDS];
static uint8_t g_mem[8u << 20];
static unsigned g_unlowered;
static char g_tmp[256];
static int g_verbose;

static int run_cmd(const char *cmd, char *out, size_t cap)
{
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    for (size_t i = 0; i < n; i++) if (out[i] == '\n' && i + 1 < n) out[i] = ' ';
    return pclose(p);
}

static void check_entry(const char *path, const eg_spirv_module_t *m, const eg_shader_entry_t *e, eg_arena_t *arena)
{
    static eg_ir_t ir;
    eg_ir_error_t ir_err;
    eg_d3d_tpf_error_t err;
    eg_d3d_tpf_out_t out;
    size_t mark = eg_arena_mark(arena);
    if (!eg_ir_build(m, e, arena, &ir, &ir_err)) {
        printf("SKIP %s:%s: the IR does not represent it: %s\n", path, e->name, ir_err.message);
        g_skip++;
        eg_arena_reset(arena, mark);
        return;
    }
    eg_d3d_tpf_in_t in = { .ir = &ir };
    if (!eg_d3d_tpf_emit(&in, arena, &out, &err)) {
        printf("FAIL %s:%s: emit: %s\n", path, e->name, err.message);
        g_fail++;
        if (strstr(err.message, "not lowered")) g_unlowered++;
        eg_arena_reset(arena, mark);
        return;
    }
    char dxbc[300], spv[300], cmd[1024], msg[2048];
    snprintf(dxbc, sizeof dxbc, "%s/shader.dxbc", g_tmp);
    snprintf(spv, sizeof spv, "%s/shader.spv", g_tmp);
    FILE *f = fopen(dxbc, "wb");
    fwrite(out.bytes, 1, out.size_B, f);
    fclose(f);
    remove(spv);
    snprintf(cmd, sizeof cmd, "vkd3d-compiler -x dxbc-tpf -b spirv-binary -o %s %s 2>&1", spv, dxbc);
    int rc = run_cmd(cmd, msg, sizeof msg);
    if (rc != 0 || access(spv, R_OK) != 0) {
        printf("FAIL %s:%s: vkd3d-compiler rejects the container (rc %d): %.300s\n", path, e->name, rc, msg);
        g_fail++;
    } else {
        snprintf(cmd, sizeof cmd, "spirv-val %s 2>&1", spv);
        rc = run_cmd(cmd, msg, sizeof msg);
        if (rc != 0) {
            printf("FAIL %s:%s: spirv-val rejects vkd3d's SPIR-V: %.300s\n", path, e->name, msg);
            g_fail++;
        } else {
            if (g_verbose) printf("ok   %s:%s (%u bytes)\n", path, e->name, (unsigned)out.size_B);
            g_pass++;
        }
    }
    if (getenv("TPF_KEEP")) {
        snprintf(cmd, sizeof cmd, "cp %s %s/%s.dxbc", dxbc, g_tmp, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
        if (system(cmd) != 0) printf("note: could not keep %s\n", path);
    }
    eg_arena_reset(arena, mark);
}

static int check_file(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb; (void)ftw;
    size_t len = strlen(path);
    if (type != FTW_F || len < 4 || strcmp(path + len - 4, ".spv") != 0) return 0;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(g_words, 4, MAX_WORDS, f);
    fclose(f);
    static eg_arena_t arena;
    static eg_spirv_module_t m;
    eg_spirv_error_t err;
    eg_arena_init(&arena, "tpf check arena", "g_mem", g_mem, sizeof g_mem);
    if (!eg_spirv_parse(&m, g_words, (uint32_t)n, &arena, &err)) return 0;   /* not a WebGPU shader */
    for (uint32_t i = 0; i < m.entry_count; i++) check_entry(path, &m, &m.entries[i], &arena);
    return 0;
}
#endif

int main(int argc, char **argv)
{
#if TPF_CHECK
    char dir[1024];
    const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
    g_verbose = getenv("TPF_VERBOSE") != NULL;
    if (system("vkd3d-compiler --version >/dev/null 2>&1") != 0 || system("spirv-val --version >/dev/null 2>&1") != 0) {
        printf("SKIP d3d12_tpf_check: vkd3d-compiler or spirv-val not installed (sh tools/deps windows-x64)\n");
        printf("0 passed, 0 failed, 1 skipped\n");
        return 0;
    }
    snprintf(g_tmp, sizeof g_tmp, "/tmp/emgpu_tpf_check.%d", (int)getpid());
    if (mkdir(g_tmp, 0700) != 0) { printf("cannot make %s\n", g_tmp); return 1; }
    snprintf(dir, sizeof dir, "%.*s/shaders", slash ? (int)(slash - argv[0]) : 1, slash ? argv[0] : ".");
    nftw(dir, check_file, 16, FTW_PHYS);
    for (int i = 1; i < argc; i++) nftw(argv[i], check_file, 16, FTW_PHYS);
    if (!getenv("TPF_KEEP")) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf %s", g_tmp);
        if (system(cmd) != 0) printf("note: %s left behind\n", g_tmp);
    }
    if (g_unlowered) printf("(%u of the failures are IR constructs the emitter does not lower yet)\n", g_unlowered);
#else
    (void)argc; (void)argv;
    printf("SKIP d3d12_tpf_check: needs a POSIX host build with EMGPU_D3D12_TPF=1 (tools/tpf_check.sh builds it)\n");
    g_skip++;
#endif
    printf("%u passed, %u failed, %u skipped\n", g_pass, g_fail, g_skip);
    return g_fail ? 1 : 0;
}
