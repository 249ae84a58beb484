/* QEMU TCG plugin (tools/qemu_prof/m7_profile.sh): guest instructions executed per translation
 * block, by the block's start address, written as "pc instructions" lines to out=PATH at exit.
 * An instruction-exact profile of the Cortex-M7 build under qemu-system-arm, where no sampling
 * profiler sees the guest (gdb sampling by wall time overweights QEMU's slow float helpers).
 *
 * Debian packages QEMU with plugin support but neither its plugin header nor its example
 * plugins, so the few API entries used here are declared below from QEMU's documented plugin
 * API (version 1, QEMU 7.2: docs/devel/tcg-plugins.rst); the executable exports them. A host
 * tool only: never linked into the runtime. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct { const char *target_name; struct { int min, cur; } version; bool system_emulation;
                 union { struct { int smp_vcpus, max_vcpus; } system; }; } qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb_t)(qemu_plugin_id_t id, void *userdata);
extern void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, trans_cb_t cb);
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
extern uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
extern void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr, uint64_t imm);
extern void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb_t cb, void *userdata);
__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define NB (1u << 20)
static struct blk { uint64_t pc, n; } *blks;
static uint32_t nblk;
static char out[512] = "tbprof.txt";

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    if (nblk >= NB) return;
    struct blk *b = &blks[nblk++];
    b->pc = qemu_plugin_tb_vaddr(tb);
    b->n = 0;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->n, qemu_plugin_tb_n_insns(tb));
}

static void on_exit_cb(qemu_plugin_id_t id, void *u)
{
    (void)id; (void)u;
    FILE *f = fopen(out, "w");
    if (!f) return;
    for (uint32_t i = 0; i < nblk; i++)
        if (blks[i].n) fprintf(f, "%llx %llu\n", (unsigned long long)blks[i].pc, (unsigned long long)blks[i].n);
    fclose(f);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++)
        if (!strncmp(argv[i], "out=", 4)) snprintf(out, sizeof out, "%s", argv[i] + 4);
    blks = calloc(NB, sizeof *blks);
    if (!blks) return -1;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
    qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
    return 0;
}
