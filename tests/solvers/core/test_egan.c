/* test_egan.c — Egan, Berard, Trinkle, "Modeling nonconvex constraints using linear complementarity",
 * Fig. 3 examples: max formulation (Sec. IV, eqs. 13-22, gamma = 100) and summation formulation (Sec. V,
 * eqs. 25-28, eps/h = 0.01), cases (a) a1 = -1.5, a2 = 0.5 and (b) a1 = -1.5, a2 = -0.5. Checks that
 * cp_test_egan_* reproduce the printed B_a, b_a, b_b, B_1, b_1, b_2 (the paper's b_1 is case (b), b_2 case
 * (a)); that the printed solutions pass the checker; that every registered solver's "converged" answer
 * passes it; that enum finds z_a and z_b1..z_b3 of the max case; that milp solves all four. What each
 * solver did is printed as "# solver: ..." lines, with no assertion on success (Lemke may stop on a ray).
 * Fig. 9: the summation form's continuum of ends (Sec. V's segments) and the max form's three dots. */
#include "check.h"
#include "solver.h"
#include "testproblems.h"

#include <math.h>
#include <petscsys.h>
#include <string.h>

static const double B_max[100] = {
    1, 0, 0, 0, 0, 0, 0, 0, 1, 0, /* */
    0, 1, 0, 0, 0, 0, 0, 0, 0, 1, /* */
    0, 0, 0, 1, 1, 0, 0, 0, 0, 0, /* */
    1, 0, 1, 0, 0, 0, 0, 0, 0, 0, /* */
    0, 1, 1, 0, 0, 0, 0, 0, 0, 0, /* */
    0, 0, 0, 0, 0, 1, 0, 0, 1, 0, /* */
    0, 0, 0, 0, 0, 0, 1, 0, 0, 1, /* */
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, /* */
    0, 0, 1, 0, 0, 1, 0, 0, 0, 0, /* */
    0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
};
static const double b_a[10] = {-2.5, -0.5, -1, -100, -100, -1.5, 0.5, -99, -99, -99};
static const double b_b[10] = {-2.5, -1.5, -1, -100, -100, -1.5, -0.5, -99, -99, -99};
/* (c1, c2, d, g1, g2, h1, h2, p, p1n, p2n) */
static const double z_max_a[10] = {2.5, 0.5, 99.5, 0, 1, 1.5, 0, 0, 0, 0};
static const double z_max_b[3][10] = {
    {1, 1, 99, 0, 1, 0, 0, 0, 1.5, 0.5},
    {1, 1.5, 99, 1, 0, 0, 0.5, 0, 1.5, 0},
    {2.5, 1, 99, 0, 1, 1.5, 0, 0, 0, 0.5},
};

static const double B_sum[16] = {1, 0, -1, 0, 0, 1, 0, -1, 1, 1, 0, 0, 1, 1, 0, 0};
static const double b_sum_1[4] = {1.49, 0.49, -0.01, -0.01};  /* the paper's b_1: case (b) */
static const double b_sum_2[4] = {1.49, -0.51, -0.01, -0.01}; /* the paper's b_2: case (a) */
/* (c1, c2, p1n, p2n) */
static const double z_sum_a[4] = {0, 0.51, 0, 0};
static const double z_sum_b[3][4] = {{0, 0.01, 0.5, 0.5}, {0.005, 0.005, 1.495, 0.495}, {0.01, 0, 1.5, 0.13}};

/* cp_data_max_diff against the printed matrices can be compared with 0 exactly: the generator's
 * 1.5 - 0.01 happens to round to the same double as the literal 1.49. */

static int passes(const struct cp_problem *p, const double *z, double tol, double *res)
{
  struct cp_check c;
  *res = INFINITY;
  if (cp_check(p, z, NULL, &c) != 0) return 0;
  *res = c.natural;
  return cp_check_passes(&c, tol);
}

static int find_in(const struct solve_result *r, int n, const double *want)
{
  for (int k = 0; k < r->n_solutions; k++) {
    double d = 0.0;
    for (int i = 0; i < n; i++)
      d = fmax(d, fabs(r->solutions[(size_t)k * n + i] - want[i]));
    if (d <= 1e-9) return 1;
  }
  return 0;
}

static void test_printed(struct cp_problem *const cases[4])
{
  CHECK(cp_data_max_diff(cases[0], B_max, b_a) == 0.0,
        "egan max: generator reproduces B_a and b_a exactly (%.1e)", cp_data_max_diff(cases[0], B_max, b_a));
  CHECK(cp_data_max_diff(cases[1], B_max, b_b) == 0.0,
        "egan max: generator reproduces B_b = B_a and b_b exactly (%.1e)",
        cp_data_max_diff(cases[1], B_max, b_b));
  CHECK(cp_data_max_diff(cases[2], B_sum, b_sum_2) == 0.0,
        "egan sum: case (a) is B_2 = B_1 and b_2 exactly (%.1e)", cp_data_max_diff(cases[2], B_sum, b_sum_2));
  CHECK(cp_data_max_diff(cases[3], B_sum, b_sum_1) == 0.0, "egan sum: case (b) is B_1 and b_1 exactly (%.1e)",
        cp_data_max_diff(cases[3], B_sum, b_sum_1));
  double res = 0.0;
  CHECK(passes(cases[0], z_max_a, 1e-14, &res), "egan max (a): printed z_a passes the checker (%.1e)", res);
  for (int k = 0; k < 3; k++)
    CHECK(passes(cases[1], z_max_b[k], 1e-14, &res), "egan max (b): printed z_b%d passes the checker (%.1e)",
          k + 1, res);
  CHECK(passes(cases[2], z_sum_a, 1e-14, &res), "egan sum (a): printed z_a passes the checker (%.1e)", res);
  for (int k = 0; k < 3; k++)
    CHECK(passes(cases[3], z_sum_b[k], 1e-14, &res), "egan sum (b): printed z_b%d passes the checker (%.1e)",
          k + 1, res);
}

/* Every registered solver on every case; converged answers must pass the checker independently. */
static void test_all_solvers(struct cp_problem *const cases[4], const char *const names[4])
{
  for (int i = 0; solver_registry[i]; i++) {
    const char *name = solver_registry[i]->name;
    struct solver *s = NULL;
    if (solver_create(name, &s, NULL, 0) != 0) {
      CHECK(0, "egan: solver %s can be created", name);
      solver_destroy(&s);
      continue;
    }
    for (int c = 0; c < 4; c++) {
      double z[10] = {0};
      struct solve_result r;
      solver_solve(s, cases[c], z, &r);
      printf("# %s: %s on %s, %d iterations, residual %.2e, %.2e s%s%s\n", name, solve_status_name(r.status),
             names[c], r.iterations, r.residual, r.seconds, r.message[0] ? ": " : "", r.message);
      if (r.status == SOLVE_CONVERGED && c == 1) {
        /* p (unknown 7) appears in no row but its own (eq. 20): with contact, any p >= 0 solves it; where
         * c1 = c2 (z_b1) any split g1 + g2 = 1 does. Compare the rest. */
        const char *which = "a solution not printed in the paper";
        for (int k = 0; k < 3; k++) {
          double dmax = 0.0;
          for (int j = 0; j < 10; j++)
            if (j != 3 && j != 4 && j != 7) dmax = fmax(dmax, fabs(z[j] - z_max_b[k][j]));
          if (dmax <= 1e-5) which = k == 0 ? "z_b1" : (k == 1 ? "z_b2" : "z_b3");
        }
        printf("#   %s returned %s up to p and g (p = %.4g, p1n = %.4g, p2n = %.4g, g = %.3g, %.3g)\n", name,
               which, z[7], z[8], z[9], z[3], z[4]);
      }
      if (r.status == SOLVE_CONVERGED) {
        double res = 0.0;
        CHECK(passes(cases[c], z, s->set.tol, &res),
              "egan %s: %s's converged answer passes the checker (%.1e)", names[c], name, res);
      }
      for (int k = 0; k < r.n_solutions; k++)
        CHECK(passes(cases[c], r.solutions + (size_t)k * cases[c]->n, s->set.tol, &(double){0}),
              "egan %s: %s's solution %d of %d passes the checker", names[c], name, k + 1, r.n_solutions);
      if (strcmp(name, "milp") == 0)
        CHECK(r.status == SOLVE_CONVERGED, "egan %s: milp solves it (%s)", names[c],
              solve_status_name(r.status));
      if (strcmp(name, "enum") == 0 && c == 0)
        CHECK(r.status == SOLVE_CONVERGED && r.n_solutions == 1 && find_in(&r, 10, z_max_a),
              "egan max (a): enum finds the unique z_a (%d solutions)", r.n_solutions);
      if (strcmp(name, "enum") == 0 && c == 1)
        for (int k = 0; k < 3; k++)
          CHECK(find_in(&r, 10, z_max_b[k]), "egan max (b): enum finds z_b%d among its %d solutions", k + 1,
                r.n_solutions);
      if (strcmp(name, "enum") == 0 && c == 2)
        CHECK(find_in(&r, 4, z_sum_a), "egan sum (a): enum finds z_a (%d solutions)", r.n_solutions);
    }
    solver_destroy(&s);
  }
}

/* The summation form's z for the end q of Fig. 3(b) (h = 2, start (1, 1), nu^l = (-2, -1), m = 1): the
 * impulses p = nu^{l+1} - nu^l with nu^{l+1} = (q - (1, 1)) / 2, a_i = q_i / 2 and c_i = max(0, a_i + 0.01)
 * (eqs. 25-26). */
static void sum_z_of_end(const double q[2], double z[4])
{
  z[2] = (q[0] - 1.0) / 2.0 + 2.0;
  z[3] = (q[1] - 1.0) / 2.0 + 1.0;
  z[0] = fmax(0.0, q[0] / 2.0 + 0.01);
  z[1] = fmax(0.0, q[1] / 2.0 + 0.01);
}

/* Fig. 9(b), Sec. V: with the summation form the point may end anywhere on y = 0 between (-3, 0) and
 * (-0.02, 0), on the cap x + y = -0.02, or on x = 0 between (0, -0.02) and (0, -1): every such end is a
 * solution of the printed LCP (B_1, b_1), and ends just beyond those segments are not. With the max form
 * (Fig. 9(a)) enum's solutions end at the three dots (0, 0), (0, -1), (-3, 0) only. */
static void test_fig9(struct cp_problem *const cases[4])
{
  double z[4], res;
  int on = 0, off = 0;
  for (int k = 0; k <= 6; k++) {
    double t = k / 6.0;
    const double ends[3][2] = {
        {-3.0 + t * 2.98, 0.0}, {-0.02 + 0.02 * t, -0.02 * t}, {0.0, -0.02 - 0.98 * t}};
    for (int j = 0; j < 3; j++) {
      sum_z_of_end(ends[j], z);
      on += passes(cases[3], z, 1e-12, &res);
    }
  }
  CHECK(on == 21, "Fig. 9(b): all 21 ends sampled on the three segments solve the summation LCP (%d)", on);
  const double beyond[5][2] = {{-3.05, 0.0}, {-0.01, 0.0}, {-0.015, -0.015}, {0.0, -0.01}, {0.0, -1.05}};
  for (int j = 0; j < 5; j++) {
    sum_z_of_end(beyond[j], z);
    off += passes(cases[3], z, 1e-9, &res);
  }
  CHECK(off == 0,
        "Fig. 9(b): no end beyond the segments (x < -3, y > -eps off the cap, inside the cap, "
        "y < -1) solves it (%d do)",
        off);
  struct solver *s = NULL;
  double zz[10];
  struct solve_result r;
  int distinct = 0, dots = 0;
  if (solver_create("enum", &s, NULL, 0) == 0 && solver_solve(s, cases[1], zz, &r) == 0) {
    double seen[16][2];
    for (int k = 0; k < r.n_solutions && distinct < 16; k++) {
      const double *zk = r.solutions + (size_t)k * 10; /* p1n, p2n last: q = (1, 1) + 2 (nu^l + p) */
      double q[2] = {1.0 + 2.0 * (-2.0 + zk[8]), 1.0 + 2.0 * (-1.0 + zk[9])};
      int dup = 0;
      for (int j = 0; j < distinct; j++)
        dup = dup || (fabs(seen[j][0] - q[0]) < 1e-6 && fabs(seen[j][1] - q[1]) < 1e-6);
      if (dup) continue;
      seen[distinct][0] = q[0], seen[distinct][1] = q[1];
      distinct++;
      dots += (fabs(q[0]) < 1e-6 && (fabs(q[1]) < 1e-6 || fabs(q[1] + 1.0) < 1e-6)) ||
              (fabs(q[0] + 3.0) < 1e-6 && fabs(q[1]) < 1e-6);
    }
  }
  CHECK(distinct == 3 && dots == 3,
        "Fig. 9(a): enum's solutions of the max form end at 3 distinct points, "
        "the three dots (%d distinct, %d dots)",
        distinct, dots);
  solver_destroy(&s);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  struct cp_problem *cases[4] = {cp_test_egan_max(-1.5, 0.5, 100.0), cp_test_egan_max(-1.5, -0.5, 100.0),
                                 cp_test_egan_sum(-1.5, 0.5, 0.01), cp_test_egan_sum(-1.5, -0.5, 0.01)};
  const char *const names[4] = {"max (a)", "max (b)", "sum (a)", "sum (b)"};
  test_printed(cases);
  test_all_solvers(cases, names);
  test_fig9(cases);
  for (int c = 0; c < 4; c++)
    cp_destroy(&cases[c]);
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
