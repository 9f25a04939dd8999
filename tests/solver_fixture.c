/* solver_fixture.c — the solver and formulation tests' shared set-up (solver_fixture.h). */
#include "solver_fixture.h"

#include "check.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>

struct solver *test_solver(const char *name, double tol) { return test_solver_with(name, tol, NULL); }

struct solver *test_solver_with(const char *name, double tol, const char *const *opts)
{
  struct solver *s = NULL;
  char msg[512] = "", text[32];
  if (solver_create(name, &s, NULL, 0) != 0) return NULL;
  snprintf(text, sizeof text, "%.17g", tol);
  int bad = tol > 0.0 && solver_set_option(s, "-cp_tol", text, msg, sizeof msg) != 0;
  for (int i = 0; !bad && opts && opts[i]; i += 2)
    bad = solver_set_option(s, opts[i], opts[i + 1], msg, sizeof msg) != 0;
  if (bad) {
    CHECK(0, "%s takes the test's options: %s", name, msg);
    solver_destroy(&s);
  }
  return s;
}

struct formulation *test_formulation(const char *name, const char *const *opts)
{
  struct formulation *f = NULL;
  char msg[512] = "";
  int bad = formulation_create(name, &f, msg, sizeof msg) != 0;
  for (int i = 0; !bad && opts && opts[i]; i += 2)
    bad = formulation_set_option(f, opts[i], opts[i + 1], msg, sizeof msg) != 0;
  if (bad) {
    CHECK(0, "formulation %s with the test's options: %s", name, msg);
    formulation_destroy(&f);
  }
  return f;
}

int test_sim_open(struct simulation *sim, struct world *w, const char *formulation, const char *solver,
                  const char *const *opts)
{
  *sim = (struct simulation){.w = w};
  sim->f = test_formulation(formulation, opts);
  return sim->f && solver_create(solver, &sim->s, NULL, 0) == 0 && stepper_create(&sim->st) == 0;
}

PetscOptions test_options_object(const char *const *opts)
{
  PetscOptions o = NULL;
  int bad = PetscOptionsCreate(&o) != 0;
  for (int i = 0; !bad && opts && opts[i]; i += 2)
    bad = PetscOptionsSetValue(o, opts[i], opts[i + 1] && opts[i + 1][0] ? opts[i + 1] : NULL) != 0;
  if (bad || !o) {
    fprintf(stderr, "test_options_object: PETSc cannot make the options object\n");
    abort();
  }
  return o;
}

double max_abs_diff(const double *a, const double *b, int n)
{
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    double e = fabs(a[i] - b[i]);
    if (!(e <= m)) m = e;
  }
  return m;
}
