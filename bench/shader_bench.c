/* Benchmark: SPIR-V front end (parse + validate + reflect) over a directory of modules.
 *
 * Usage: shader_bench [-n REPS] DIR...   Loads every *.spv under the directories once, then runs
 * eg_spirv_parse over all of them REPS times (default 20) and prints modules/s and MB/s (median,
 * min, max over the repetitions), the machine and the command. Not a test: never fails on speed.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel/shader/spirv.h"

#define MAX_MODULES 4096
#define MAX_TOTAL_WORDS (16u << 20)
#define MAX_REPS 1000

static uint32_t g_words[MAX_TOTAL_WORDS];
static uint32_t g_start[MAX_MODULES], g_count[MAX_MODULES];
static unsigned g_modules;
static uint32_t g_used;
static uint8_t g_arena_mem[1u << 20];

static int load(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb; (void)ftw;
    size_t len = strlen(path);
    if (type != FTW_F || len < 4 || strcmp(path + len - 4, ".spv") || g_modules >= MAX_MODULES) return 0;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(g_words + g_used, 4, MAX_TOTAL_WORDS - g_used, f);
    fclose(f);
    g_start[g_modules] = g_used;
    g_count[g_modules++] = (uint32_t)n;
    g_used += (uint32_t)n;
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void machine(char *out, size_t cap)
{
    snprintf(out, cap, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            snprintf(out, cap, "%s", colon + 2);
            out[strcspn(out, "\n")] = 0;
            break;
        }
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    int reps = 20, first = 1;
    if (argc > 2 && strcmp(argv[1], "-n") == 0) { reps = atoi(argv[2]); first = 3; }
    if (reps < 1 || reps > MAX_REPS || first >= argc) {
        fprintf(stderr, "usage: %s [-n REPS (1..%d)] DIR...\n", argv[0], MAX_REPS);
        return 2;
    }
    for (int i = first; i < argc; i++) nftw(argv[i], load, 16, FTW_PHYS);
    if (!g_modules) { fprintf(stderr, "shader_bench: no *.spv found\n"); return 2; }
    static double secs[MAX_REPS];
    unsigned accepted = 0;
    static eg_arena_t arena;
    for (int r = 0; r < reps; r++) {
        unsigned ok = 0;
        double t0 = now_s();
        for (unsigned i = 0; i < g_modules; i++) {
            eg_spirv_module_t m;
            eg_spirv_error_t e;
            eg_arena_init(&arena, "bench", "bench arena", g_arena_mem, sizeof g_arena_mem);
            ok += eg_spirv_parse(&m, g_words + g_start[i], g_count[i], &arena, &e);
        }
        secs[r] = now_s() - t0;
        accepted = ok;
    }
    qsort(secs, (size_t)reps, sizeof secs[0], cmp_double);
    double mb = (double)g_used * 4.0 / 1e6, med = secs[reps / 2], lo = secs[0], hi = secs[reps - 1];
    char cpu[256];
    machine(cpu, sizeof cpu);
    printf("shader_bench: %u modules (%u accepted), %.2f MB, %d repetitions\n", g_modules, accepted, mb, reps);
    printf("  modules/s  median %.0f  min %.0f  max %.0f\n", g_modules / med, g_modules / hi, g_modules / lo);
    printf("  MB/s       median %.1f  min %.1f  max %.1f\n", mb / med, mb / hi, mb / lo);
    printf("  machine    %s\n  command   ", cpu);
    for (int i = 0; i < argc; i++) printf(" %s", argv[i]);
    printf("\n");
    return 0;
}
