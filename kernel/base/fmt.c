/* Bounded printf subset (see fmt.h): messages without stdio or heap. */
#include "kernel/base/fmt.h"

#include <stdint.h>

typedef struct out { char *buf; size_t cap, len; } out_t;

static void put(out_t *o, char c)
{
    if (o->len + 1 < o->cap) o->buf[o->len] = c;
    o->len++;
}

static void put_pad(out_t *o, char c, int n)
{
    while (n-- > 0) put(o, c);
}

static void put_uint(out_t *o, unsigned long long v, unsigned base, bool upper, int width, char pad)
{
    char tmp[24];
    int n = 0;
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    do { tmp[n++] = digits[v % base]; v /= base; } while (v);
    put_pad(o, pad, width - n);
    while (n) put(o, tmp[--n]);
}

static void put_double(out_t *o, double v)
{
    if (v != v) { put(o, 'n'); put(o, 'a'); put(o, 'n'); return; }
    if (v < 0) { put(o, '-'); v = -v; }
    if (v > 1e18) { put(o, 'i'); put(o, 'n'); put(o, 'f'); return; }
    unsigned long long whole = (unsigned long long)v;
    unsigned long long frac = (unsigned long long)((v - (double)whole) * 1000.0 + 0.5);
    if (frac >= 1000) { whole++; frac -= 1000; }
    put_uint(o, whole, 10, false, 0, ' ');
    put(o, '.');
    put_uint(o, frac, 10, false, 3, '0');
}

size_t eg_vfmt(char *buf, size_t cap, const char *fmt, va_list ap)
{
    out_t o = { buf, cap, 0 };
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') { put(&o, *p); continue; }
        p++;
        char pad = ' ';
        int width = 0, prec = -1, lng = 0;
        if (*p == '0') { pad = '0'; p++; }
        while (*p >= '0' && *p <= '9') width = width * 10 + (*p++ - '0');
        if (*p == '.') {
            p++;
            if (*p == '*') { prec = va_arg(ap, int); p++; }
            else { prec = 0; while (*p >= '0' && *p <= '9') prec = prec * 10 + (*p++ - '0'); }
        }
        while (*p == 'l') { lng++; p++; }
        if (*p == 'z') { lng = (sizeof(size_t) == sizeof(long long)) ? 2 : 1; p++; }
        switch (*p) {
        case 'd': case 'i': {
            long long v = lng >= 2 ? va_arg(ap, long long) : lng == 1 ? va_arg(ap, long) : va_arg(ap, int);
            unsigned long long u = (unsigned long long)v;
            if (v < 0) { put(&o, '-'); u = 0ull - u; width--; }
            put_uint(&o, u, 10, false, width, pad);
            break;
        }
        case 'u': case 'x': case 'X': {
            unsigned long long v = lng >= 2 ? va_arg(ap, unsigned long long)
                                 : lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
            put_uint(&o, v, *p == 'u' ? 10 : 16, *p == 'X', width, pad);
            break;
        }
        case 'p':
            put(&o, '0'); put(&o, 'x');
            put_uint(&o, (uintptr_t)va_arg(ap, void *), 16, false, 0, ' ');
            break;
        case 'c': put(&o, (char)va_arg(ap, int)); break;
        case 'f': put_double(&o, va_arg(ap, double)); break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s) s = "(null)";
            int n = 0;
            while (s[n] && (prec < 0 || n < prec)) n++;
            put_pad(&o, ' ', width - n);
            for (int i = 0; i < n; i++) put(&o, s[i]);
            break;
        }
        case '%': put(&o, '%'); break;
        case '\0': p--; break;
        default: put(&o, '%'); put(&o, *p); break;
        }
    }
    if (cap) buf[o.len < cap ? o.len : cap - 1] = '\0';
    return o.len < cap ? o.len : (cap ? cap - 1 : 0);
}

size_t eg_fmt(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t n = eg_vfmt(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}
