/* glpk_guard.h — GLPK calls that cannot abort the process (used by the harness's certificate search,
 * farkas.c, and by the enumeration family's enum and milp). */
#ifndef CB_GLPK_GUARD_H
#define CB_GLPK_GUARD_H

#include <stddef.h>

/* Runs body(ctx) with GLPK's fatal errors caught. GLPK aborts the process on an error it detects (e.g.
 * glp_scale_prob on data near DBL_MAX: "invalid scale factor"); its error hook (glp_error_hook) lets us
 * longjmp out instead, after which the GLPK environment is freed (glp_free_env) with every problem object
 * body created. So body must own nothing but GLPK objects. GLPK's terminal output is swallowed (its last
 * message is kept for msg). Returns 0 when body ran to its end, 1 after a GLPK error, with msg set. */
int glpk_guarded(void (*body)(void *ctx), void *ctx, char *msg, size_t len);

#endif
