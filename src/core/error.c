/* Error kinds and the per-thread error message. */
#include <stdarg.h>
#include <stdio.h>

#include "backend.h"

static _Thread_local char wc_message[512];

const char *webcrypto_status_name(webcrypto_status status) {
    switch (status) {
    case WEBCRYPTO_OK: return "OK";
    case WEBCRYPTO_ERR_NOT_SUPPORTED: return "NotSupportedError";
    case WEBCRYPTO_ERR_SYNTAX: return "SyntaxError";
    case WEBCRYPTO_ERR_INVALID_ACCESS: return "InvalidAccessError";
    case WEBCRYPTO_ERR_DATA: return "DataError";
    case WEBCRYPTO_ERR_OPERATION: return "OperationError";
    case WEBCRYPTO_ERR_QUOTA_EXCEEDED: return "QuotaExceededError";
    case WEBCRYPTO_ERR_INVALID_ARGUMENT: return "TypeError";
    case WEBCRYPTO_ERR_NO_MEMORY: return "OutOfMemory";
    }
    return "UnknownError";
}

const char *webcrypto_error_message(void) { return wc_message; }

void wc_set_error_message(const char *message) {
    snprintf(wc_message, sizeof wc_message, "%s", message);
}

webcrypto_status wc_error(webcrypto_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(wc_message, sizeof wc_message, fmt, ap);
    va_end(ap);
    return status;
}
