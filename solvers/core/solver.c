/* solver.c — solver lifecycle and the harness (design.md contracts 2 and 3).
 * The harness is the one place that turns a solver's output into a status: a solver's own claim of
 * convergence is never trusted; the checker's residual decides. Nor is a claim of infeasibility: it is
 * certified only when the harness finds a Farkas vector that proves the feasible set empty (an LP solved
 * by GLPK, the vector then proved in exact arithmetic: farkas.c), else it stays the solver's word, flagged
 * and said so in the message. PETSc errors raised inside a solve are returned (not aborted on) and become
 * status numerical_failure with the error text. */
#include "solver.h"

#include "farkas.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
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
    for (unsigned k = CP_LCP; k <= CP_KIND_LAST; k <<= 1)
      if (t->kinds & k) {
        if (kinds[0]) strcat(kinds, ",");
        strcat(kinds, cp_kind_name((enum cp_kind)k));
      }
    fprintf(out, "  %-22s %-26s %s\n", t->name, kinds, t->summary);
  }
}

const struct option_decl solver_harness_options[] = {
    {"tol", OPT_REAL, offsetof(struct solver_settings, tol), "1e-8", "(0,inf)",
     "converged iff natural residual <= tol * min(max(1, ||q||_inf), 1e8)"},
    {"max_it", OPT_INT, offsetof(struct solver_settings, max_it), "0", "[0,inf)",
     "iteration / pivot limit; 0 = the solver's own default"},
    {"time_limit", OPT_REAL, offsetof(struct solver_settings, time_limit), "0", "[0,inf)",
     "wall-time limit per solve, 0 = none [s]"},
    {"warm_start", OPT_BOOL, offsetof(struct solver_settings, warm_start), "0", NULL,
     "z on entry is the initial guess (Lemke: its support is the starting basis)"},
};
const int solver_n_harness_options = (int)(sizeof solver_harness_options / sizeof solver_harness_options[0]);

static const char *solver_prefix(const struct solver_type *t, char *buf, size_t n)
{
  if (t->option_prefix) return t->option_prefix;
  snprintf(buf, n, "%s_", t->name);
  return buf;
}

void solver_print_harness_options(FILE *out)
{
  option_print(out, solver_harness_options, solver_n_harness_options, "cp_");
}

void solver_print_options(FILE *out, const struct solver_type *t)
{
  char buf[96];
  if (t->n_options == 0) {
    fprintf(out, "  (%s has no options of its own)\n", t->name);
    return;
  }
  option_print(out, t->options, t->n_options, solver_prefix(t, buf, sizeof buf));
}

/* Full names are built once into static storage: the registry is fixed at link time. */
#define SOLVER_MAX_OPTION_NAMES 512
static char solver_name_text[SOLVER_MAX_OPTION_NAMES][160];
static int solver_name_count = -1;

static void solver_collect_names(void)
{
  char buf[96];
  int k = 0;
  for (int i = 0; i < solver_n_harness_options && k < SOLVER_MAX_OPTION_NAMES; i++)
    snprintf(solver_name_text[k++], sizeof solver_name_text[0], "-cp_%s", solver_harness_options[i].name);
  for (int r = 0; solver_registry[r]; r++) {
    const struct solver_type *t = solver_registry[r];
    const char *prefix = solver_prefix(t, buf, sizeof buf);
    for (int i = 0; i < t->n_options && k < SOLVER_MAX_OPTION_NAMES; i++) {
      char full[160];
      snprintf(full, sizeof full, "-%s%s", prefix, t->options[i].name);
      int seen = 0;
      for (int j = 0; j < k && !seen; j++)
        seen = strcmp(solver_name_text[j], full) == 0;
      if (!seen) memcpy(solver_name_text[k++], full, sizeof full);
    }
  }
  solver_name_count = k;
}

const char **solver_option_names(int *n)
{
  if (solver_name_count < 0) solver_collect_names();
  const char **names = malloc(((size_t)solver_name_count + 1) * sizeof *names);
  *n = 0;
  if (!names) return NULL;
  for (int i = 0; i < solver_name_count; i++)
    names[i] = solver_name_text[i];
  *n = solver_name_count;
  return names;
}

const struct solver_type *solver_option_owner(const char *option)
{
  char buf[96], full[160];
  for (int r = 0; solver_registry[r]; r++) {
    const struct solver_type *t = solver_registry[r];
    const char *prefix = solver_prefix(t, buf, sizeof buf);
    for (int i = 0; i < t->n_options; i++) {
      snprintf(full, sizeof full, "-%s%s", prefix, t->options[i].name);
      if (strcmp(full, option) == 0) return t;
    }
  }
  return NULL;
}

const struct option_decl *solver_option_decl(const char *option)
{
  char buf[96], full[160];
  for (int i = 0; i < solver_n_harness_options; i++) {
    snprintf(full, sizeof full, "-cp_%s", solver_harness_options[i].name);
    if (strcmp(full, option) == 0) return &solver_harness_options[i];
  }
  for (int r = 0; solver_registry[r]; r++) {
    const struct solver_type *t = solver_registry[r];
    const char *prefix = solver_prefix(t, buf, sizeof buf);
    for (int i = 0; i < t->n_options; i++) {
      snprintf(full, sizeof full, "-%s%s", prefix, t->options[i].name);
      if (strcmp(full, option) == 0) return &t->options[i];
    }
  }
  return NULL;
}

int solver_create(const char *name, struct solver **out, char *msg, size_t len)
{
  *out = NULL;
  const struct solver_type *t = solver_find(name);
  struct solver *s = NULL;
  int rc = 1;
  if (!t) {
    size_t used = (size_t)snprintf(msg, len, "unable to find requested solver type '%s'; valid: ", name);
    for (int i = 0; solver_registry[i] && used < len; i++)
      used += (size_t)snprintf(msg + used, len - used, "%s%s", i ? "," : "", solver_registry[i]->name);
    return 1;
  }
  s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(msg, len, "%s: out of memory", name);
    return 1;
  }
  s->type = t;
  if (t->create && t->create(s) != 0) {
    snprintf(msg, len, "%s: cannot create its state (out of memory)", name);
    goto cleanup;
  }
  if (option_defaults(solver_harness_options, solver_n_harness_options, &s->set, msg, len) ||
      (t->n_options && option_defaults(t->options, t->n_options, s->data, msg, len)))
    goto cleanup;
  *out = s;
  s = NULL;
  rc = 0;
cleanup:
  solver_destroy(&s);
  return rc;
}

int solver_set_from_options(struct solver *s, PetscOptions opts, char *msg, size_t len)
{
  char buf[96];
  const struct solver_type *t = s->type;
  s->options = opts;
  if (option_read(solver_harness_options, solver_n_harness_options, opts, "cp_", &s->set, msg, len)) return 1;
  if (t->n_options &&
      option_read(t->options, t->n_options, opts, solver_prefix(t, buf, sizeof buf), s->data, msg, len))
    return 1;
  return t->set_from_options ? t->set_from_options(s, msg, len) : 0;
}

static int solver_reread(void *obj, PetscOptions o, char *msg, size_t len)
{
  return solver_set_from_options(obj, o, msg, len);
}

/* The typed setter keeps the values it was given in an options object of the solver's own and reads them
 * all again, exactly as a task's object is read: so an option that a family member or an inner solver
 * owns (path_crash's -lemke_...), and the type's cross-field checks, behave as they would in a run. */
int solver_set_option(struct solver *s, const char *name, const char *value, char *msg, size_t len)
{
  char owner[96];
  snprintf(owner, sizeof owner, "solver %s", s->type->name);
  return option_set_kept(&s->own_options, name, value, solver_reread, s, owner, msg, len);
}

int solver_setup(struct solver *s, const struct cp_problem *p)
{
  size_t n = p->n > 0 ? (size_t)p->n : 1;
  if (n > s->check_cap) {
    free(s->check_work);
    s->check_cap = 0;
    s->check_work = malloc(n * sizeof *s->check_work);
    if (!s->check_work) return 1;
    s->check_cap = n;
  }
  return s->type->setup ? s->type->setup(s, p) : 0;
}

void solver_destroy(struct solver **s)
{
  if (!s || !*s) return;
  if ((*s)->type->destroy) (*s)->type->destroy(*s);
  if ((*s)->own_options) PetscOptionsDestroy(&(*s)->own_options);
  free((*s)->check_work);
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

/* A claim of infeasibility that the checker has not overruled: certify it or say that it is unverified. */
static void solver_judge_infeasible(const struct cp_problem *p, struct solve_result *r)
{
  double qty;
  const char *why = "";
  size_t used = strlen(r->message);
  r->infeasible_certified = cp_farkas_certificate(p, &qty, &why);
  if (used >= sizeof r->message - 1) return;
  if (r->infeasible_certified)
    snprintf(r->message + used, sizeof r->message - used,
             "%scertified: no z is feasible (Farkas y, checked in exact arithmetic: M'y <= 0, q'y = %.3g)",
             used ? "; " : "", qty);
  else
    snprintf(r->message + used, sizeof r->message - used, "%sunverified: %s", used ? "; " : "", why);
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
  if (solver_setup(s, p) != 0) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    snprintf(r->message, sizeof r->message, "%s: out of memory sizing the workspaces for n = %d",
             s->type->name, p->n);
    return 1;
  }
  r->status = SOLVE_NUMERICAL_FAILURE;
  int pushed = 0;
  PetscBool petsc_up = PETSC_FALSE;
  PetscInitialized(&petsc_up);
  if (petsc_up && PetscPushErrorHandler(solver_petsc_error_quiet, r->message) == 0) pushed = 1;
  s->t_start = solver_wall_time();
  int err = s->type->solve(s, p, z, r);
  r->seconds = solver_wall_time() - s->t_start;
  if (r->call_seconds > 0.0 && r->call_seconds < r->seconds) r->seconds = r->call_seconds;
  if (pushed) PetscPopErrorHandler();
  if (err) {
    r->status = SOLVE_NUMERICAL_FAILURE;
    if (!r->message[0]) snprintf(r->message, sizeof r->message, "%s failed (error %d)", s->type->name, err);
  }
  if (r->status == SOLVE_NOT_APPLICABLE) return 0;
  struct cp_check c;
  if (cp_check(p, z, s->check_work, &c) != 0) return 1;
  r->residual = c.natural;
  r->residual_eq = c.equality;
  r->scale = c.scale;
  r->data_scale = c.data_scale;
  if (c.nonfinite)
    r->status = SOLVE_NAN_OR_INF;
  else if (cp_check_passes(&c, s->set.tol))
    r->status = SOLVE_CONVERGED;
  else if (r->status == SOLVE_CONVERGED) {
    r->status = SOLVE_NUMERICAL_FAILURE; /* the solver claimed success the checker does not confirm */
    if (!r->message[0])
      snprintf(r->message, sizeof r->message, "claimed convergence, residual %.3g > tol %.3g x scale %.3g",
               c.natural, s->set.tol, c.scale);
  } else if (r->status == SOLVE_INFEASIBLE) {
    solver_judge_infeasible(p, r);
  }
  if (r->status != SOLVE_CONVERGED && c.data_scale > c.scale) {
    /* say why a huge residual relative to ||q|| still fails: the scale was capped */
    size_t used = strlen(r->message);
    snprintf(r->message + used, sizeof r->message - used,
             "%sbadly scaled: ||q||_inf %.3g, judged on scale %.3g", used ? "; " : "", c.data_scale, c.scale);
  }
  return 0;
}
