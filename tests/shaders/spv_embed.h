/* Compiled test shaders embedded into the test binaries on every board (tools/embed_spv.sh). */
#ifndef EG_TEST_SPV_EMBED_H
#define EG_TEST_SPV_EMBED_H

#include <stddef.h>
#include <stdint.h>

typedef struct eg_test_spv {
    const char *name;            /* source file name: "basic.vert" */
    const uint32_t *words;
    uint32_t word_count;
} eg_test_spv_t;

/** Every module compiled from tests/shaders (.vert, .frag, .comp); ends with a { NULL } entry. */
extern const eg_test_spv_t eg_test_spv_table[];

/** The module compiled from tests/shaders/<name> ("basic.vert"), or NULL. */
static inline const eg_test_spv_t *eg_test_spv(const char *name)
{
    for (const eg_test_spv_t *s = eg_test_spv_table; s->name; s++) {
        const char *a = s->name, *b = name;
        while (*a && *a == *b) { a++; b++; }
        if (*a == *b) return s;
    }
    return NULL;
}

#endif /* EG_TEST_SPV_EMBED_H */
