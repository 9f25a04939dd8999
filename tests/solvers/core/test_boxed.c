/* test_boxed.c — the boxed LCP with friction index (cp.h CP_BOXED): the checker's residual at hand-computed
 * points (the friction boxes +-mu z_k at the z checked), NaN, a bad mu and a bad friction index never
 * converged, cp_duplicate keeping findex; the plain file (written, read back the same, infinite bounds, and
 * malformed files refused with a message); the solvers: dantzig (ODE's pass, then its outer loop when the
 * normal moves after the friction rows were placed: the fixed point z = (4/7, -2/7, -0.05) computed by hand;
 * a box that moved with its row inside it: the single pass kept),
 * pgs and psor (ODE's quickstep projection), auto (dantzig), Bullet's three when built, and every other
 * registered solver not_applicable. */
#include "check.h"
#include "cp.h"
#include "cp_io.h"
#include "solver.h"
#include "solver_fixture.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One contact: the normal row 0 and friction rows 1, 2 of mu = 0.5; M = 2 I except M_01 = M_10 = c. */
static struct cp_problem *one_contact(double c)
{
  struct cp_problem *p = cp_boxed_create(3);
  static const double q[3] = {-1.0, 3.0, 0.1};
  for (int i = 0; i < 3; i++) {
    p->M[i * 3 + i] = 2.0;
    p->q[i] = q[i];
  }
  p->M[1] = p->M[3] = c;
  for (int i = 1; i < 3; i++) {
    p->findex[i] = 0;
    p->lo[i] = -0.5;
    p->hi[i] = 0.5;
  }
  return p;
}

static void test_checker(void)
{
  struct cp_problem *p = one_contact(0.0);
  struct cp_check c;
  /* z_0 = 0.5 (w_0 = 0); row 1 at -mu z_0 = -0.25 with w_1 = 2.5 >= 0; row 2 inside, w_2 = 0 */
  double z[3] = {0.5, -0.25, -0.05};
  cp_check(p, z, NULL, &c);
  CHECK(c.natural < 1e-16 && cp_check_passes(&c, 1e-14), "the answer: residual %.1e", c.natural);
  /* z_1 = -0.3 beyond its box -0.25 with F_1 = 2.4 > 0: |z_1 - lo_1| = 0.05 */
  z[1] = -0.3;
  cp_check(p, z, NULL, &c);
  CHECK_CLOSE(c.natural, 0.05, 1e-15, "z_1 outside the friction box: residual |z_1 + mu z_0|");
  /* z_0 = 0.4: F_0 = -0.2 (|F_0|); the box shrinks to 0.2, z_1 = -0.25 beyond it by 0.05 */
  double y[3] = {0.4, -0.25, -0.05};
  cp_check(p, y, NULL, &c);
  CHECK_CLOSE(c.natural, 0.2, 1e-15, "z_0 short of w_0 = 0: residual |F_0| (the box follows z_0)");
  /* z_0 = 0 closes the box: any z_1 != 0 is the residual */
  double x[3] = {0.0, 0.01, 0.0};
  cp_check(p, x, NULL, &c);
  CHECK_CLOSE(c.natural, 1.0, 1e-15, "z = (0, 0.01, 0): |F_0| = 1 dominates");
  p->q[0] = 1.0; /* the contact opens: z_0 = 0, so z_1 = z_2 = 0 whatever their w */
  double open[3] = {0.0, 0.0, 0.0}, slip[3] = {0.0, 0.01, 0.0};
  cp_check(p, open, NULL, &c);
  CHECK(c.natural == 0.0, "an open contact: z = 0 is the answer although w_1 = 3 != 0");
  cp_check(p, slip, NULL, &c);
  CHECK_CLOSE(c.natural, 0.01, 1e-16, "an open contact: friction z_1 = 0.01 outside the box [0, 0]");
  p->q[0] = -1.0;
  struct cp_problem *d = cp_duplicate(p);
  CHECK(d && d->kind == CP_BOXED && d->findex && d->findex != p->findex && d->findex[2] == 0 &&
            d->findex[0] == -1,
        "cp_duplicate copies the kind and findex");
  double good[3] = {0.5, -0.25, -0.05};
  d->hi[2] = NAN;
  cp_check(d, good, NULL, &c);
  CHECK(c.nonfinite && !cp_check_passes(&c, 1e300), "a NaN friction coefficient is never converged");
  d->hi[2] = 0.5;
  d->findex[2] = 3;
  cp_check(d, good, NULL, &c);
  CHECK(c.nonfinite, "a friction index out of range is never converged");
  d->findex[2] = 1; /* row 1 is a friction row itself */
  char why[200];
  CHECK(cp_boxed_invalid(d, why, sizeof why) && strstr(why, "is a friction row itself"),
        "a friction row of a friction row is refused: %s", why);
  good[2] = NAN;
  cp_check(p, good, NULL, &c);
  CHECK(c.nonfinite && isinf(c.natural), "a NaN impulse is never converged");
  CHECK(strcmp(cp_kind_name(CP_BOXED), "boxed") == 0, "the kind's name is boxed");
  cp_destroy(&d);
  cp_destroy(&p);
}

static void refused(const char *text, const char *what, const char *expect)
{
  struct cp_problem *p = NULL;
  char err[512] = "";
  int rc = cp_read_text(text, "t.txt", CP_FILE_PLAIN, &p, err, sizeof err);
  CHECK(rc != 0 && !p && strstr(err, expect), "refused: %s (%s)", what, err);
}

static void test_plain_file(void)
{
  struct cp_problem *p = one_contact(0.5), *r = NULL;
  p->lo[0] = -INFINITY; /* a free row, to see infinities written and read */
  char path[] = "/tmp/test_boxed_XXXXXX", err[512];
  int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  int rc = cp_write_plain(path, p, err, sizeof err) || cp_read_file(path, CP_FILE_AUTO, &r, err, sizeof err);
  CHECK(rc == 0 && r && r->kind == CP_BOXED && r->n == 3, "written and read back as kind boxed (%s)",
        rc ? err : "ok");
  if (r) {
    int same = cp_data_max_diff(p, r->M, r->q) == 0.0;
    for (int i = 0; i < 3; i++)
      same = same && r->lo[i] == p->lo[i] && r->hi[i] == p->hi[i] && r->findex[i] == p->findex[i];
    CHECK(same && isinf(r->lo[0]) && r->lo[0] < 0.0 && isinf(r->hi[0]),
          "the same M, q, lo, hi (-inf and inf kept), findex");
  }
  unlink(path);
  cp_destroy(&r);
  cp_destroy(&p);
  static const char head[] = "3 boxed\n2 0 0\n0 2 0\n0 0 2\n-1 3 0.1\n";
  char text[256];
  snprintf(text, sizeof text, "%s0 -0.5 -0.5\ninf 0.5 0.5\n-1 0 0\n", head);
  rc = cp_read_text(text, "t.txt", CP_FILE_PLAIN, &r, err, sizeof err);
  CHECK(rc == 0 && r->findex[1] == 0 && r->hi[0] == INFINITY, "the text form reads (%s)", rc ? err : "ok");
  cp_destroy(&r);
  snprintf(text, sizeof text, "%s0 -0.5 -0.5\ninf 0.5 0.5\n-1 0 3\n", head);
  refused(text, "findex beyond n - 1", "outside [-1, 2]");
  snprintf(text, sizeof text, "%s0 -0.5 -0.5\ninf 0.5 0.5\n-1 1 0\n", head);
  refused(text, "a row its own normal", "is not -1 or another row");
  snprintf(text, sizeof text, "%s0 -0.5 -0.4\ninf 0.5 0.5\n-1 0 0\n", head);
  refused(text, "friction bounds not [-mu, mu]", "not [-mu, mu]");
  snprintf(text, sizeof text, "%s0 -0.5 -0.5\ninf 0.5 0.5\n", head);
  refused(text, "findex missing", "findex: file ends early");
  snprintf(text, sizeof text, "%s0 -0.5 -0.5\ninf 0.5 0.5\n-1 0 0\n1\n", head);
  refused(text, "content after findex", "unexpected content after findex");
  refused("2 boxed\n1 inf\n0 1\n1 1\n0 0\ninf inf\n-1 -1\n", "inf in M", "is not a finite number");
  refused("2 box\n1 0\n0 1\n1 1\n", "an unknown header word", "nor 'boxed'");
}

static struct solve_result run(const char *name, const struct cp_problem *p, double *z,
                               const char *const *opts)
{
  struct solve_result r = {.status = SOLVE_NUMERICAL_FAILURE};
  struct solver *s = test_solver_with(name, 1e-12, opts);
  if (s) solver_solve(s, p, z, &r);
  solver_destroy(&s);
  return r;
}

/* Two contacts (normals 0, 2; friction rows 1 of normal 0 and 3 of normal 2, mu = 0.5; M = 2 I but M_03 =
 * M_30 = 0.5): both friction rows end inside their boxes. ODE's pass places row 3 last, which moves z_0 and
 * so row 1's box (0.25 -> 0.2733) after row 1 was placed, but row 1 stays inside it: the pass's z is the
 * answer and dantzig keeps it (one solve, a pivot a row) instead of solving again with the moved box. By
 * hand: z_1 = -0.05, z_2 = 0.5, 1.875 z_3 = -0.35, z_0 = 0.5 - z_3 / 4. */
static void test_dantzig_one_pass(void)
{
  struct cp_problem *p = cp_boxed_create(4);
  static const double q[4] = {-1.0, 0.1, -1.0, 0.1};
  for (int i = 0; i < 4; i++) {
    p->M[i * 4 + i] = 2.0;
    p->q[i] = q[i];
  }
  p->M[3] = p->M[12] = 0.5;
  p->findex[1] = 0;
  p->findex[3] = 2;
  p->lo[1] = p->lo[3] = -0.5;
  p->hi[1] = p->hi[3] = 0.5;
  const double z3 = -0.35 / 1.875, want[4] = {0.5 - z3 / 4.0, -0.05, 0.5, z3};
  double z[4] = {0.0, 0.0, 0.0, 0.0};
  struct solve_result r = run("dantzig", p, z, NULL);
  CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, want, 4) < 1e-14 && r.iterations <= 4,
        "dantzig: a friction box moved with its row inside it: one pass, %d pivots (at most 4), z = (%.15g, "
        "%.15g, %.15g, %.15g)",
        r.iterations, z[0], z[1], z[2], z[3]);
  cp_destroy(&p);
}

/* M_01 = 0.5 couples the normal to friction row 1: placing z_1 at -mu z_0 moves z_0, so ODE's single pass
 * leaves a box that no longer matches z_0. The fixed point: z_1 = -z_0 / 2 and 2 z_0 + z_1 / 2 = 1, so
 * z_0 = 4/7, z_1 = -2/7; z_2 = -0.05. */
static void test_solvers(void)
{
  struct cp_problem *p = one_contact(0.5);
  const double want[3] = {4.0 / 7.0, -2.0 / 7.0, -0.05};
  static const char *const ours[] = {"dantzig", "auto", "pgs", "psor"};
  for (size_t k = 0; k < sizeof ours / sizeof ours[0]; k++) {
    double z[3] = {0.0, 0.0, 0.0}; /* the solvers' start: zero (and defined when the solver was not made) */
    struct solve_result r = run(ours[k], p, z, NULL);
    CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, want, 3) < 1e-11,
          "%s: %s in %d iterations, z = (%.15g, %.15g, %.15g)", ours[k], solve_status_name(r.status),
          r.iterations, z[0], z[1], z[2]);
  }
  double z[3] = {0.0, 0.0, 0.0};
  struct solve_result r = run("dantzig", p, z, OPTS("-dantzig_findex_sweeps", "1"));
  CHECK(r.status == SOLVE_MAX_ITERATIONS && !r.no_answer && fabs(z[0] - 0.5625) < 1e-15 && z[1] == -0.25,
        "dantzig with one solve (ODE's pass alone): %s, z_0 = %.17g moved after z_1 = -mu x 0.5 (%s)",
        solve_status_name(r.status), z[0], r.message);
  /* Bullet's, when built: their claims are judged. Its Dantzig is ODE's single pass (no outer loop): here
   * its answer is the pass's, residual |mu z_0 - 0.25| = 0.03125; with M_01 = 0 the pass is exact. Its PGS
   * follows the normal as ours does. */
  if (solver_find("bullet_dantzig")) {
    r = run("bullet_dantzig", p, z, NULL);
    CHECK(r.status == SOLVE_NUMERICAL_FAILURE && fabs(z[0] - 0.5625) < 1e-15 && fabs(z[1] + 0.25) < 1e-15 &&
              fabs(r.residual - 0.03125) < 1e-15,
          "bullet_dantzig: ODE's single pass, its claim refused (%s, residual %.17g)",
          solve_status_name(r.status), r.residual);
    struct cp_problem *u = one_contact(0.0);
    const double loose[3] = {0.5, -0.25, -0.05};
    r = run("bullet_dantzig", u, z, NULL);
    CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, loose, 3) < 1e-14,
          "bullet_dantzig, normal not coupled to friction: %s", solve_status_name(r.status));
    cp_destroy(&u);
    r = run("bullet_pgs", p, z, NULL);
    CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, want, 3) < 1e-11, "bullet_pgs: %s in %d sweeps",
          solve_status_name(r.status), r.iterations);
    r = run("bullet_lemke", p, z, NULL);
    CHECK(r.status != SOLVE_NOT_APPLICABLE, "bullet_lemke takes it (with the fixed box [-mu, mu]): %s",
          solve_status_name(r.status));
  } else {
    check_skip("Bullet's solvers on the boxed problem: Bullet not built");
  }
  int others = 0, refused_all = 1;
  for (int i = 0; solver_registry[i]; i++) {
    const char *name = solver_registry[i]->name;
    if (strcmp(name, "dantzig") == 0 || strcmp(name, "auto") == 0 || strcmp(name, "pgs") == 0 ||
        strcmp(name, "psor") == 0 || strncmp(name, "bullet_", 7) == 0)
      continue;
    struct solver *s = test_solver(name, 1e-10);
    struct solve_result o = {.status = SOLVE_CONVERGED};
    if (s) solver_solve(s, p, z, &o);
    solver_destroy(&s);
    others++;
    if (o.status != SOLVE_NOT_APPLICABLE) {
      refused_all = 0;
      CHECK(0, "%s answered %s on a boxed problem", name, solve_status_name(o.status));
    }
  }
  CHECK(refused_all && others > 10, "the %d other solvers: not_applicable", others);
  p->M[1] = 0.6; /* not symmetric, a P-matrix (diagonally dominant): dantzig's LDU path */
  r = run("dantzig", p, z, NULL);
  CHECK(r.status == SOLVE_CONVERGED && r.residual <= 1e-10 * r.scale,
        "dantzig on a nonsymmetric boxed problem (a P-matrix): %s, residual %.2g",
        solve_status_name(r.status), r.residual);
  p->M[0] = 0.0; /* and a zero diagonal entry: not a P-matrix, not factored */
  r = run("dantzig", p, z, NULL);
  CHECK(r.status == SOLVE_NOT_APPLICABLE, "dantzig on a nonsymmetric boxed problem with M_00 = 0: %s (%s)",
        solve_status_name(r.status), r.message);
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_checker();
  test_plain_file();
  test_solvers();
  test_dantzig_one_pass();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
