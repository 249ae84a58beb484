/* Command encoders and command buffers (one pool: an encoder becomes its command buffer at Finish). */
#ifndef EG_API_COMMAND_BUFFER_H
#define EG_API_COMMAND_BUFFER_H

#include "kernel/api/object.h"

struct WGPUCommandEncoderImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
};

#endif /* EG_API_COMMAND_BUFFER_H */
