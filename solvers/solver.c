/* solver.c — solver lifecycle and the harness (design.md contracts 2 and 3).
 * The harness is the one place that turns a solver's output into a status: a solver's own claim of
 * convergence is never trusted; the checker's residual decides. PETSc errors raised inside a solve are
 * returned (not aborted on) and become status numerical_failure with the error text. */
#include "solver.h"

#include <stddef.h>

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const status_names[SOLVE_STATUS_COUNT] = {
    "converged",  "max_iterations", "ray_termination",   "line_search_failure", "nan_or_inf",
    "time_limit", "not_applicable", "numerical_failure", "infeasible",
};

const char *solve_status_name(enum solve_status st)
{
  return (st >= 0 && st < SOLVE_STATUS_COUNT) ? status_names[st] : "unknown";
}

double solver_wall_time(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const struct solver_type *solver_find(const char *name)
{
  for (int i = 0; solver_registry[i]; i++)
    if (strcmp(solver_registry[i]->name, name) == 0) return solver_registry[i];
  return NULL;
}

void solver_registry_names(FILE *out)
{
  for (int i = 0; solver_registry[i]; i++)
    fprintf(out, "%s%s", i ? "," : "", solver_registry[i]->name);
}

void solver_registry_print(FILE *out)
{
  fprintf(out, "Complementarity solvers (-cp_solver NAME[,NAME...] or all):\n");
  for (int i = 0; solver_registry[i]; i++) {
    const struct solver_type *t = solver_registry[i];
    char kinds[64] = "";
    for (unsigned k = CP_LCP; k <= CP_NCP; k <<= 1)
      if (t->kinds & k) {
        if (kinds[0]) strcat(kinds, ",");
        strcat(kinds, cp_kind_name((enum cp_kind)k));
      }
    fprintf(out, "  %-22s %-26s %s\n", t->name, kinds, t->summary);
  }
}

int solver_create(const char *name, struct solver **out)
{
  *out = NULL;
  const struct solver_type *t = solver_find(name);
  if (!t) {
    fprintf(stderr, "error: unable to find requested solver type '%s'; valid: ", name);
    solver_registry_names(stderr);
    fprintf(stderr, "\n");
    return 1;
  }
  struct solver *s = calloc(1, sizeof *s);
  if (!s) return 1;
  s->type = t;
  s->set.tol = 1e-8;
  s->set.max_it = 0;
  s->set.time_limit = 0.0;
  s->set.warm_start = 0;
  if (t->create && t->create(s) != 0) {
    free(s);
    return 1;
  }
  *out = s;
  return 0;
}

int solver_set_from_options(struct solver *s)
{
  PetscBool set;
  PetscReal r;
  PetscInt i;
  if (PetscOptionsGetReal(NULL, NULL, "-cp_tol", &r, &set) == 0 && set) s->set.tol = r;
  if (PetscOptionsGetInt(NULL, NULL, "-cp_max_it", &i, &set) == 0 && set) s->set.max_it = (int)i;
  if (PetscOptionsGetReal(NULL, NULL, "-cp_time_limit", &r, &set) == 0 && set) s->set.time_limit = r;
  PetscBool b = PETSC_FALSE;
  if (PetscOptionsGetBool(NULL, NULL, "-cp_warm_start", &b, &set) == 0 && set) s->set.warm_start = b;
  if (!(s->set.tol > 0.0)) {
    fprintf(stderr, "error: -cp_tol must be positive (got %g)\n", s->set.tol);
    return 1;
  }
  if (s->set.max_it < 0 || s->set.time_limit < 0) {
    fprintf(stderr, "error: -cp_max_it and -cp_time_limit must not be negative\n");
    return 1;
  }
  return s->type->set_from_options ? s->type->set_from_options(s) : 0;
}

void solver_destroy(struct solver **s)
{
  if (!s || !*s) return;
  if ((*s)->type->destroy) (*s)->type->destroy(*s);
  free(*s);
  *s = NULL;
}

void solver_view(const struct solver *s, FILE *out)
{
  fprintf(out, "solver %s: tol %g, max_it %d, time_limit %g s, warm_start %d\n", s->type->name, s->set.tol,
          s->set.max_it, s->set.time_limit, s->set.warm_start);
  if (s->type->view) s->type->view(s, out);
}

int solver_accepts(const struct solver_type *t, const struct cp_problem *p)
{
  return (t->kinds & p->kind) != 0;
}

int solver_out_of_time(const struct solver *s)
{
  return s->set.time_limit > 0.0 && solver_wall_time() - s->t_start > s->set.time_limit;
}

/* PETSc's default handler prints and aborts in some paths; inside a solve we want the code back. */
static PetscErrorCode solver_petsc_error_quiet(MPI_Comm comm, int line, const char *fun, const char *file,
                                               PetscErrorCode n, PetscErrorType p, const char *mess,
                                               void *ctx)
{
  (void)comm;
  (void)line;
  (void)file;
  (void)p;
  char *buf = ctx;
  if (buf && !buf[0]) snprintf(buf, 160, "PETSc error %d in %s: %s", (int)n, fun, mess ? mess : "");
  return n;
}

int solver_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  memset(r, 0, sizeof *r);
  r->residual = INFINITY;
  if (!solver_accepts(s->type, p)) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "%s does not take %s problems", s->type->name,
             cp_kind_name(p->kind));
    return 0;
  }
  if (!s->set.warm_start)
    for (int i = 0; i < p->n; i++)
      z[i] = cp_mid(p->lo[i], p->hi[i], 0.0);
  r->status = SOLVE_NUMERICAL_FAILURE;
  int pushed = 0;
  PetscBool petsc_up = PETSC_FALSE;
  PetscInitialized(&petsc_up);
  if (petsc_up && PetscPushErrorHandler(solver_petsc_error_quiet, r->message) == 0) pushed = 1;
  s->t_start = solver_wall_time();
  int err = s->type->solve(s, p, z, r);
  r->seconds = solver_wall_time() - s->t_start;
  if (pushed) PetscPopErrorHandler();
  if (err) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    if (!r->message[0]) snprintf(r->message, sizeof r->message, "%s failed (error %d)", s->type->name, err);
  }
  if (r->status == SOLVE_NOT_APPLICABLE) return 0;
  struct cp_check c;
  if (cp_check(p, z, NULL, &c) != 0) return 1;
  r->residual = c.natural;
  r->residual_eq = c.equality;
  r->scale = c.scale;
  if (c.nonfinite)
    r->status = SOLVE_NAN_OR_INF;
  else if (cp_check_passes(&c, s->set.tol))
    r->status = SOLVE_CONVERGED;
  else if (r->status == SOLVE_CONVERGED) {
    r->status = SOLVE_NUMERICAL_FAILURE; /* the solver claimed success the checker does not confirm */
    if (!r->message[0])
      snprintf(r->message, sizeof r->message, "claimed convergence, residual %.3g > tol %.3g x scale %.3g",
               c.natural, s->set.tol, c.scale);
  }
  return 0;
}

const struct option_decl solver_harness_options[] = {
    {"cp_tol", OPT_REAL, offsetof(struct solver_settings, tol), "1e-8", "(0,inf)",
     "converged iff the natural-map residual <= tol * max(1, ||q||_inf)"},
    {"cp_max_it", OPT_INT, offsetof(struct solver_settings, max_it), "0", "[0,2147483647]",
     "iterations or pivots (0: the solver's own default)"},
    {"cp_time_limit", OPT_REAL, offsetof(struct solver_settings, time_limit), "0", "[0,inf)",
     "wall seconds per solve (0: none) [s]"},
    {"cp_warm_start", OPT_BOOL, offsetof(struct solver_settings, warm_start), "0", NULL,
     "z on entry is the initial guess"},
};
const int solver_harness_n_options = (int)(sizeof solver_harness_options / sizeof solver_harness_options[0]);
