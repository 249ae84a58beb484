/* Shader modules: the Impl struct (SPIR-V words; the front end's result later). */
#ifndef EG_API_SHADER_MODULE_H
#define EG_API_SHADER_MODULE_H

#include "kernel/api/object.h"

struct WGPUShaderModuleImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
};

#endif /* EG_API_SHADER_MODULE_H */
