/* Board "host-asan": the host configuration, built with sanitizers (see board.mk). */
#include "../host/emgpu_board.h"
