/* The one configuration header the kernel and HALs include: board settings, then defaults. */
#ifndef EMGPU_CONFIG_H
#define EMGPU_CONFIG_H

/* The board directory is on the include path (boards/<name>/), chosen by `make BOARD=`. */
#include "emgpu_board.h"
#include "config/emgpu_config_defaults.h"

#endif /* EMGPU_CONFIG_H */
