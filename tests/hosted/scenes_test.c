/* Conformance scene runner (hosted boards): every scene on every available backend, PNG out,
 * compared with the reviewed references in tests/ref/.
 *
 * Backends: soft (forceFallbackAdapter) always; vulkan and gles (backendType) when compiled in
 * and their adapter exists, else "SKIP <backend>: <why>" and the scenes count as skipped.
 * Images go to <build>/scenes/<backend>/<scene>.png (<build> = the directory above this
 * binary's tests/, or EMGPU_SCENES_OUT), a failing comparison also writes <scene>.diff.png.
 * Soft must match its reference exactly; GPU backends within the scene's per-channel tolerance
 * and fraction of differing pixels (tests/scenes/scene_list.c says why they differ at all).
 * EMGPU_SCENES_UPDATE=1 writes the soft images into tests/ref/ (EMGPU_SCENES_REF overrides the
 * directory) and regenerates tests/ref/scene_hashes.h (small and full-size FNV-1a hashes, used by
 * tests/unit/scenes_hash_test.c on every board): review them before committing.
 * Usage: scenes_test [scene-name-substring]; EMGPU_SCENES_BACKENDS=soft,vulkan restricts backends.
 * Built without libpng (cross boards, EG_SCENES_PNG=0) it compares soft's full-size hashes, and GPU
 * backends (d3d12 under wine) with soft's image of the same run once that matches its hash.
 */
#include "config/emgpu_config.h"
#include "tests/scenes/scene.h"
#include "tests/ref/scene_hashes.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _WIN32   /* windows-x64 board (helper d3d12): the CRT's mkdir takes no mode */
#include <direct.h>
#define mkdir(path, mode) _mkdir(path)
#endif

#ifndef EG_SCENES_PNG
#define EG_SCENES_PNG 1
#endif
#if EG_SCENES_PNG
#include <png.h>
#endif

typedef struct backend {
    const char *name;
    WGPUBackendType type;      /* Undefined: the fallback (soft) adapter */
} backend_t;

/* The backends this board compiles in (its EMGPU_HAL_* knobs). One compiled in without a driver
 * on this machine is a named skip; one the board leaves out is not part of its run at all. */
static const backend_t k_backends[] = {
    { "soft", WGPUBackendType_Undefined },
#if EMGPU_HAL_VULKAN
    { "vulkan", WGPUBackendType_Vulkan },
#endif
#if EMGPU_HAL_GLES
    { "gles", WGPUBackendType_OpenGLES },
#endif
#if EMGPU_HAL_D3D12
    { "d3d12", WGPUBackendType_D3D12 },
#endif
};

typedef struct errors {
    unsigned count;
    char first[300];
} errors_t;

static void on_error(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *u1,
                     void *u2)
{
    (void)device;
    (void)u2;
    errors_t *e = u1;
    if (e->count++ == 0) {
        int n = message.data ? (int)(message.length == WGPU_STRLEN ? strlen(message.data) : message.length) : 0;
        snprintf(e->first, sizeof e->first, "WebGPU error type %d: %.*s", (int)type, n,
                 message.data ? message.data : "");
    }
}

static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message,
                       void *u1, void *u2)
{
    (void)u2;
    (void)message;
    *(WGPUAdapter *)u1 = status == WGPURequestAdapterStatus_Success ? adapter : NULL;
}

static void on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message,
                      void *u1, void *u2)
{
    (void)u2;
    (void)message;
    *(WGPUDevice *)u1 = status == WGPURequestDeviceStatus_Success ? device : NULL;
}

static int wait_future(WGPUInstance inst, WGPUFuture f)
{
    WGPUFutureWaitInfo w = WGPU_FUTURE_WAIT_INFO_INIT;
    w.future = f;
    for (long i = 0; i < 50000000L; i++) {
        WGPUWaitStatus st = wgpuInstanceWaitAny(inst, 1, &w, 0);
        if (st == WGPUWaitStatus_Success) return w.completed != 0;
        if (st != WGPUWaitStatus_TimedOut) return 0;
    }
    return 0;
}

/* The adapter of backend b, or NULL with the reason in why. */
static WGPUAdapter get_adapter(WGPUInstance inst, const backend_t *b, char *why, size_t why_len)
{
    WGPURequestAdapterOptions opt = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
    if (b->type == WGPUBackendType_Undefined) opt.forceFallbackAdapter = WGPU_TRUE;
    else opt.backendType = b->type;
    WGPUAdapter a = NULL;
    WGPURequestAdapterCallbackInfo cb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
    cb.mode = WGPUCallbackMode_WaitAnyOnly;
    cb.callback = on_adapter;
    cb.userdata1 = &a;
    if (!wait_future(inst, wgpuInstanceRequestAdapter(inst, &opt, cb)) || !a) {
        snprintf(why, why_len, "no adapter (backend not compiled in, or its driver is missing)");
        return NULL;
    }
    WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
    int mismatch = wgpuAdapterGetInfo(a, &info) != WGPUStatus_Success ||
                   (b->type != WGPUBackendType_Undefined && info.backendType != b->type);
    wgpuAdapterInfoFreeMembers(info);
    if (mismatch) {
        snprintf(why, why_len, "the adapter returned is of another backend");
        wgpuAdapterRelease(a);
        return NULL;
    }
    return a;
}

static WGPUDevice get_device(WGPUInstance inst, WGPUAdapter a, errors_t *errs)
{
    WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
    dd.uncapturedErrorCallbackInfo.callback = on_error;
    dd.uncapturedErrorCallbackInfo.userdata1 = errs;
    WGPUDevice d = NULL;
    WGPURequestDeviceCallbackInfo cb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
    cb.mode = WGPUCallbackMode_WaitAnyOnly;
    cb.callback = on_device;
    cb.userdata1 = &d;
    if (!wait_future(inst, wgpuAdapterRequestDevice(a, &dd, cb))) return NULL;
    return d;
}

static void mkdirs(const char *path)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        mkdir(buf, 0777);
        *p = '/';
    }
    mkdir(buf, 0777);
}

#if EG_SCENES_PNG
static int png_write(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = w;
    img.height = h;
    img.format = PNG_FORMAT_RGBA;
    return png_image_write_to_file(&img, path, 0, rgba, (png_int_32)(w * 4u), NULL);
}

/* Reads path as RGBA8 into a malloc'd buffer; NULL if missing or unreadable. */
static uint8_t *png_read(const char *path, uint32_t *w, uint32_t *h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path)) return NULL;
    img.format = PNG_FORMAT_RGBA;
    uint8_t *px = malloc(PNG_IMAGE_SIZE(img));
    if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
        free(px);
        png_image_free(&img);
        return NULL;
    }
    *w = img.width;
    *h = img.height;
    return px;
}
#endif

typedef struct run {
    const char *out_dir, *ref_dir;
    int update;
    unsigned passed, failed, skipped, na;
    uint64_t small_hash[128], full_hash[128];
} run_t;

/* No wine defect makes a scene N/A any more (session 5): the stencil readback defect of vkd3d 1.6 is
 * probed and worked around in hal/d3d12, and an adapter without RGB565 says so through
 * wgpuAdapterEmgpuHasTextureFormat (below). */

static void fail(run_t *r, const char *backend, const char *scene, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %s/%s: ", backend, scene);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    r->failed++;
}

static const eg_scene_hash_ref_t *hash_ref(const char *name)
{
    for (const eg_scene_hash_ref_t *h = eg_scene_hash_refs; h->name; h++)
        if (strcmp(h->name, name) == 0) return h;
    return NULL;
}

static WGPUInstance cur_inst;   /* run_backend's (a board may allow one instance at a time) */

#if !EG_SCENES_PNG
/* Pixels of img further than tol (per channel) from ref; the largest difference in *worst. */
static unsigned count_bad(const uint8_t *img, const uint8_t *ref, uint32_t size, unsigned tol, unsigned *worst)
{
    unsigned bad = 0;
    *worst = 0;
    for (uint32_t i = 0; i < size * size; i++) {
        unsigned d = 0;
        for (int c = 0; c < 4; c++) {
            int e = abs((int)img[i * 4 + c] - (int)ref[i * 4 + c]);
            if ((unsigned)e > d) d = (unsigned)e;
        }
        if (d > *worst) *worst = d;
        if (d > tol) bad++;
    }
    return bad;
}

static const char *render(WGPUInstance inst, const backend_t *b, const eg_scene_info_t *sc, uint32_t size,
                          uint8_t *img, char *why, size_t why_len);

/* Without libpng (cross boards): a GPU backend is compared, within the scene's tolerance, with
 * soft's image rendered now, once that image's hash is the reference's (so it IS the reference). */
static int compare_with_soft(run_t *r, const backend_t *b, const eg_scene_info_t *sc, const uint8_t *img,
                             uint32_t size, const eg_scene_hash_ref_t *h)
{
    char why[400];
    uint8_t *ref = malloc((size_t)size * size * 4u);
    const char *f = !ref ? "out of memory" : render(cur_inst, &k_backends[0], sc, size, ref, why, sizeof why);
    if (!f && eg_scene_hash(ref, (size_t)size * size * 4u) != h->full_hash) f = "soft's image is not the reference";
    if (f) {
        fail(r, b->name, sc->name, "no reference image: soft: %s", f);
        free(ref);
        return 0;
    }
    unsigned worst = 0, bad = count_bad(img, ref, size, sc->gpu_tol, &worst);
    unsigned allowed = (unsigned)((uint64_t)size * size * sc->gpu_bad_permille / 1000u);
    free(ref);
    if (bad <= allowed) return 1;
    fail(r, b->name, sc->name, "%u of %u pixels differ from soft's by more than %u (allowed %u), worst %u", bad,
         size * size, sc->gpu_tol, allowed, worst);
    return 0;
}
#endif

/* Compares img with the reference; returns 1 on a match, else 0 with the reason printed. */
static int compare(run_t *r, const backend_t *b, const eg_scene_info_t *sc, const uint8_t *img,
                   uint32_t size)
{
#if EG_SCENES_PNG
    char path[512];
    snprintf(path, sizeof path, "%s/%s.png", r->ref_dir, sc->name);
    uint32_t rw = 0, rh = 0;
    uint8_t *ref = png_read(path, &rw, &rh);
    if (!ref) {
        fail(r, b->name, sc->name, "no reference image %s (EMGPU_SCENES_UPDATE=1 writes the soft "
             "result there for review)", path);
        return 0;
    }
    if (rw != size || rh != size) {
        fail(r, b->name, sc->name, "reference %s is %ux%u, the scene renders %ux%u", path, rw, rh, size, size);
        free(ref);
        return 0;
    }
    int soft = b->type == WGPUBackendType_Undefined;
    unsigned tol = soft ? 0u : sc->gpu_tol, bad = 0, worst = 0;
    uint8_t *diff = malloc((size_t)size * size * 4u);
    for (uint32_t i = 0; i < size * size; i++) {
        unsigned d = 0;
        for (int c = 0; c < 4; c++) {
            int e = abs((int)img[i * 4 + c] - (int)ref[i * 4 + c]);
            if ((unsigned)e > d) d = (unsigned)e;
        }
        if (d > worst) worst = d;
        if (d > tol) bad++;
        if (diff) {
            diff[i * 4 + 0] = d > tol ? 255 : (uint8_t)(img[i * 4 + 0] / 4);
            diff[i * 4 + 1] = d > tol ? 0 : (uint8_t)(img[i * 4 + 1] / 4);
            diff[i * 4 + 2] = d > tol ? 0 : (uint8_t)(img[i * 4 + 2] / 4);
            diff[i * 4 + 3] = 255;
        }
    }
    unsigned allowed = soft ? 0u : (unsigned)((uint64_t)size * size * sc->gpu_bad_permille / 1000u);
    int ok = bad <= allowed;
    if (!ok) {
        snprintf(path, sizeof path, "%s/%s/%s.diff.png", r->out_dir, b->name, sc->name);
        if (diff) png_write(path, diff, size, size);
        fail(r, b->name, sc->name, "%u of %u pixels differ by more than %u (allowed %u), worst %u; "
             "see %s", bad, size * size, tol, allowed, worst, path);
    }
    free(diff);
    free(ref);
    return ok;
#else
    const eg_scene_hash_ref_t *h = hash_ref(sc->name);
    if (!h || h->full_px != size) {
        fail(r, b->name, sc->name, "no full-size hash in tests/ref/scene_hashes.h");
        return 0;
    }
    if (b->type != WGPUBackendType_Undefined) return compare_with_soft(r, b, sc, img, size, h);
    uint64_t got = eg_scene_hash(img, (size_t)size * size * 4u);
    if (got != h->full_hash) {
        fail(r, b->name, sc->name, "hash 0x%016llx, expected 0x%016llx", (unsigned long long)got,
             (unsigned long long)h->full_hash);
        return 0;
    }
    return 1;
#endif
}

/* Renders one scene at size x size on a fresh adapter and device (an adapter makes one device:
 * the spec marks it consumed); img receives the pixels. NULL or why not. */
static const char *render(WGPUInstance inst, const backend_t *b, const eg_scene_info_t *sc, uint32_t size,
                          uint8_t *img, char *why, size_t why_len)
{
    errors_t errs = { 0, { 0 } };
    WGPUAdapter a = get_adapter(inst, b, why, why_len);
    if (!a) return why;
    WGPUDevice dev = get_device(inst, a, &errs);
    wgpuAdapterRelease(a);
    if (!dev) return "device creation failed";
    eg_scene_t ctx;
    const char *f = eg_scene_run(sc, inst, dev, size, size, img, &ctx);
    wgpuDeviceRelease(dev);
    wgpuInstanceProcessEvents(inst);
    if (f) {
        snprintf(why, why_len, "%s", f);
        return why;
    }
    if (errs.count) {
        snprintf(why, why_len, "%u WebGPU error(s), first: %s", errs.count, errs.first);
        return why;
    }
    return NULL;
}

static void write_hashes(run_t *r)
{
    char path[512];
    snprintf(path, sizeof path, "%s/scene_hashes.h", r->ref_dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        printf("FAIL update: cannot write %s: %s\n", path, strerror(errno));
        r->failed++;
        return;
    }
    fprintf(f, "/* Scene image hashes from the soft backend on the host; generated by tests/hosted/"
               "scenes_test with\n * EMGPU_SCENES_UPDATE=1 (review the PNGs next to it first). "
               "Do not edit. */\n");
    fprintf(f, "#ifndef EG_SCENE_HASHES_H\n#define EG_SCENE_HASHES_H\n\n#include <stdint.h>\n\n");
    fprintf(f, "typedef struct eg_scene_hash_ref {\n    const char *name;\n    uint32_t small_px, full_px;\n"
               "    uint64_t small_hash, full_hash;   /* FNV-1a 64 of the RGBA8 pixels */\n"
               "} eg_scene_hash_ref_t;\n\n");
    fprintf(f, "static const eg_scene_hash_ref_t eg_scene_hash_refs[] = {\n");
    for (uint32_t i = 0; i < eg_scene_count && i < 128; i++) {
        const eg_scene_info_t *sc = &eg_scene_list[i];
        if (!r->small_hash[i]) continue;
        fprintf(f, "    { \"%s\", %u, %u, 0x%016llxull, 0x%016llxull },\n", sc->name, sc->small_px,
                sc->full_px, (unsigned long long)r->small_hash[i], (unsigned long long)r->full_hash[i]);
    }
    fprintf(f, "    { 0, 0, 0, 0, 0 }\n};\n\n#endif /* EG_SCENE_HASHES_H */\n");
    fclose(f);
    printf("UPDATED %s\n", path);
}

static void run_backend(run_t *r, const backend_t *b, const char *filter)
{
    WGPUInstance inst = wgpuCreateInstance(NULL);
    char why[400];
    cur_inst = inst;
    WGPUAdapter a = inst ? get_adapter(inst, b, why, sizeof why) : NULL;
    uint32_t n = 0;
    for (uint32_t i = 0; i < eg_scene_count; i++)
        if (!filter || strstr(eg_scene_list[i].name, filter)) n++;
    if (!a) {
        printf("SKIP %s: %s (%u scenes)\n", b->name, inst ? why : "wgpuCreateInstance failed", n);
        r->skipped += n;
        if (inst) wgpuInstanceRelease(inst);
        return;
    }
    /* An adapter whose driver lacks RGB565 reports it (D3D12 under wine 8.0: vkd3d 1.6 knows no
     * DXGI_FORMAT_B5G6R5_UNORM, hal/d3d12/README.md): the rgb565 scene is N/A there. */
    int has565 = wgpuAdapterEmgpuHasTextureFormat(a, WGPUTextureFormat_EmgpuRGB565Unorm) != 0;
    wgpuAdapterRelease(a); /* that one only proved the backend is there */
    int soft = b->type == WGPUBackendType_Undefined;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", r->out_dir, b->name);
    if (EG_SCENES_PNG) mkdirs(dir);
    for (uint32_t i = 0; i < eg_scene_count; i++) {
        const eg_scene_info_t *sc = &eg_scene_list[i];
        if (filter && !strstr(sc->name, filter)) continue;
        if (!has565 && strcmp(sc->name, "rgb565") == 0) {
            printf("N/A  %s/%s: the adapter lacks EmgpuRGB565Unorm (wgpuAdapterEmgpuHasTextureFormat)\n", b->name,
                   sc->name);
            r->na++;
            continue;
        }
        uint32_t size = sc->full_px;
        uint8_t *img = malloc((size_t)size * size * 4u);
        const char *f = img ? render(inst, b, sc, size, img, why, sizeof why) : "out of memory";
        if (f) {
            fail(r, b->name, sc->name, "%s", f);
            free(img);
            continue;
        }
#if EG_SCENES_PNG
        char path[600];
        snprintf(path, sizeof path, "%s/%s.png", dir, sc->name);
        if (!png_write(path, img, size, size)) printf("note: could not write %s\n", path);
        if (soft && r->update) {
            snprintf(path, sizeof path, "%s/%s.png", r->ref_dir, sc->name);
            if (!png_write(path, img, size, size)) fail(r, b->name, sc->name, "cannot write %s", path);
        }
#endif
        if (soft && r->update) {
            r->full_hash[i] = eg_scene_hash(img, (size_t)size * size * 4u);
            uint32_t sm = sc->small_px;
            uint8_t *small = malloc((size_t)sm * sm * 4u);
            f = small ? render(inst, b, sc, sm, small, why, sizeof why) : "out of memory";
            if (f) fail(r, b->name, sc->name, "at %ux%u: %s", sm, sm, f);
            else r->small_hash[i] = eg_scene_hash(small, (size_t)sm * sm * 4u);
            free(small);
        }
        int ok = compare(r, b, sc, img, size);
        if (ok > 0) {
            printf("PASS %s/%s\n", b->name, sc->name);
            r->passed++;
        }
        free(img);
    }
    wgpuInstanceRelease(inst);
}

int main(int argc, char **argv)
{
    static run_t r;
    const char *filter = argc > 1 ? argv[1] : NULL;
    const char *env_out = getenv("EMGPU_SCENES_OUT"), *env_ref = getenv("EMGPU_SCENES_REF");
    const char *env_upd = getenv("EMGPU_SCENES_UPDATE"), *env_be = getenv("EMGPU_SCENES_BACKENDS");
    static char out[512];
    if (env_out && *env_out) {
        snprintf(out, sizeof out, "%s", env_out);
    } else { /* <build>/tests/scenes_test -> <build>/scenes */
        snprintf(out, sizeof out, "%s", argv[0]);
        char *slash = strrchr(out, '/');
        if (slash) *slash = '\0'; else snprintf(out, sizeof out, ".");
        slash = strrchr(out, '/');
        if (slash && strcmp(slash, "/tests") == 0) *slash = '\0';
        strncat(out, "/scenes", sizeof out - strlen(out) - 1);
    }
    r.out_dir = out;
    r.ref_dir = env_ref && *env_ref ? env_ref : "tests/ref";
    r.update = env_upd && strcmp(env_upd, "1") == 0;
    if (r.update && filter) {
        printf("EMGPU_SCENES_UPDATE=1 regenerates every scene: run it without a filter\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof k_backends / sizeof k_backends[0]; i++) {
        const backend_t *b = &k_backends[i];
        if (env_be && *env_be && !strstr(env_be, b->name)) {
            printf("SKIP %s: not in EMGPU_SCENES_BACKENDS=%s\n", b->name, env_be);
            continue;
        }
        run_backend(&r, b, filter);
    }
    if (r.update) write_hashes(&r);
    (void)hash_ref;
    if (r.na) printf("%u scene(s) not applicable here (N/A lines above: the adapter lacks the format)\n", r.na);
    printf("%u passed, %u failed, %u skipped\n", r.passed, r.failed, r.skipped);
    return r.failed ? 1 : 0;
}
