/* test_implicit_cone_row.c — the friction cone row (22) of Chakraborty et al. in its two forms
 * (implicit_cone_row, jacobian_add.h; -geometric_implicit_cone_row, -quasi_rigid_cone_row): the paper's
 * mu^2 p_n^2 - sum p_k^2 / e_k^2 and degree1's mu p_n - sqrt(sum p_k^2 / e_k^2) have the same sign wherever
 * p_n >= 0 (so the same complementarity solutions), their Jacobians are the rows' derivatives (central
 * differences), degree1's slope in p at p = 0 is 0, and degree1 measures a friction impulse on an unloaded
 * contact in N s where the paper's row measures its square: 6e-5 N s reads 6e-5, not 3.6e-9. On the grasp
 * study's trial of test_step_halving (the driver's options) both rows end the trial alike. */
#include "check.h"
#include "grasp_fixture.h"
#include "jacobian_add.h"

#include <math.h>
#include <petscsys.h>
#include <string.h>

enum { N = 6 }; /* columns: p_n, p_n2 (quasi-rigid's second normal impulse), p_t, p_o, p_r, spare */

/* The row at x (x[0] + x[1] the normal impulse, x[2 .. 2 + m) the friction impulses) into F[0], J row 0. */
static double row_at(const double *x, int m, const double *e2, double mu, int degree1, double *J)
{
  double F[N] = {0};
  const int pncol[2] = {0, 1}, pcol[3] = {2, 3, 4};
  if (J) memset(J, 0, N * N * sizeof *J);
  implicit_cone_row(0, mu, x[0] + x[1], pncol, 2, x + 2, pcol, e2, m, degree1, F, J, N);
  return F[0];
}

static void test_values_and_signs(void)
{
  const double e2[3] = {1.0, 0.25, 4.0}, mu = 0.6;
  int bad_value = 0, bad_sign = 0, cases = 0;
  for (int m = 1; m <= 3; m += 2)
    for (int a = 0; a <= 4; a++)
      for (int b = -4; b <= 4; b++) {
        const double pn = 1e-4 * a, x[N] = {0.7 * pn, 0.3 * pn, 2e-5 * b, -1e-5 * b, 3e-6 * (b % 3), 0};
        double q = 0.0;
        for (int k = 0; k < m; k++)
          q += x[2 + k] * x[2 + k] / e2[k];
        const double paper = row_at(x, m, e2, mu, 0, NULL), deg1 = row_at(x, m, e2, mu, 1, NULL);
        bad_value +=
            fabs(paper - (mu * mu * pn * pn - q)) > 1e-22 || fabs(deg1 - (mu * pn - sqrt(q))) > 1e-18;
        bad_sign += (paper > 1e-24) != (deg1 > 1e-20) || (paper < -1e-24) != (deg1 < -1e-20);
        cases++;
      }
  CHECK(bad_value == 0, "paper: mu^2 p_n^2 - sum p^2/e^2, degree1: mu p_n - sqrt(sum p^2/e^2) (%d of %d off)",
        bad_value, cases);
  CHECK(bad_sign == 0,
        "for p_n >= 0 both rows have the same sign, so the same complementarity solutions (%d of "
        "%d differ)",
        bad_sign, cases);
  const double unloaded[N] = {0, 0, 6e-5, 0, 0, 0}, one[1] = {1.0};
  CHECK(fabs(row_at(unloaded, 1, one, mu, 1, NULL) + 6e-5) < 1e-20 &&
            fabs(row_at(unloaded, 1, one, mu, 0, NULL) + 3.6e-9) < 1e-20,
        "6e-5 N s of friction at p_n = 0: degree1 reads -6e-5, the paper's row -3.6e-9 (inside a 1e-8 "
        "tolerance)");
}

static void test_jacobians(void)
{
  const double e2[3] = {1.0, 0.25, 4.0}, mu = 0.45;
  const double x0[N] = {3e-4, 1e-4, 1.5e-4, -8e-5, 2e-5, 0};
  double J[N * N], worst = 0.0;
  for (int degree1 = 0; degree1 < 2; degree1++) {
    row_at(x0, 3, e2, mu, degree1, J);
    for (int j = 0; j < 5; j++) {
      double xp[N], xm[N], step = 1e-9;
      memcpy(xp, x0, sizeof xp);
      memcpy(xm, x0, sizeof xm);
      xp[j] += step, xm[j] -= step;
      double fd = (row_at(xp, 3, e2, mu, degree1, NULL) - row_at(xm, 3, e2, mu, degree1, NULL)) / (2 * step);
      double scale = degree1 ? 1.0 : 1e-3; /* the paper's row's slopes are O(impulse) */
      worst = fmax(worst, fabs(fd - J[j]) / scale);
    }
  }
  CHECK(worst < 1e-6, "both rows' Jacobians match central differences (worst %.2g relative)", worst);
  const double at0[N] = {2e-4, 0, 0, 0, 0, 0};
  row_at(at0, 3, e2, mu, 1, J);
  CHECK(J[0] == mu && J[1] == mu && J[2] == 0.0 && J[3] == 0.0 && J[4] == 0.0,
        "degree1 at p = 0: slope mu in each normal impulse, 0 in p (a generalised gradient's element)");
}

/* The trial of test_step_halving at (-9.5, -17.5) mm, medium friction, with the driver's options and either
 * row: both solve every step and classify the trial alike. */
static void test_grasp_trial(void)
{
  const struct grasp_world_settings sc = grasp_fixture_drawn();
  const char *deg1[32];
  int k = 0;
  for (; grasp_fixture_implicit[k]; k++)
    deg1[k] = grasp_fixture_implicit[k];
  deg1[k++] = "-geometric_implicit_cone_row";
  deg1[k++] = "degree1";
  deg1[k] = NULL;
  struct grasp_result paper = {0}, linear = {0};
  int rc = grasp_fixture_run(&sc, "geometric_implicit", "fb_newton", grasp_fixture_implicit, &paper) ||
           grasp_fixture_run(&sc, "geometric_implicit", "fb_newton", deg1, &linear);
  CHECK(rc == 0 && paper.outcome != GRASP_SOLVER_FAILURE && linear.outcome == paper.outcome &&
            fabs(linear.q[3] - paper.q[3]) < 0.05e-3,
        "the grasp trial: the same outcome with either row (%s, %s), final half-openings within 0.05 mm "
        "(%.4f, %.4f "
        "mm)",
        grasp_outcome_name(paper.outcome), grasp_outcome_name(linear.outcome), 1e3 * paper.q[3],
        1e3 * linear.q[3]);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_values_and_signs();
  test_jacobians();
  test_grasp_trial();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
