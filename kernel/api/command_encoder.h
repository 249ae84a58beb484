/* Command encoder internals shared by the encoder, copy and pass files (the Impl struct is in
 * command_buffer.h: encoders and command buffers are one slot type). */
#ifndef EG_API_COMMAND_ENCODER_H
#define EG_API_COMMAND_ENCODER_H

#include "kernel/api/command_buffer.h"

/** Subresource states each encoder's tracker and scope may take for textures whose mips/layers
 *  are used differently (carved from the slot's stream memory, 2 bytes each). */
#ifndef EG_ENCODER_SUBRESOURCE_STATES
#define EG_ENCODER_SUBRESOURCE_STATES 64u
#endif

/** Resolves an encoder handle for an entry point and fills v (device, entry, label). NULL when
 *  the handle is not a live encoder (logged: there is no device to report to). */
eg_encoder_t *eg_encoder_enter(WGPUCommandEncoder handle, const char *entry, eg_vctx_t *v);
/** Spec "validate the encoder state" (open: true; locked: deferred error; ended: immediate). */
bool eg_encoder_validate_state(eg_encoder_t *e, const eg_vctx_t *v);

#endif /* EG_API_COMMAND_ENCODER_H */
