/* make demo: the desktop board simulator window (SDL2 opened with dlopen, so the demo builds and
 * runs headless without it). */
#include "examples/demo/demo.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* The few SDL2 entry points and constants used (values from SDL2's SDL.h / SDL_video.h /
 * SDL_pixels.h / SDL_events.h). */
#define SDL_INIT_VIDEO_ 0x20u
#define SDL_WINDOWPOS_CENTERED_ 0x2FFF0000
#define SDL_WINDOW_SHOWN_ 0x4u
#define SDL_PIXELFORMAT_ABGR8888_ 0x16762004u /* RGBA bytes in memory on little-endian */
#define SDL_TEXTUREACCESS_STREAMING_ 1
#define SDL_QUIT_ 0x100u

typedef union sdl_event {
    uint32_t type;
    uint8_t pad[64];
} sdl_event_t;

struct demo_window {
    void *lib, *window, *renderer, *texture;
    int (*Init)(uint32_t);
    void (*Quit)(void);
    void *(*CreateWindow)(const char *, int, int, int, int, uint32_t);
    void (*DestroyWindow)(void *);
    void *(*CreateRenderer)(void *, int, uint32_t);
    void (*DestroyRenderer)(void *);
    void *(*CreateTexture)(void *, uint32_t, int, int, int);
    void (*DestroyTexture)(void *);
    int (*UpdateTexture)(void *, const void *, const void *, int);
    int (*RenderCopy)(void *, void *, const void *, const void *);
    void (*RenderPresent)(void *);
    int (*PollEvent)(sdl_event_t *);
    const char *(*GetError)(void);
};

static int load(demo_window_t *w)
{
    /* dlsym returns void *; POSIX guarantees it converts to a function pointer. */
#define SYM(field, name) \
    do { *(void **)(&w->field) = dlsym(w->lib, name); if (!w->field) return 0; } while (0)
    SYM(Init, "SDL_Init");
    SYM(Quit, "SDL_Quit");
    SYM(CreateWindow, "SDL_CreateWindow");
    SYM(DestroyWindow, "SDL_DestroyWindow");
    SYM(CreateRenderer, "SDL_CreateRenderer");
    SYM(DestroyRenderer, "SDL_DestroyRenderer");
    SYM(CreateTexture, "SDL_CreateTexture");
    SYM(DestroyTexture, "SDL_DestroyTexture");
    SYM(UpdateTexture, "SDL_UpdateTexture");
    SYM(RenderCopy, "SDL_RenderCopy");
    SYM(RenderPresent, "SDL_RenderPresent");
    SYM(PollEvent, "SDL_PollEvent");
    SYM(GetError, "SDL_GetError");
#undef SYM
    return 1;
}

demo_window_t *demo_window_open(uint32_t width, uint32_t height)
{
    const char *display = getenv("DISPLAY");
    if (!display || !*display) return NULL;
    demo_window_t *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->lib = dlopen("libSDL2-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!w->lib || !load(w) || w->Init(SDL_INIT_VIDEO_) != 0) {
        fprintf(stderr, "demo: no window (%s)\n", !w->lib ? "libSDL2-2.0.so.0 not found"
                                                  : w->GetError ? w->GetError() : "SDL2 symbols missing");
        if (w->lib) dlclose(w->lib);
        free(w);
        return NULL;
    }
    w->window = w->CreateWindow("emgpu dashboard (soft backend, 800x480 board simulator)",
                                SDL_WINDOWPOS_CENTERED_, SDL_WINDOWPOS_CENTERED_, (int)width, (int)height,
                                SDL_WINDOW_SHOWN_);
    w->renderer = w->window ? w->CreateRenderer(w->window, -1, 0) : NULL;
    w->texture = w->renderer ? w->CreateTexture(w->renderer, SDL_PIXELFORMAT_ABGR8888_,
                                                SDL_TEXTUREACCESS_STREAMING_, (int)width, (int)height)
                             : NULL;
    if (!w->texture) {
        fprintf(stderr, "demo: no window (%s)\n", w->GetError());
        demo_window_close(w);
        return NULL;
    }
    return w;
}

int demo_window_show(demo_window_t *w, const void *rgba, uint32_t row_B)
{
    sdl_event_t ev;
    while (w->PollEvent(&ev))
        if (ev.type == SDL_QUIT_) return 0;
    w->UpdateTexture(w->texture, NULL, rgba, (int)row_B);
    w->RenderCopy(w->renderer, w->texture, NULL, NULL);
    w->RenderPresent(w->renderer);
    return 1;
}

void demo_window_close(demo_window_t *w)
{
    if (!w) return;
    if (w->texture) w->DestroyTexture(w->texture);
    if (w->renderer) w->DestroyRenderer(w->renderer);
    if (w->window) w->DestroyWindow(w->window);
    if (w->Quit) w->Quit();
    if (w->lib) dlclose(w->lib);
    free(w);
}
