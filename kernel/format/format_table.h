/* Layout of the generated format table (format_table.c): indexed by WGPUTextureFormat value. */
#ifndef EG_FORMAT_TABLE_H
#define EG_FORMAT_TABLE_H

#include "kernel/format/format.h"

/* Standard formats sit at their enum value (1..ASTC12x12UnormSrgb); emgpu extension formats
 * follow, at EG_FORMAT_EXT_INDEX(name). */
#define EG_FORMAT_STD_LAST ((uint32_t)WGPUTextureFormat_ASTC12x12UnormSrgb)
#define EG_FORMAT_EXT_INDEX_EmgpuRGB565Unorm (EG_FORMAT_STD_LAST + 1u)
#define EG_FORMAT_EXT_INDEX(name) EG_FORMAT_EXT_INDEX_##name
#define EG_FORMAT_TABLE_LEN (EG_FORMAT_STD_LAST + 2u)

extern const eg_format_info_t eg_format_table[EG_FORMAT_TABLE_LEN];

#endif /* EG_FORMAT_TABLE_H */
