/*
 * The copy-in of webcrypto_params (docs/ABI.md): the caller's struct may be
 * shorter (a program built against an older header) or longer (a newer
 * header) than this library's. The idea is zlib's sizeof(z_stream) check and
 * Linux's copy_struct_from_user: copy what both know, absent for what the
 * program lacks, refuse what the library lacks unless it is zero.
 */
#include <stddef.h>
#include <string.h>

#include "core.h"

/* Past this, `size` is garbage (a struct never initialised), not a layout. */
#define WC_PARAMS_MAX_SIZE 4096u

/* No padding at the struct's end: a later release appends members there,
 * and an older program's tail padding (indeterminate bytes) must never be
 * read as one of them. The last member is the one this names. */
_Static_assert(sizeof(webcrypto_params) == offsetof(webcrypto_params, version) +
                                               sizeof(((webcrypto_params *)0)->version),
               "webcrypto_params must end without padding (docs/ABI.md)");

/* The shortest struct accepted: one that has `name`. */
#define WC_PARAMS_MIN_SIZE (offsetof(webcrypto_params, name) + sizeof(webcrypto_algorithm))

void webcrypto_params_init(webcrypto_params *p, size_t size) {
    if (!p || size < sizeof p->size) return;
    memset(p, 0, size);
    p->size = size;
}

webcrypto_status wc_params_in(const webcrypto_params **p, webcrypto_params *local,
                              const char *operation) {
    const webcrypto_params *in = *p;
    if (!in) return WEBCRYPTO_OK;
    size_t size = in->size;
    /* The caller's layout is this library's: used in place, no copy (this is
     * on every keyed call's path). */
    if (size == sizeof *local) return WEBCRYPTO_OK;
    if (size == 0)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "%s: webcrypto_params.size is 0: initialise the params with "
                        "WEBCRYPTO_PARAMS_INIT or WEBCRYPTO_PARAMS(...) (or webcrypto_params_init)",
                        operation);
    if (size < WC_PARAMS_MIN_SIZE || size > WC_PARAMS_MAX_SIZE)
        return wc_error(WEBCRYPTO_ERR_INVALID_ARGUMENT,
                        "%s: webcrypto_params.size is %zu, not the size of a webcrypto_params "
                        "(%zu in this library): initialise the params with WEBCRYPTO_PARAMS_INIT",
                        operation, size, sizeof(webcrypto_params));
    memset(local, 0, sizeof *local);
    if (size <= sizeof *local) {
        memcpy(local, in, size);
    } else {
        const unsigned char *extra = (const unsigned char *)in + sizeof *local;
        unsigned char any = 0;
        for (size_t i = 0; i < size - sizeof *local; i++) any |= extra[i];
        if (any)
            return wc_error(WEBCRYPTO_ERR_NOT_SUPPORTED,
                            "%s: this library (version %s) does not know a parameter the program "
                            "set (its webcrypto_params has %zu bytes, this library's %zu)",
                            operation, WEBCRYPTO_VERSION, size, sizeof *local);
        memcpy(local, in, sizeof *local);
    }
    local->size = sizeof *local;
    *p = local;
    return WEBCRYPTO_OK;
}

const char *webcrypto_version(void) { return WEBCRYPTO_VERSION; }

long webcrypto_version_number(void) { return WEBCRYPTO_VERSION_NUMBER; }
