/* Generated with spirv-as (--target-env spv1.3) from the assembly below; regenerate, don't edit.
 *
 * The smallest module the front end accepts with one entry point per stage, for tests that need
 * a valid WGPUShaderModule: Vertex "vs_main", Fragment "fs_main" (OriginUpperLeft), GLCompute
 * "main" (LocalSize 1 1 1); no resources, no stage IO. Each function is OpLabel, OpReturn.
 */
#ifndef EG_TEST_SPIRV_H
#define EG_TEST_SPIRV_H

#include <stdint.h>

static const uint32_t eg_test_spirv_min[] = {
    0x07230203u, 0x00010300u, 0x00070000u, 0x00000009u, 0x00000000u, 0x00020011u,
    0x00000001u, 0x0003000eu, 0x00000000u, 0x00000001u, 0x0005000fu, 0x00000000u,
    0x00000001u, 0x6d5f7376u, 0x006e6961u, 0x0005000fu, 0x00000004u, 0x00000002u,
    0x6d5f7366u, 0x006e6961u, 0x0005000fu, 0x00000005u, 0x00000003u, 0x6e69616du,
    0x00000000u, 0x00030010u, 0x00000002u, 0x00000007u, 0x00060010u, 0x00000003u,
    0x00000011u, 0x00000001u, 0x00000001u, 0x00000001u, 0x00020013u, 0x00000004u,
    0x00030021u, 0x00000005u, 0x00000004u, 0x00050036u, 0x00000004u, 0x00000001u,
    0x00000000u, 0x00000005u, 0x000200f8u, 0x00000006u, 0x000100fdu, 0x00010038u,
    0x00050036u, 0x00000004u, 0x00000002u, 0x00000000u, 0x00000005u, 0x000200f8u,
    0x00000007u, 0x000100fdu, 0x00010038u, 0x00050036u, 0x00000004u, 0x00000003u,
    0x00000000u, 0x00000005u, 0x000200f8u, 0x00000008u, 0x000100fdu, 0x00010038u,
};
#define EG_TEST_SPIRV_MIN_WORDS ((uint32_t)(sizeof eg_test_spirv_min / sizeof eg_test_spirv_min[0]))

#endif /* EG_TEST_SPIRV_H */
