/* solver.h — the solver type table, the registry and the harness that judges every answer.
 * design.md contract 2 (type table, registry by name) and 3 (typed result; the harness, not the solver,
 * decides "converged" from the independent checker in cp.c). Options, declared in tables (option_table.h):
 * the harness's -cp_tol, -cp_max_it, -cp_time_limit, -cp_warm_start (solver_harness_options) and each
 * solver's own -<name>_... rows. Workspaces are sized by solver_setup before the clock starts, so a timed
 * solve allocates nothing it could have allocated up front (GSL's rule). Errors come back as messages. */
#ifndef CB_SOLVER_H
#define CB_SOLVER_H

#include "cp.h"
#include "option_table.h"

#include <stdio.h>

enum solve_status {
  SOLVE_CONVERGED,
  SOLVE_MAX_ITERATIONS,
  SOLVE_RAY_TERMINATION,
  SOLVE_LINE_SEARCH_FAILURE,
  SOLVE_NAN_OR_INF,
  SOLVE_TIME_LIMIT,
  SOLVE_NOT_APPLICABLE,
  SOLVE_NUMERICAL_FAILURE,
  SOLVE_INFEASIBLE, /* the solver claims there is no solution; proved only when infeasible_certified */
  SOLVE_STATUS_COUNT
};

struct solve_result {
  enum solve_status status;
  int iterations;     /* pivots for pivoting methods */
  double residual;    /* natural-map residual from cp_check (absolute, not scaled) */
  double residual_eq; /* equality residual of mixed problems */
  double scale;       /* the scale the tolerance was multiplied by: min(max(1, ||q||_inf), CP_SCALE_MAX) */
  double data_scale;  /* max(1, ||q||_inf) (callback problems: their declared scale), before the cap */
  double seconds;     /* wall time of the solve call */
  /* Set by a solver whose library call runs elsewhere (Siconos in a forked child under a time limit): the
   * wall time of that call alone, which the harness reports as seconds instead of its own clock's (which
   * would add the fork and the polling). 0: the harness's clock. */
  double call_seconds;
  int n_solutions; /* enum: every solution found; row-major n_solutions x n, owned by the solver */
  const double *solutions;
  char message[320]; /* detail for failures (e.g. a PETSc error), empty otherwise */
  /* Set by a solver that stopped (time or iteration limit) without anything that approximates a solution:
   * a pivoting method's almost-complementary basis, a MILP without an incumbent, an unfinished
   * enumeration. Callers must not use z then (the stepper does not advance the state); iterative methods
   * leave it 0, their last iterate being an approximate answer. */
  int no_answer;
  /* Status infeasible only: 1 when the harness found and checked a certificate (a Farkas vector showing
   * that no z is even feasible), 0 when the claim rests on the solver's word (the message says so): milp's
   * "none within the big-M bound" is no proof, and enum's enumeration is not re-done by the harness. */
  int infeasible_certified;
};

/* Settings every solver honours; a solver ignoring its tolerance or limits is a defect. */
struct solver_settings {
  double tol; /* -cp_tol: converged iff residual <= tol * min(max(1, ||q||_inf), CP_SCALE_MAX) (1e-8) */
  int max_it; /* -cp_max_it: iterations / pivots; 0 = the solver's own default */
  double time_limit; /* -cp_time_limit seconds; 0 = none */
  int warm_start;    /* -cp_warm_start: z on entry is the initial guess (Lemke: its support is the basis) */
};

/* The harness's own options (prefix "cp_"), offsets into struct solver_settings. */
extern const struct option_decl solver_harness_options[];
extern const int solver_n_harness_options;

struct solver;

struct solver_type {
  const char *name;
  const char *summary;
  unsigned kinds; /* bit mask of enum cp_kind accepted */
  /* Its own options, declared (option_table.h): names without the prefix the harness adds, offsets into
   * the state struct create() allocates in s->data; read by solver_set_from_options after create. */
  const struct option_decl *options;
  int n_options;
  const char *option_prefix;       /* NULL: "<name>_"; a family may share one ("siconos_") */
  int (*create)(struct solver *s); /* allocate s->data (zeroed); the table's defaults are applied after */
  /* Optional: cross-field checks after the table is read, and reading options owned by PETSc objects
   * (TAO, SNES) so that PETSc marks them used. 0 on success, else 1 with msg. */
  int (*set_from_options)(struct solver *s, char *msg, size_t len);
  /* Optional: size the workspaces for p (reusing them when p is not larger than before). Called by the
   * harness before the clock starts; a solve must not allocate what setup could. 0 on success. */
  int (*setup)(struct solver *s, const struct cp_problem *p);
  /* Compute z; set r->status to the solver's own reason (the harness overrides it with the checker's
   * verdict) and r->iterations. Return nonzero only for failures outside the algorithm (allocation). */
  int (*solve)(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r);
  void (*destroy)(struct solver *s);
  void (*view)(const struct solver *s, FILE *out);
};

struct solver {
  const struct solver_type *type;
  struct solver_settings set;
  /* The options object the settings were read from (solver_set_from_options; borrowed, NULL before):
   * solvers that hand options on (TAO / SNES objects, path_crash's phases) read from it too. */
  PetscOptions options;
  PetscOptions own_options; /* the values given through solver_set_option (owned; NULL when none) */
  double t_start;           /* wall clock at the start of the current solve, for solver_out_of_time */
  void *data;               /* the implementation's state */
  double *check_work; /* n doubles for cp_check (the harness's and any solver's), sized by solver_setup */
  size_t check_cap;
};

/* Registry (registry.c). */
extern const struct solver_type *const solver_registry[];
const struct solver_type *solver_find(const char *name);
void solver_registry_print(FILE *out);
void solver_registry_names(FILE *out); /* comma-separated valid names */

/* Option help and names: solver_print_options prints t's rows (with their prefix) for -help;
 * solver_print_harness_options the -cp_ rows. solver_option_names returns every declared option name
 * ("-cp_tol", "-lemke_pivot_tol", ...) of the harness and of all registered solvers, each once, in a
 * malloc'd array of pointers to static text (free the array only); its length in *n. NULL on failure.
 * solver_option_owner: the first registered solver declaring option (with '-'), NULL if none does. */
void solver_print_options(FILE *out, const struct solver_type *t);
void solver_print_harness_options(FILE *out);
const char **solver_option_names(int *n);
const struct solver_type *solver_option_owner(const char *option);
/* The declaring row of option ("-cp_tol", "-lemke_block": the harness's or any registered solver's), NULL
 * when no solver declares it: its type, range and choices check an axis of its values. */
const struct option_decl *solver_option_decl(const char *option);

/* Lifecycle. solver_create fails (returns 1, msg naming the valid ones) for an unknown name; the harness
 * and solver fields get their tables' defaults. solver_set_from_options reads -cp_..., then the solver's
 * table, then its set_from_options hook, from opts (the run's or the task's options object); 1 with msg
 * naming the option on a bad value. msg may be NULL when len is 0 (a caller that does not report). */
int solver_create(const char *name, struct solver **s, char *msg, size_t len);
int solver_set_from_options(struct solver *s, PetscOptions opts, char *msg, size_t len);
/* Typed setter for code and tests: option (full name, with or without '-': "-lemke_block", "cp_tol") takes
 * value, and the solver's settings become its defaults plus every value set this way so far, read and
 * checked as a run reads a task's options object. 1 with msg for an option the solver does not read or a
 * bad value (the solver keeps its earlier settings then). */
int solver_set_option(struct solver *s, const char *option, const char *value, char *msg, size_t len);
/* Sizes the checker's and the solver's workspaces for p; solver_solve calls it before timing. */
int solver_setup(struct solver *s, const struct cp_problem *p);
void solver_destroy(struct solver **s);
void solver_view(const struct solver *s, FILE *out);

/* The harness: checks applicability, times the call, catches PETSc errors, and decides the status from
 * cp_check against s->set.tol. z has p->n entries (the initial guess when warm_start is set). */
int solver_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r);

int solver_accepts(const struct solver_type *t, const struct cp_problem *p);
/* A linear problem solved island by island (cp_islands.c; one island, or a nonlinear p: solve_one(ctx, p,
 * z, r) once): each island as its own problem (cp_island_problem) by solve_one from its part of z, written
 * back. Iterations: the largest island's count (the islands are independent runs); status: the first failed
 * island's, its message kept with its place, else "N islands (largest n = M)". Nonzero on allocation failure
 * or when solve_one returns nonzero. */
int solver_solve_islands(const struct cp_problem *p, double *z, struct solve_result *r,
                         int (*solve_one)(void *ctx, const struct cp_problem *sub, double *z,
                                          struct solve_result *r),
                         void *ctx);
int solver_out_of_time(const struct solver *s);
const char *solve_status_name(enum solve_status st);
double solver_wall_time(void);

#endif
