/* solver_fixture.h — what the solver and formulation tests share: a registered solver or formulation with
 * its tables' defaults and the options a test gives it through the typed setters (solver_set_option,
 * formulation_set_option: never PETSc's global database), a simulation made the same way, an options
 * object of the test's own for the readers, and the largest entrywise difference of two vectors. Linked
 * into every test. */
#ifndef CB_SOLVER_FIXTURE_H
#define CB_SOLVER_FIXTURE_H

#include "simulation.h"

/* Option / value pairs for the helpers below, NULL-terminated: OPTS("-cp_max_it", "3", "-lemke_block", "7").
 * A helper given NULL sets nothing. */
#define OPTS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* The solver name with its tables' defaults; tol > 0 is given as -cp_tol. NULL when name is not registered.
 */
struct solver *test_solver(const char *name, double tol);
/* The same, then each pair of opts through solver_set_option. NULL, with a failed check quoting the setter's
 * message, when a value is refused. */
struct solver *test_solver_with(const char *name, double tol, const char *const *opts);
/* The formulation name with its defaults, then each pair of opts through formulation_set_option. NULL, with a
 * failed check quoting the message, when it cannot be made or a value is refused. */
struct formulation *test_formulation(const char *name, const char *const *opts);
/* sim = w (not taken over: set sim->w = NULL before simulation_close to keep it), the formulation made by
 * test_formulation(formulation, opts), the solver with its defaults and a stepper. 1 on success, 0 on
 * failure; simulation_close may be called either way. */
int test_sim_open(struct simulation *sim, struct world *w, const char *formulation, const char *solver,
                  const char *const *opts);
/* A new options object holding the pairs of opts (what a run hands a task's readers); destroy it with
 * PetscOptionsDestroy after every reader that borrowed it. Aborts when PETSc cannot make it: NULL would be
 * the global database. */
PetscOptions test_options_object(const char *const *opts);
/* max_i |a_i - b_i|, NaN if any difference is NaN (a NaN must fail the tolerance it is compared with). */
double max_abs_diff(const double *a, const double *b, int n);

#endif
