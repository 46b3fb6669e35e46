/*
 * jca_debug.h - counters of the jca backend for its stress test (not
 * installed; reachable from programs linked with libwebcrypto's static
 * library). Counting costs one thread-local or relaxed atomic add.
 */
#ifndef WEBCRYPTO_JCA_DEBUG_H
#define WEBCRYPTO_JCA_DEBUG_H

#include <stdbool.h>

typedef struct wc_jca_debug_stats {
    long global_refs;       /* JNI global references the backend holds now */
    long unbalanced_frames; /* operations that ended with a local frame open (must stay 0) */
    long pending_exceptions; /* operations that ended with a Java exception pending (must stay 0) */
    int frame_depth;        /* the calling thread's open local frames (0 between calls) */
    bool exception_pending; /* a Java exception pending on the calling thread now */
} wc_jca_debug_stats;

/* Fills *out for the calling thread (attaching it if needed); false if the
 * jca backend has not started. */
bool wc_jca_debug_get(wc_jca_debug_stats *out);

#endif
