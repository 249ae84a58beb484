/* hal/soft shader VM: the JIT's executable code arena (4 KiB pages, first fit, one bit each). */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_jit.h"
#include "kernel/base/log.h"
#include "kernel/base/util.h"
#include "port/port.h"

/* (split out of soft_jit.c, session 8: the encoder and translation stay there) Code lives in
 * one fixed arena (EMGPU_SOFT_JIT_ARENA_B) mapped through the port on first use and unmapped
 * when no code is left; each program has pages of its own (soft_jit.c flips them W^X). */
#if EMGPU_SOFT_JIT && defined(__x86_64__) && defined(__GNUC__) && EG_SOFT_LANES == 16

#define JIT_PAGE_B EG_VM_JIT_PAGE_B
#define JIT_MAX_PAGES (EMGPU_SOFT_JIT_ARENA_B / JIT_PAGE_B)
#if EMGPU_SOFT_JIT_ARENA_B % 4096 != 0 || EMGPU_SOFT_JIT_ARENA_B < 4096
#error "EMGPU_SOFT_JIT_ARENA_B must be a positive multiple of 4096"
#endif

/* ---- the code arena: pages handed out first-fit, a bit per page ---- */

static struct {
    uint8_t *base;
    size_t size_B;                     /* mapped bytes */
    size_t test_B;                     /* eg_vm_jit_test_arena_B */
    uint32_t live_pages;
    bool logged;
    uint32_t used[(JIT_MAX_PAGES + 31u) / 32u];
} A;

static bool page_used(uint32_t i) { return A.used[i / 32u] >> (i % 32u) & 1u; }
static void page_set(uint32_t i, bool on)
{
    if (on) A.used[i / 32u] |= 1u << (i % 32u); else A.used[i / 32u] &= ~(1u << (i % 32u));
}

static void arena_log(const char *why, size_t need_B)
{
    if (A.logged) return;
    A.logged = true;
    eg_log(EG_LOG_WARN, "soft JIT: %s (a shader needs %u bytes, EMGPU_SOFT_JIT_ARENA_B = %u bytes): "
           "shaders that do not fit run on the threaded interpreter (same results, slower)",
           why, (unsigned)need_B, (unsigned)(A.test_B ? A.test_B : (size_t)EMGPU_SOFT_JIT_ARENA_B));
}

/* Pages for size_B bytes (a multiple of the page), mapped on first use; NULL when full. */
uint8_t *eg_vm_jit_arena_alloc(size_t size_B)
{
    if (!A.base) {
        size_t want_B = A.test_B ? A.test_B : (size_t)EMGPU_SOFT_JIT_ARENA_B;
        A.base = eg_port_exec_map(want_B);
        if (!A.base) { arena_log("the port has no executable memory", size_B); return NULL; }
        A.size_B = want_B;
    }
    uint32_t pages = (uint32_t)(A.size_B / JIT_PAGE_B), n = (uint32_t)(size_B / JIT_PAGE_B);
    for (uint32_t at = 0; at + n <= pages; at++) {
        uint32_t k = 0;
        while (k < n && !page_used(at + k)) k++;
        if (k < n) { at += k; continue; }
        for (k = 0; k < n; k++) page_set(at + k, true);
        A.live_pages += n;
        return A.base + (size_t)at * JIT_PAGE_B;
    }
    arena_log("the code arena is full", size_B);
    return NULL;
}

/* The arena is unmapped whenever no code is left (the last pipeline destroyed, device teardown). */
void eg_vm_jit_arena_unmap_if_empty(void)
{
    if (A.live_pages || !A.base) return;
    eg_port_exec_unmap(A.base, A.size_B);
    A.base = NULL;
    A.size_B = 0;
}

void eg_vm_jit_arena_free(uint8_t *p, size_t size_B)
{
    uint32_t at = (uint32_t)((size_t)(p - A.base) / JIT_PAGE_B), n = (uint32_t)(size_B / JIT_PAGE_B);
    for (uint32_t k = 0; k < n; k++) page_set(at + k, false);
    A.live_pages -= n;
    eg_vm_jit_arena_unmap_if_empty();
}

void eg_vm_jit_test_arena_B(size_t arena_B)
{
    size_t max_B = (size_t)EMGPU_SOFT_JIT_ARENA_B;
    A.test_B = arena_B > max_B ? max_B : arena_B & ~(size_t)(JIT_PAGE_B - 1u);
    A.logged = false;
}

uint32_t eg_vm_jit_pages_used(void) { return A.live_pages; }

#else /* no JIT in this build */

void eg_vm_jit_test_arena_B(size_t arena_B) { (void)arena_B; }
uint32_t eg_vm_jit_pages_used(void) { return 0; }

#endif

#endif /* EMGPU_HAL_SOFT */
