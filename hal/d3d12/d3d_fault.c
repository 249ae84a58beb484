/* hal/d3d12 fault injection: the switch EG_D3D_CALL consults before each fallible D3D12 call. */
#include "config/emgpu_config.h"

#include "hal/d3d12/d3d_fault.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"

static struct {
    bool armed, sticky;
    uint32_t nth, calls;
    HRESULT result;
    const char *only;
    const char *fired;
} fi;

bool eg_d3d_fault_hit(const char *name)
{
#if EMGPU_D3D12_FAULT_INJECTION
    if (!fi.armed) return false;
    if (fi.only && eg_strcmp(fi.only, name) != 0) return false;
    fi.calls++;
    if (fi.nth == 0 || fi.calls < fi.nth || (fi.calls > fi.nth && !fi.sticky)) return false;
    if (!fi.fired) fi.fired = name;
    return true;
#else
    (void)name;
    return false;
#endif
}

HRESULT eg_d3d_fault_result(void) { return fi.result; }

void eg_d3d_fault_arm(uint32_t nth, int32_t result, const char *only, bool sticky)
{
    fi.armed = true;
    fi.sticky = sticky;
    fi.nth = nth;
    fi.calls = 0;
    fi.result = (HRESULT)result;
    fi.only = only;
    fi.fired = NULL;
}

void eg_d3d_fault_disarm(void) { fi.armed = false; }
uint32_t eg_d3d_fault_calls(void) { return fi.calls; }
const char *eg_d3d_fault_fired(void) { return fi.fired; }
bool eg_d3d_fault_available(void) { return EMGPU_D3D12_FAULT_INJECTION != 0; }
bool eg_d3d_fault_armed(void) { return fi.armed; }

#else /* no D3D12 backend: the test hooks exist and report it absent */

void eg_d3d_fault_arm(uint32_t nth, int32_t result, const char *only, bool sticky)
{
    (void)nth; (void)result; (void)only; (void)sticky;
}
void eg_d3d_fault_disarm(void) {}
uint32_t eg_d3d_fault_calls(void) { return 0; }
const char *eg_d3d_fault_fired(void) { return 0; }
bool eg_d3d_fault_available(void) { return false; }
uint64_t eg_d3d_memory_used_all(void) { return 0; }
uint64_t eg_d3d_gpu_descriptors_used_all(uint32_t kind) { (void)kind; return 0; }
uint32_t eg_d3d_validation_messages(void) { return 0; }
bool eg_d3d_debug_layer_on(void) { return false; }
void eg_d3d_replacement_stats(eg_d3d_replacement_stats_t *out) { out->replacements = out->texture_items = out->buffer_items_skipped = 0; }

#endif /* EMGPU_HAL_D3D12 */
