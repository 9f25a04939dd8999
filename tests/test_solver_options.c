/* test_solver_options.c — the declared options of the harness and of every registered solver
 * (solver.h, option_table.h): unique names, defaults that parse inside their ranges, every bad value
 * (out of range, malformed, not a choice) refused with a message naming the option; the name list and
 * owner lookup cpsolve uses for "did you mean"; PETSc's own -<name>_tao_... options read (and so marked
 * used) by solver_set_from_options; workspaces reused across problems of different sizes. */
#include "check.h"
#include "cp.h"
#include "solver.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static const char *prefix_of(const struct solver_type *t, char *buf, size_t n)
{
  if (t->option_prefix) return t->option_prefix;
  snprintf(buf, n, "%s_", t->name);
  return buf;
}

static void test_tables(void)
{
  int rows = 0, unique = 1, defaults_ok = 1;
  for (int r = 0; solver_registry[r]; r++) {
    const struct solver_type *t = solver_registry[r];
    for (int i = 0; i < t->n_options; i++) {
      const struct option_decl *o = &t->options[i];
      rows++;
      for (int j = 0; j < i; j++)
        if (strcmp(o->name, t->options[j].name) == 0) {
          unique = 0;
          printf("# %s: option %s declared twice\n", t->name, o->name);
        }
      if (o->type == OPT_REAL || o->type == OPT_INT) {
        double x;
        int in = option_parse_real(o->def, &x) == 0 ? option_in_range(o->range, x) : 0;
        if (in != 1) {
          defaults_ok = 0;
          printf("# %s: -%s default %s outside %s\n", t->name, o->name, o->def, o->range ? o->range : "");
        }
      }
      if (!o->help || !o->help[0]) defaults_ok = 0;
    }
    char msg[512] = "";
    struct solver *s = NULL;
    CHECK(solver_create(t->name, &s, msg, sizeof msg) == 0 && s, "%s: created with its table's defaults%s%s",
          t->name, msg[0] ? ": " : "", msg);
    solver_destroy(&s);
  }
  CHECK(rows >= 10, "the registered solvers declare %d options", rows);
  CHECK(unique, "no solver declares an option twice");
  CHECK(defaults_ok, "every default parses inside its range and every row has help");
  for (int i = 0; i < solver_n_harness_options; i++) {
    const struct option_decl *o = &solver_harness_options[i];
    double x;
    CHECK(o->type == OPT_BOOL || (option_parse_real(o->def, &x) == 0 && option_in_range(o->range, x) == 1),
          "harness: -cp_%s default %s inside %s", o->name, o->def, o->range ? o->range : "any");
  }
}

/* A value outside the row's range, or NULL when the range admits every candidate. */
static const char *out_of_range(const struct option_decl *o)
{
  static const char *const reals[] = {"-1e300", "1e300", "-1", "0", "2", "1", NULL};
  static const char *const ints[] = {"-2000000000", "2000000000", "-1", "0", NULL};
  const char *const *c = o->type == OPT_REAL ? reals : ints;
  for (int k = 0; c[k]; k++) {
    double x;
    option_parse_real(c[k], &x);
    if (option_in_range(o->range, x) == 0) return c[k];
  }
  return NULL;
}

/* Sets -full to value, expects solver_set_from_options to fail with a message naming -full. */
static int refused(const char *solver, const char *full, const char *value)
{
  struct solver *s = NULL;
  char msg[512] = "";
  int ok = 0;
  PetscOptionsSetValue(NULL, full, value);
  if (solver_create(solver, &s, msg, sizeof msg) == 0)
    ok = solver_set_from_options(s, NULL, msg, sizeof msg) != 0 && strstr(msg, full) != NULL;
  if (!ok) printf("# %s %s: message '%s'\n", full, value, msg);
  PetscOptionsClearValue(NULL, full);
  solver_destroy(&s);
  return ok;
}

static void test_bad_values(void)
{
  int tried = 0, all = 1;
  char buf[96], full[200];
  for (int r = 0; solver_registry[r]; r++) {
    const struct solver_type *t = solver_registry[r];
    const char *prefix = prefix_of(t, buf, sizeof buf);
    for (int i = 0; i < t->n_options; i++) {
      const struct option_decl *o = &t->options[i];
      snprintf(full, sizeof full, "-%s%s", prefix, o->name);
      const char *bad[2] = {NULL, NULL};
      if (o->type == OPT_REAL || o->type == OPT_INT) {
        bad[0] = out_of_range(o);
        bad[1] = o->type == OPT_INT ? "3x" : "1e";
      } else if (o->type == OPT_CHOICE)
        bad[0] = "no_such_choice";
      else if (o->type == OPT_BOOL)
        bad[0] = "maybe";
      for (int k = 0; k < 2; k++)
        if (bad[k]) {
          tried++;
          all &= refused(t->name, full, bad[k]);
        }
    }
  }
  CHECK(tried >= 20 && all,
        "every solver option refuses %d bad values (range, malformed, choice, bool) by name", tried);
  const char *cases[][2] = {{"-cp_tol", "abc"},   {"-cp_tol", "0"},           {"-cp_tol", "-1"},
                            {"-cp_max_it", "3x"}, {"-cp_max_it", "-1"},       {"-cp_time_limit", "-2"},
                            {"-cp_tol", ""},      {"-cp_warm_start", "maybe"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    CHECK(refused("pgs", cases[k][0], cases[k][1]), "harness: %s '%s' refused, message names it", cases[k][0],
          cases[k][1]);
  struct solver *s = NULL;
  char msg[512] = "";
  PetscOptionsSetValue(NULL, "-lemke_pivot_tol", "1e-9");
  PetscOptionsSetValue(NULL, "-lemke_cover", "qscaled");
  PetscOptionsSetValue(NULL, "-cp_max_it", "77");
  int ok = solver_create("lemke", &s, msg, sizeof msg) == 0 &&
           solver_set_from_options(s, NULL, msg, sizeof msg) == 0;
  CHECK(ok && s->set.max_it == 77, "good values are read (-cp_max_it 77)");
  PetscOptionsClearValue(NULL, "-lemke_pivot_tol");
  PetscOptionsClearValue(NULL, "-lemke_cover");
  PetscOptionsClearValue(NULL, "-cp_max_it");
  solver_destroy(&s);
  CHECK(solver_create("no_such_solver", &s, msg, sizeof msg) != 0 && !s && strstr(msg, "no_such_solver") &&
            strstr(msg, "lemke"),
        "an unknown solver's message names it and the valid ones");
}

static void test_names(void)
{
  int n = 0, has_tol = 0, has_pivot = 0, has_omega = 0;
  const char **names = solver_option_names(&n);
  for (int i = 0; names && i < n; i++) {
    has_tol |= strcmp(names[i], "-cp_tol") == 0;
    has_pivot |= strcmp(names[i], "-lemke_pivot_tol") == 0;
    has_omega |= strcmp(names[i], "-psor_omega") == 0;
  }
  CHECK(names && has_tol && has_pivot && has_omega,
        "solver_option_names lists -cp_tol, -lemke_pivot_tol, "
        "-psor_omega (%d names)",
        n);
  const char *near = names ? option_nearest("-lemke_pivto_tol", names, n) : NULL;
  CHECK(near && strcmp(near, "-lemke_pivot_tol") == 0, "nearest to -lemke_pivto_tol is %s",
        near ? near : "none");
  free(names);
  const struct solver_type *owner = solver_option_owner("-pgs_omega");
  CHECK(owner && strcmp(owner->name, "pgs") == 0, "-pgs_omega belongs to pgs");
  CHECK(solver_option_owner("-lemke_pivto_tol") == NULL, "a misspelt name has no owner");
}

static void test_petsc_options_read(void)
{
  struct solver *s = NULL;
  char msg[512] = "";
  PetscOptionsSetValue(NULL, "-tao_ssils_tao_max_it", "7");
  int ok = solver_create("tao_ssils", &s, msg, sizeof msg) == 0 &&
           solver_set_from_options(s, NULL, msg, sizeof msg) == 0;
  char **names = NULL, **values = NULL;
  int n = option_unused(NULL, &names, &values), left = 0;
  for (int i = 0; i < n; i++)
    left |= strcmp(names[i], "-tao_ssils_tao_max_it") == 0;
  option_unused_free(n, names, values);
  CHECK(ok && n >= 0 && !left,
        "solver_set_from_options has PETSc read -tao_ssils_tao_max_it (not left over)");
  solver_destroy(&s);
  PetscOptionsSetValue(NULL, "-tao_ssils_tao_max_it", "abc");
  ok = solver_create("tao_ssils", &s, msg, sizeof msg) == 0 &&
       solver_set_from_options(s, NULL, msg, sizeof msg) != 0;
  CHECK(ok && strstr(msg, "tao_ssils"), "a malformed PETSc option of tao_ssils is refused: %s", msg);
  solver_destroy(&s);
  PetscOptionsClearValue(NULL, "-tao_ssils_tao_max_it");
  PetscOptionsSetValue(NULL, "-snes_vinewtonrsls_snes_max_it", "9");
  ok = solver_create("snes_vinewtonrsls", &s, msg, sizeof msg) == 0 &&
       solver_set_from_options(s, NULL, msg, sizeof msg) == 0;
  n = option_unused(NULL, &names, &values);
  left = 0;
  for (int i = 0; i < n; i++)
    left |= strcmp(names[i], "-snes_vinewtonrsls_snes_max_it") == 0;
  option_unused_free(n, names, values);
  CHECK(ok && !left, "and SNES reads -snes_vinewtonrsls_snes_max_it");
  PetscOptionsClearValue(NULL, "-snes_vinewtonrsls_snes_max_it");
  solver_destroy(&s);
}

/* M = 2 I + 1 (symmetric positive definite), q = -(1..n): one solver, problems of sizes 40, 5, 60, 40. */
static struct cp_problem *spd(int n)
{
  struct cp_problem *p = cp_lcp_create(n);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      p->M[(size_t)i * n + j] = (i == j ? 2.0 : 0.0) + 1.0 / (1.0 + abs(i - j));
    p->q[i] = -1.0 - 0.37 * i;
  }
  return p;
}

static void test_workspace_reuse(void)
{
  const int sizes[] = {40, 5, 60, 40};
  const char *names[] = {"lemke", "pgs", "fb_newton"};
  for (int k = 0; k < 3; k++) {
    struct solver *s = NULL;
    int all = solver_create(names[k], &s, NULL, 0) == 0;
    for (int w = 0; all && w < 2; w++) {
      s->set.warm_start = w;
      for (int i = 0; all && i < 4; i++) {
        struct cp_problem *p = spd(sizes[i]);
        double *z = calloc((size_t)p->n, sizeof *z);
        struct solve_result r;
        all = z && solver_setup(s, p) == 0 && solver_solve(s, p, z, &r) == 0 && r.status == SOLVE_CONVERGED;
        if (all && w) /* warm: the answer of the same problem again, from its own support */
          all = solver_solve(s, p, z, &r) == 0 && r.status == SOLVE_CONVERGED;
        free(z);
        cp_destroy(&p);
      }
    }
    CHECK(all && s->check_cap >= 60, "%s: one solver, sizes 40, 5, 60, 40, cold and warm: converged",
          names[k]);
    solver_destroy(&s);
  }
}

int main(int argc, char **argv)
{
  if (PetscInitialize(&argc, &argv, NULL, NULL) != 0) return 1;
  test_tables();
  test_bad_values();
  test_names();
  test_petsc_options_read();
  test_workspace_reuse();
  int rc = check_finish();
  PetscFinalize();
  return rc;
}
