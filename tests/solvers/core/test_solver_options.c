/* test_solver_options.c — the declared options of the harness and of every registered solver
 * (solver.h, option_table.h): unique names, defaults that parse inside their ranges, every bad value
 * (out of range, malformed, not a choice) refused with a message naming the option, by the reader given an
 * options object and by the typed setter solver_set_option (which keeps the settings given before); a
 * value in one options object never reaches a solver reading another; the name list and owner lookup
 * cpsolve uses for "did you mean"; PETSc's own -<name>_tao_... options read (and so marked used) by
 * solver_set_from_options from the object it is given and not from PETSc's global database (which main
 * fills, as a command line would, with a value no solver here may see); workspaces reused across problems
 * of different sizes. The options are always in objects of the test's own: nothing here sets a value in
 * the global database. */
#include "check.h"
#include "cp.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testproblems.h"

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

/* -full value in an options object of the test's own: solver_set_from_options must fail with a message
 * naming -full; so must the typed setter, which keeps the settings given before (-cp_time_limit 5, or
 * -cp_max_it 77 when -full is the time limit). */
static int refused(const char *solver, const char *full, const char *value)
{
  struct solver *s = NULL;
  char msg[512] = "", set_msg[512] = "";
  int ok = 0, limit = strcmp(full, "-cp_time_limit") == 0;
  PetscOptions o = test_options_object(OPTS(full, value));
  if (solver_create(solver, &s, msg, sizeof msg) == 0)
    ok = solver_set_from_options(s, o, msg, sizeof msg) != 0 && strstr(msg, full) != NULL;
  solver_destroy(&s);
  PetscOptionsDestroy(&o);
  s = test_solver_with(solver, 0.0, limit ? OPTS("-cp_max_it", "77") : OPTS("-cp_time_limit", "5"));
  int kept = s && solver_set_option(s, full, value, set_msg, sizeof set_msg) != 0 && strstr(set_msg, full) &&
             (limit ? s->set.max_it == 77 : s->set.time_limit == 5.0);
  if (!ok || !kept) printf("# %s %s: message '%s', setter's '%s'\n", full, value, msg, set_msg);
  solver_destroy(&s);
  return ok && kept;
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
  PetscOptions o =
      test_options_object(OPTS("-lemke_pivot_tol", "1e-9", "-lemke_cover", "qscaled", "-cp_max_it", "77"));
  int ok =
      solver_create("lemke", &s, msg, sizeof msg) == 0 && solver_set_from_options(s, o, msg, sizeof msg) == 0;
  CHECK(ok && s->set.max_it == 77, "good values are read (-cp_max_it 77)");
  solver_destroy(&s);
  PetscOptionsDestroy(&o);
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

/* Is name among the options set in opts that nothing has read (option_unused)? -1 when they cannot be had. */
static int left_over(PetscOptions opts, const char *name)
{
  char **names = NULL, **values = NULL;
  int n = option_unused(opts, &names, &values), left = 0;
  for (int i = 0; i < n; i++)
    left |= strcmp(names[i], name) == 0;
  option_unused_free(n, names, values);
  return n < 0 ? -1 : left;
}

static void test_petsc_options_read(void)
{
  struct solver *s = NULL;
  char msg[512] = "";
  PetscOptions o = test_options_object(OPTS("-tao_ssils_tao_max_it", "7"));
  int ok = solver_create("tao_ssils", &s, msg, sizeof msg) == 0 &&
           solver_set_from_options(s, o, msg, sizeof msg) == 0;
  CHECK(ok && left_over(o, "-tao_ssils_tao_max_it") == 0,
        "solver_set_from_options has PETSc read -tao_ssils_tao_max_it (not left over)");
  solver_destroy(&s);
  PetscOptionsDestroy(&o);
  o = test_options_object(OPTS("-tao_ssils_tao_max_it", "abc"));
  ok = solver_create("tao_ssils", &s, msg, sizeof msg) == 0 &&
       solver_set_from_options(s, o, msg, sizeof msg) != 0;
  CHECK(ok && strstr(msg, "tao_ssils"), "a malformed PETSc option of tao_ssils is refused: %s", msg);
  solver_destroy(&s);
  PetscOptionsDestroy(&o);
  o = test_options_object(OPTS("-snes_vinewtonrsls_snes_max_it", "9"));
  ok = solver_create("snes_vinewtonrsls", &s, msg, sizeof msg) == 0 &&
       solver_set_from_options(s, o, msg, sizeof msg) == 0;
  CHECK(ok && left_over(o, "-snes_vinewtonrsls_snes_max_it") == 0,
        "and SNES reads -snes_vinewtonrsls_snes_max_it");
  solver_destroy(&s);
  PetscOptionsDestroy(&o);
}

/* The solver's settings as solver_view prints them contain text (lemke: "pivot_tol 1e-09", "cover e"). */
static int view_has(const struct solver *s, const char *text)
{
  char *buf = NULL;
  size_t size = 0;
  FILE *out = s ? open_memstream(&buf, &size) : NULL;
  if (out) {
    solver_view(s, out);
    fclose(out);
  }
  int has = buf && strstr(buf, text) != NULL;
  free(buf);
  return has;
}

/* Each reader sees only the object it is given: three solvers read three objects alive at once. */
static void test_objects_apart(void)
{
  PetscOptions a = test_options_object(OPTS("-cp_max_it", "77", "-lemke_pivot_tol", "1e-9")),
               b = test_options_object(OPTS("-cp_max_it", "5")), none = test_options_object(NULL);
  struct solver *sa = test_solver("lemke", 0.0), *sb = test_solver("lemke", 0.0),
                *sn = test_solver("lemke", 0.0);
  char msg[512] = "";
  int ok = sa && sb && sn && solver_set_from_options(sa, a, msg, sizeof msg) == 0 &&
           solver_set_from_options(sb, b, msg, sizeof msg) == 0 &&
           solver_set_from_options(sn, none, msg, sizeof msg) == 0;
  CHECK(ok && sa->set.max_it == 77 && view_has(sa, "pivot_tol 1e-09"),
        "lemke reading object A: -cp_max_it 77, -lemke_pivot_tol 1e-9 (%d) %s", sa ? sa->set.max_it : -1,
        msg);
  CHECK(ok && sb->set.max_it == 5 && view_has(sb, "pivot_tol 1e-06"),
        "lemke reading object B: its -cp_max_it 5, A's -lemke_pivot_tol not seen (default 1e-6) (%d)",
        sb ? sb->set.max_it : -1);
  CHECK(ok && sn->set.max_it == 0 && view_has(sn, "pivot_tol 1e-06"),
        "lemke reading an empty object: the defaults, neither A's nor B's values (%d)",
        sn ? sn->set.max_it : -1);
  CHECK(left_over(b, "-cp_max_it") == 0 && left_over(a, "-lemke_pivot_tol") == 0,
        "each object's values were read from that object");
  solver_destroy(&sa);
  solver_destroy(&sb);
  solver_destroy(&sn);
  PetscOptionsDestroy(&a);
  PetscOptionsDestroy(&b);
  PetscOptionsDestroy(&none);
}

/* solver_set_option: values in effect are the defaults plus every value given so far, read as a run reads a
 * task's object; an option the solver does not read and a bad value are refused, named in the message, and
 * the settings given before stay. */
static void test_typed_setter(void)
{
  char msg[512] = "";
  struct solver *s = test_solver_with(
      "lemke", 0.0, OPTS("-cp_max_it", "77", "-lemke_pivot_tol", "1e-9", "lemke_cover", "qscaled"));
  const char *kept = "-cp_max_it 77, -lemke_pivot_tol 1e-9 and -lemke_cover qscaled kept";
#define KEPT(t)                                                                                              \
  ((t) && (t)->set.max_it == 77 && view_has(t, "pivot_tol 1e-09") && view_has(t, "cover qscaled"))
  CHECK(KEPT(s), "lemke: -cp_max_it 77, -lemke_pivot_tol 1e-9 and lemke_cover (no '-') qscaled set");
  int rc = s ? solver_set_option(s, "-pgs_omega", "1.2", msg, sizeof msg) : 0;
  CHECK(rc != 0 && strstr(msg, "-pgs_omega") && strstr(msg, "lemke"), "lemke refuses -pgs_omega (%s)", msg);
  CHECK(KEPT(s), "... %s", kept);
  rc = s ? solver_set_option(s, "-lemke_block", "5000", msg, sizeof msg) : 0;
  CHECK(rc != 0 && strstr(msg, "-lemke_block") && strstr(msg, "5000"), "lemke refuses -lemke_block 5000 (%s)",
        msg);
  CHECK(KEPT(s), "... %s", kept);
  rc = s ? solver_set_option(s, "-cp_tol", "abc", msg, sizeof msg) : 0;
  CHECK(rc != 0 && strstr(msg, "-cp_tol") && strstr(msg, "abc"), "lemke refuses -cp_tol abc (%s)", msg);
  CHECK(KEPT(s) && s->set.tol == 1e-8, "... %s, -cp_tol still 1e-8", kept);
  rc = s ? solver_set_option(s, "-lemke_block", "7", msg, sizeof msg) : 1;
  CHECK(rc == 0 && KEPT(s) && view_has(s, "block 7"), "-lemke_block 7 then joins them %s", rc ? msg : "");
  /* a refused value of an option already given leaves that option's earlier value, not its default */
  rc = s ? solver_set_option(s, "-cp_max_it", "3x", msg, sizeof msg) : 0;
  CHECK(rc != 0 && strstr(msg, "3x") && KEPT(s), "-cp_max_it 3x refused, -cp_max_it still 77 (%s)", msg);
  rc = s ? solver_set_option(s, "-lemke_block", "99999", msg, sizeof msg) : 0;
  CHECK(rc != 0 && view_has(s, "block 7"), "-lemke_block 99999 refused, -lemke_block still 7 (%s)", msg);
#undef KEPT
  solver_destroy(&s);
  /* a TAO solver's PETSc options go the same way: its own prefix only, and PETSc checks the value */
  s = test_solver("tao_ssils", 0.0);
  rc = s ? solver_set_option(s, "-tao_ssfls_tao_max_it", "2", msg, sizeof msg) : 0;
  CHECK(rc != 0 && strstr(msg, "-tao_ssfls_tao_max_it") && strstr(msg, "tao_ssils"),
        "tao_ssils refuses tao_ssfls's -tao_ssfls_tao_max_it (%s)", msg);
  rc = s ? solver_set_option(s, "-tao_ssils_tao_max_it", "abc", msg, sizeof msg) : 0;
  CHECK(rc != 0 && strstr(msg, "tao_ssils"), "tao_ssils refuses -tao_ssils_tao_max_it abc (%s)", msg);
  solver_destroy(&s);
  /* path_crash's phases are solvers of their own: their options go through path_crash's setter */
  s = test_solver_with("path_crash", 0.0, OPTS("-lemke_pivot_tol", "1e-9", "-prox_newton_watchdog", "5"));
  CHECK(s && view_has(s, "pivot_tol 1e-09") && view_has(s, "watchdog 5"),
        "path_crash takes -lemke_pivot_tol 1e-9 and -prox_newton_watchdog 5 for its phases");
  rc = s ? solver_set_option(s, "-lemke_cover", "nonsense", msg, sizeof msg) : 0;
  CHECK(rc != 0 && strstr(msg, "-lemke_cover") && view_has(s, "pivot_tol 1e-09"),
        "path_crash refuses -lemke_cover nonsense, keeps -lemke_pivot_tol 1e-9 (%s)", msg);
  solver_destroy(&s);
}

/* main puts -tao_ssils_tao_max_it 1 in PETSc's global database, as a command line would: a solver given an
 * options object of its own, by solver_set_from_options or the typed setter, must solve by that object's
 * values alone. SPD n = 30 takes tao_ssils several iterations at tol 1e-12. */
static void test_not_global(void)
{
  struct cp_problem *p = cp_test_spd(30, 20261122);
  double z[30];
  struct solve_result r = {0};
  char msg[512] = "";
  CHECK(left_over(NULL, "-tao_ssils_tao_max_it") == 1,
        "the global database holds -tao_ssils_tao_max_it (from main's command line), unread");
  PetscOptions none = test_options_object(NULL),
               three = test_options_object(OPTS("-tao_ssils_tao_max_it", "3"));
  struct solver *s = test_solver("tao_ssils", 1e-12);
  int ok = s && solver_set_from_options(s, none, msg, sizeof msg) == 0;
  if (ok) s->set.tol = 1e-12;
  ok = ok && solver_solve(s, p, z, &r) == 0;
  CHECK(ok && r.status == SOLVE_CONVERGED && r.iterations > 1,
        "tao_ssils reading an empty object: %s after %d iterations (the global database's limit 1 not "
        "applied) %s",
        solve_status_name(r.status), r.iterations, msg);
  ok = s && solver_set_from_options(s, three, msg, sizeof msg) == 0;
  if (ok) s->set.tol = 1e-12;
  ok = ok && solver_solve(s, p, z, &r) == 0;
  CHECK(ok && r.status == SOLVE_MAX_ITERATIONS && r.iterations == 3,
        "tao_ssils reading -tao_ssils_tao_max_it 3 from its object: %s after %d iterations (3, not 1)",
        solve_status_name(r.status), r.iterations);
  solver_destroy(&s);
  s = test_solver_with("tao_ssils", 1e-12, OPTS("-tao_ssils_tao_max_it", "2"));
  ok = s && solver_solve(s, p, z, &r) == 0;
  CHECK(ok && r.status == SOLVE_MAX_ITERATIONS && r.iterations == 2,
        "tao_ssils with -tao_ssils_tao_max_it 2 through solver_set_option: %s after %d iterations (2, not 1)",
        solve_status_name(r.status), r.iterations);
  solver_destroy(&s);
  CHECK(left_over(NULL, "-tao_ssils_tao_max_it") == 1 && left_over(three, "-tao_ssils_tao_max_it") == 0,
        "the global -tao_ssils_tao_max_it was never read; the object's was");
  PetscOptionsDestroy(&none);
  PetscOptionsDestroy(&three);
  cp_destroy(&p);
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
  /* The command line PETSc sees: this program's, then -tao_ssils_tao_max_it 1 for the global database, a
   * value that no solver here may read (test_not_global). */
  static char opt[] = "-tao_ssils_tao_max_it", one[] = "1";
  char *args[64];
  int n = 0;
  for (int i = 0; i < argc && n < 61; i++)
    args[n++] = argv[i];
  args[n++] = opt;
  args[n++] = one;
  args[n] = NULL;
  char **a = args;
  if (PetscInitialize(&n, &a, NULL, NULL) != 0) return 1;
  test_tables();
  test_bad_values();
  test_names();
  test_petsc_options_read();
  test_objects_apart();
  test_typed_setter();
  test_not_global();
  test_workspace_reuse();
  int rc = check_finish();
  PetscFinalize();
  return rc;
}
