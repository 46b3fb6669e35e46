/*
 * module_open.h - finding a module and opening it in a symbol scope of its
 * own. Used by the registry (backend modules, webcrypto-<name>.so) and by
 * webcrypto-bench (its raw-boringssl baseline, tools/bench/bench_raw_module.c),
 * so that both find and load their modules the same way. Header-only, so
 * that libwebcrypto exports nothing for it. The includer defines
 * _GNU_SOURCE (RTLD_DEEPBIND, secure_getenv) before its first #include.
 */
#ifndef WEBCRYPTO_CORE_MODULE_OPEN_H
#define WEBCRYPTO_CORE_MODULE_OPEN_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* libwebcrypto's module directories after $WEBCRYPTO_MODULE_DIR (its install
 * location only; module_dirs.c), colon-separated, into buf; "" if unknown. */
void wc_module_dirs(char *buf, size_t cap);

/* dlopen with RTLD_DEEPBIND, so that the module and its libraries resolve
 * their symbols in their own scope first (BoringSSL and OpenSSL export the
 * same names). AddressSanitizer's dlopen refuses that flag, because an
 * isolated library could free memory from the other allocator; modules never
 * pass memory ownership across the boundary, so under ASan we call libc's
 * own dlopen. */
#if defined(__SANITIZE_ADDRESS__) /* GCC */
#define WC_MODULE_ASAN 1
#elif defined(__has_feature) /* clang before 15 does not define the above */
#if __has_feature(address_sanitizer)
#define WC_MODULE_ASAN 1
#endif
#endif

static inline void *wc_dlopen_isolated(const char *path) {
    const int mode = RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND;
#if defined(WC_MODULE_ASAN)
    /* glibc's dlopen: in libc.so.6 from 2.34, in libdl.so.2 before. The
     * NOLOAD handles only count references to libraries already loaded. */
    static const char *const libs[] = {"libc.so.6", "libdl.so.2"};
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        void *lib = dlopen(libs[i], RTLD_NOW | RTLD_NOLOAD);
        void *sym = lib ? dlsym(lib, "dlopen") : NULL;
        if (lib) dlclose(lib);
        if (sym) {
            void *(*libc_dlopen)(const char *, int);
            memcpy(&libc_dlopen, &sym, sizeof sym);
            return libc_dlopen(path, mode);
        }
    }
#endif
    return dlopen(path, mode);
}

#ifdef __ANDROID__
/* Bionic has no secure_getenv; app processes are never set-user-ID. */
#define wc_module_getenv getenv
#else
#define wc_module_getenv secure_getenv
#endif

/* Looks for `file` in $WEBCRYPTO_MODULE_DIR, then in `dirs` (colon-separated:
 * the install's module directory), and opens the first readable one with
 * wc_dlopen_isolated. The variable chooses code to load, so it is read with
 * secure_getenv: a program running set-user-ID, set-group-ID or with file
 * capabilities ignores it and loads only from `dirs`. Returns 0 with *handle
 * set and msg the path opened; 1 if no directory has the file, msg listing
 * the paths tried; -1 if the file found does not load, msg saying why. */
static inline int wc_module_open(const char *file, const char *dirs, void **handle, char *msg,
                                 size_t cap) {
    char list[4096];
    const char *env = wc_module_getenv("WEBCRYPTO_MODULE_DIR");
    int n = snprintf(list, sizeof list, "%s%s%s", env && *env ? env : "", env && *env ? ":" : "",
                     dirs);
    if (n < 0 || (size_t)n >= sizeof list) { /* a cut list would name other places */
        if (snprintf(msg, cap, "module directories too long: %.200s...", list) < 0) msg[0] = 0;
        return 1;
    }
    char path[4096], tried[1024] = "";
    size_t tried_len = 0;
    *handle = NULL;
    for (char *save = NULL, *dir = strtok_r(list, ":", &save); dir;
         dir = strtok_r(NULL, ":", &save)) {
        int pn = snprintf(path, sizeof path, "%s/%s", dir, file);
        if (pn < 0 || (size_t)pn >= sizeof path) continue; /* cut: another file's name */
        int w = snprintf(tried + tried_len, sizeof tried - tried_len, "%s%s",
                         tried_len ? ", " : "", path);
        if (w > 0 && (size_t)w < sizeof tried - tried_len) tried_len += (size_t)w;
        if (access(path, R_OK) != 0) continue;
        *handle = wc_dlopen_isolated(path);
        /* (A message cut at cap is still a message: the returns are only
         * checked for an output error.) */
        if (*handle) {
            if (snprintf(msg, cap, "%s", path) < 0) msg[0] = 0;
            return 0;
        }
        if (snprintf(msg, cap, "cannot load %s: %s", path, dlerror()) < 0) msg[0] = 0;
        return -1;
    }
    if (snprintf(msg, cap, "%s", tried_len ? tried : "no directory; set WEBCRYPTO_MODULE_DIR") < 0)
        msg[0] = 0;
    return 1;
}

#endif
