/* Render and compute pass encoders (one pool). */
#ifndef EG_API_PASS_ENCODER_H
#define EG_API_PASS_ENCODER_H

#include "kernel/api/object.h"

struct WGPURenderPassEncoderImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
};

#endif /* EG_API_PASS_ENCODER_H */
