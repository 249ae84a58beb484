/* make bench, Cortex-M7 (qemu-mps2-an500): scenes 1-3 at 320x240 RGB565 on the soft backend,
 * instructions per frame under `qemu-system-arm -icount shift=0`.
 *
 * With -icount shift=0 QEMU advances its virtual clock by exactly 1 ns per executed guest
 * instruction, and the port's clock (SysTick at the board's 25 MHz, eg_port_clock_ns) reads that
 * virtual clock: a frame's ns delta is its instruction count (to SysTick's 40-instruction grain).
 * These are instructions, not cycles: QEMU does not model the M7's pipeline or caches. Each
 * figure is the median of BENCH_M7_FRAMES frames (scene 3: one; frames are identical to SysTick's grain);
 * a first frame that uploads a texture is not counted. Output: one line per scene on the console.
 */
#include "bench/bench_scene.h"

#include "port/port.h"

#include <stdio.h>
#include <string.h>

#define BENCH_M7_FRAMES 2u      /* at most 2: see the median below */
#define M7_W_PX 320u
#define M7_H_PX 240u

void bench_say(const char *s)
{
    eg_port_log_write(EG_LOG_INFO, s, strlen(s));
}

static uint64_t frame_insns(WGPUInstance inst, WGPUDevice dev, WGPUQueue q, bench_scene_t *s, int copy_out)
{
    uint64_t t0 = eg_port_clock_ns();
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(dev, NULL);
    bench_scene_frame(s, enc);
    if (copy_out) bench_scene_copy_out(s, enc);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
    wgpuCommandEncoderRelease(enc);
    wgpuQueueSubmit(q, 1, &cb);
    wgpuCommandBufferRelease(cb);
    bench_queue_idle(inst, q);
    return eg_port_clock_ns() - t0;
}

static int run(WGPUInstance inst, int id, int variant)
{
    unsigned errors = 0;
    char line[160];
    WGPUDevice dev = bench_device(inst, WGPUBackendType_Undefined, &errors);
    if (!dev) {
        bench_say("bench-m7: no soft device\n");
        return 0;
    }
    WGPUQueue q = wgpuDeviceGetQueue(dev);
    static bench_scene_t s;
    int ok = bench_scene_init(&s, dev, id, variant, M7_W_PX, M7_H_PX, WGPUTextureFormat_EmgpuRGB565Unorm);
    uint64_t t[BENCH_M7_FRAMES] = { 0, 0 }, lo = ~(uint64_t)0, hi = 0;
    /* Scene 3 takes billions of instructions (a minute of QEMU): one frame, the count is exact. */
    unsigned frames = id == BENCH_TRIS ? 1u : BENCH_M7_FRAMES;
    if (ok) {
        if (s.upload) frame_insns(inst, dev, q, &s, 0); /* the texture upload rides on the first frame */
        for (unsigned k = 0; k < frames; k++) {
            t[k] = frame_insns(inst, dev, q, &s, 0);
            lo = t[k] < lo ? t[k] : lo;
            hi = t[k] > hi ? t[k] : hi;
        }
    }
    uint32_t hash = 0;
    if (ok) { /* one more frame, read back: its hash is compared with the host's (bench.mk) */
        frame_insns(inst, dev, q, &s, 1);
        const uint8_t *img = bench_map_readback(inst, &s);
        if (img) hash = bench_image_hash(&s, img);
        if (img) wgpuBufferUnmap(s.readback);
    }
    ok = ok && errors == 0;
    if (ok) {
        uint64_t med = frames == 2u ? (t[0] + t[1]) / 2u : t[0]; /* the median of two, or the one */
        snprintf(line, sizeof line, "bench-m7: %-20s 320x240 RGB565  %lu instructions/frame [%lu-%lu], %lu per pixel, image %08lx\n",
                 bench_scene_name(id, variant), (unsigned long)med, (unsigned long)lo, (unsigned long)hi,
                 (unsigned long)(med / (M7_W_PX * M7_H_PX)), (unsigned long)hash);
    } else {
        snprintf(line, sizeof line, "bench-m7: %-20s failed (setup or %u WebGPU errors)\n", bench_scene_name(id, variant), errors);
    }
    bench_say(line);
    bench_scene_release(&s);
    wgpuQueueRelease(q);
    wgpuDeviceRelease(dev);
    wgpuInstanceProcessEvents(inst);
    return ok;
}

/* Optional argument (QEMU -append N): run only scene N. */
int main(int argc, char **argv)
{
    int only = argc > 1 ? argv[1][0] - '0' : 0;
    WGPUInstance inst = wgpuCreateInstance(NULL);
    if (!inst) {
        bench_say("bench-m7: wgpuCreateInstance failed\n");
        return 1;
    }
    static const int scenes[5][2] = { { BENCH_BLIT, 0 }, { BENCH_UI, 0 }, { BENCH_UI, 1 }, { BENCH_TRIS, 0 }, { BENCH_TRIS, 1 } };
    int ok = 1;
    for (int i = 0; i < 5; i++)
        if (!only || only == scenes[i][0]) ok &= run(inst, scenes[i][0], scenes[i][1]);
    wgpuInstanceRelease(inst);
    return ok ? 0 : 1;
}
