/* libFuzzer target for the SPIR-V front end: parse, validate and reflect arbitrary bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/base/log.h"
#include "kernel/shader/spirv.h"
#include "port/port.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The port, reduced to what kernel/base needs here: a failed debug assertion aborts, so the
 * fuzzer reports it as a crash. */
void eg_port_log_write(eg_log_level_t level, const char *line, size_t n)
{
    (void)level; (void)line; (void)n;
}

_Noreturn void eg_port_panic(const char *msg)
{
    (void)msg;
    abort();
}

/* A small static arena, as on a device (EMGPU_SHADER_ARENA_BYTES is 4 KiB by default; larger
 * here so that real modules from the seeds get past the id table into the deeper rules). */
static uint8_t g_arena_mem[32 * 1024];
static volatile uint32_t g_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The words go into a buffer of exactly their size, so ASan reports any read past the end
     * (the harness may use the heap; the code under test does not). */
    uint32_t n = (uint32_t)(size / 4u);
    uint32_t *words = malloc(n ? (size_t)n * 4u : 4u);
    if (!words) return 0;
    if (n) memcpy(words, data, (size_t)n * 4u);
    eg_arena_t arena;
    eg_arena_init(&arena, "fuzz", "EMGPU_SHADER_ARENA_BYTES", g_arena_mem, sizeof g_arena_mem);
    eg_spirv_module_t m;
    eg_spirv_error_t err;
    if (eg_spirv_parse(&m, words, n, &arena, &err)) {
        uint32_t sum = m.entry_count;
        for (uint32_t i = 0; i < m.entry_count; i++)
            sum += m.entries[i].binding_count + m.entries[i].input_count + m.entries[i].output_count;
        g_sink = sum;
    } else {
        g_sink = (uint32_t)err.rule + (uint32_t)strlen(err.message);
    }
    free(words);
    return 0;
}
