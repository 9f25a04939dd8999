/* siconos_call.h — one call into Siconos numerics as every Siconos backend makes it (siconos.c, siconos_fc.c,
 * siconos_mcp.c): under Siconos' error hook, so that a fatal error longjmps back instead of abort(), and with
 * stderr sent to /dev/null meanwhile unless asked (Siconos writes some diagnostics there whatever its
 * verbosity: NM_LU_factorize one line per failed factorization, thousands on a degenerate problem). */
#ifndef CB_SICONOS_CALL_H
#define CB_SICONOS_CALL_H

#include <numerics/SolverOptions.h>

/* Frees options made by solver_options_create (Siconos 4.4's solver_options_delete frees the members only);
 * NULL is fine. */
void siconos_options_free(SolverOptions *o);
/* Siconos' options of solver id with our tolerance tol (its own measure) and, when max_it > 0, that
 * iteration limit; NULL out of memory. */
SolverOptions *siconos_options_make(int id, double tol, int max_it);

/* A Siconos driver call (lcp_driver, fc3d_driver, mcp_driver, ...) on its arguments; returns its info. */
typedef int (*siconos_driver_call)(void *args);

/* call(args) guarded; quiet: stderr silenced. Returns its info (-1 when it did not return), *fatal = 1 when
 * Siconos raised a fatal error. */
int siconos_guarded_call(siconos_driver_call call, void *args, int quiet, int *fatal);

/* work(arg) in a child forked for it (it dies with its parent and runs no atexit handlers: MPI and PETSc
 * belong to the parent), waited for until s's time limit (s->set.time_limit after s->t_start), then killed:
 * 0 finished, 1 killed at the time limit, 2 the child could not run or died (*wstatus: how it ended). */
struct solver;
int siconos_run_forked(const struct solver *s, void (*work)(void *arg), void *arg, int *wstatus);

#endif
