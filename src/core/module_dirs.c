/*
 * Where the registry looks for backend modules after $WEBCRYPTO_MODULE_DIR:
 * the install's <libdir>/webcrypto only, never the build tree (tests and
 * the build scripts name that with $WEBCRYPTO_MODULE_DIR). Compiled into each
 * library on its own (CMakeLists.txt), because the two find it differently:
 *  - libwebcrypto.so (WC_MODULE_DIR_BESIDE_SELF): the directory `webcrypto`
 *    beside the library's own file, which is <libdir>/webcrypto wherever the
 *    install was put (`cmake --install --prefix DIR` included), as the
 *    relocatable webcrypto.pc;
 *  - libwebcrypto.a: WEBCRYPTO_MODULE_INSTALL_DIR, the configured install's,
 *    compiled in (the static library's code lives in the user's program,
 *    whose own place says nothing about where modules are).
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module_open.h"

#ifdef WC_MODULE_DIR_BESIDE_SELF
/* Any object of this library: dladdr names the file it was loaded from. */
static const char wc_module_dirs_anchor = 0;

void wc_module_dirs(char *buf, size_t cap) {
    Dl_info info;
    char *self = NULL;
    buf[0] = 0;
    if (dladdr(&wc_module_dirs_anchor, &info) && info.dli_fname)
        self = realpath(info.dli_fname, NULL); /* the file itself, not a symlink's place */
    char *slash = self ? strrchr(self, '/') : NULL;
    if (slash) {
        *slash = 0;
        int w = snprintf(buf, cap, "%s/webcrypto", self);
        if (w < 0 || (size_t)w >= cap) buf[0] = 0; /* a cut path would name another place */
    }
    free(self);
}
#else
#ifndef WEBCRYPTO_MODULE_INSTALL_DIR
#error "WEBCRYPTO_MODULE_INSTALL_DIR: the install's module directory, set by CMake"
#endif
void wc_module_dirs(char *buf, size_t cap) {
    int w = snprintf(buf, cap, "%s", WEBCRYPTO_MODULE_INSTALL_DIR);
    if (w < 0 || (size_t)w >= cap) buf[0] = 0;
}
#endif
