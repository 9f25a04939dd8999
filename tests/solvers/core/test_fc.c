/* test_fc.c — the frictional-contact kind (solvers/core/cp_fc.c, cp.c, cp_io.c): the projection onto the
 * Coulomb cone in each of its three cases (and the projection's defining properties at random points), the
 * checker's residual zero at known answers and equal to hand-computed values elsewhere, NaN and a bad mu
 * never converged, cp_duplicate keeping mu, the relaxed variant's residual (cone complementarity, no De
 * Saxcé term) zero at its own answer and not at Coulomb's, and the reader: the same two-contact problem in
 * Siconos' dense, sparse-block and printed-sparse forms reads to the same data, the file name picks the kind,
 * and malformed files are refused with a message. */
#include "check.h"
#include "cp.h"
#include "cp_fc.h"
#include "cp_io.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_projection(void)
{
  double a[3] = {1.0, 0.1, -0.2}, b[3] = {-2.0, 0.1, 0.1}, c[3] = {1.0, 3.0, 4.0};
  CHECK(cp_fc_project(3, 0.5, a) == 0 && a[0] == 1.0 && a[1] == 0.1, "inside the cone: unchanged");
  CHECK(cp_fc_project(3, 0.5, b) == 1 && b[0] == 0.0 && b[1] == 0.0 && b[2] == 0.0, "polar cone: the apex");
  /* |x_T| = 5, mu = 0.5: x_N' = (0.5 x 5 + 1) / 1.25 = 2.8, x_T' = 0.5 x 2.8 x (3, 4) / 5 */
  CHECK(cp_fc_project(3, 0.5, c) == 2, "outside: onto the boundary");
  CHECK_CLOSE(c[0], 2.8, 1e-15, "boundary: normal part");
  CHECK_CLOSE(c[1], 0.84, 1e-15, "boundary: tangent part 1");
  CHECK_CLOSE(c[2], 1.12, 1e-15, "boundary: tangent part 2");
  /* a projection: x - P(x) is orthogonal to P(x), and P(x) + (x - P(x)) t stays x's nearest for t = 1 */
  double worst = 0.0;
  for (int k = 0; k < 200; k++) {
    double x[3] = {2 * sin(1.7 * k), 2 * cos(2.3 * k + 1), sin(0.7 * k + 2)}, p[3],
           mu = 0.1 + 0.9 * fabs(sin(k));
    memcpy(p, x, sizeof x);
    cp_fc_project(3, mu, p);
    double dot = 0.0, in = hypot(p[1], p[2]) - mu * p[0];
    for (int i = 0; i < 3; i++)
      dot += (x[i] - p[i]) * p[i];
    worst = fmax(worst, fmax(fabs(dot), fmax(in, 0.0)));
  }
  CHECK(worst < 1e-14, "200 random points: P(x) in the cone and (x - P(x)) . P(x) = 0 (worst %.1e)", worst);
}

/* Two contacts in 3D: W = 2 I, q, mu = 0.5: contact 0 slides, contact 1 takes off. */
static struct cp_problem *two_contacts(void)
{
  struct cp_problem *p = cp_fc_create(3, 2);
  const double q[6] = {-1.0, 3.0, 0.0, 0.5, 1.0, -1.0};
  for (int i = 0; i < 6; i++) {
    p->M[i * 6 + i] = 2.0;
    p->q[i] = q[i];
  }
  p->mu[0] = p->mu[1] = 0.5;
  return p;
}

static void test_checker(void)
{
  struct cp_problem *p = two_contacts();
  struct cp_check c;
  /* sliding: u_N = 0 -> r_N = 0.5, r_T = -mu r_N (1, 0) = (-0.25, 0), u_T = (3 - 0.5, 0) */
  double r[6] = {0.5, -0.25, 0.0, 0.0, 0.0, 0.0};
  cp_check(p, r, NULL, &c);
  CHECK(c.natural < 1e-15 && !c.nonfinite && cp_check_passes(&c, 1e-12), "the answer: residual %.1e",
        c.natural);
  /* r = 0: contact 0's û = (-1 + 0.5 x 3, 3, 0) = (0.5, 3, 0); P_K(-û) = ((0.5 x 3 - 0.5) / 1.25, ...) */
  double zero[6] = {0};
  cp_check(p, zero, NULL, &c);
  double pn = (0.5 * 3.0 - 0.5) / 1.25, pt = 0.5 * pn;
  CHECK_CLOSE(c.natural, hypot(pn, pt), 1e-15, "r = 0: residual = |P_K(-û)| of the sliding contact");
  CHECK(c.equality == 0.0 && c.scale == 3.0, "no equality part; scale max(1, ||q||_inf) = %g", c.scale);
  struct cp_problem *d = cp_duplicate(p);
  CHECK(d && d->kind == CP_FC && d->fc_dim == 3 && d->mu && d->mu[1] == 0.5 && d->mu != p->mu,
        "cp_duplicate copies the kind, d and mu");
  d->mu[1] = NAN;
  cp_check(d, r, NULL, &c);
  CHECK(c.nonfinite && !cp_check_passes(&c, 1e300), "a NaN friction coefficient is never converged");
  d->mu[1] = -0.1;
  cp_check(d, r, NULL, &c);
  CHECK(c.nonfinite, "a negative friction coefficient is never converged");
  r[4] = NAN;
  cp_check(p, r, NULL, &c);
  CHECK(c.nonfinite && isinf(c.natural), "a NaN reaction is never converged");
  CHECK(strcmp(cp_kind_name(CP_FC), "fc") == 0, "the kind's name is fc");
  cp_destroy(&d);
  cp_destroy(&p);
}

/* The same problem (d = 3, nc = 2, W = 2 I except W_01 = W_10 = 0.5) in three storages. */
static const char dense[] =
    "3\n2\n0\n6\n6\n6 6\n"
    "2 0.5 0 0 0 0\n0.5 2 0 0 0 0\n0 0 2 0 0 0\n0 0 0 2 0 0\n0 0 0 0 2 0\n0 0 0 0 0 2\n"
    "-1 3 0 0.5 1 -1\n0.5 0.3\n";
static const char blocks[] = "3\n2\n1\n6\n6\n2\n2 2\n3 6\n3 6\n3 2\n0 1 2\n0 1\n"
                             "0\n2 0.5 0 0.5 2 0 0 0 2\n1\n2 0 0 0 2 0 0 0 2\n"
                             "-1 3 0 0.5 1 -1\n0.5 0.3\n";
static const char sparse[] =
    "3\n2\n2\n6\n6\n2\nCSparse Version 3.1.9, May 4, 2016.  Copyright (c) Timothy A. Davis\n"
    "6-by-6, nzmax: 8 nnz: 8, 1-norm: 2.5\n"
    "    col 0 : locations 0 to 1\n      0 : 2\n      1 : 0.5\n"
    "    col 1 : locations 2 to 3\n      0 : 0.5\n      1 : 2\n"
    "    col 2 : locations 4 to 4\n      2 : 2\n    col 3 : locations 5 to 5\n      3 : 2\n"
    "    col 4 : locations 6 to 6\n      4 : 2\n    col 5 : locations 7 to 7\n      5 : 2\n"
    "-1 3 0 0.5 1 -1\n0.5 0.3\n";

/* One 2D contact, W = I, q = (-1, 2), mu = 0.5. The relaxation's answer: r on the cone's edge, u = W r + q
 * on the dual cone's (u_N = mu |u_T|), r_N = (mu |q_T| - q_N) / (1 + mu^2) = 1.6, r = (1.6, -0.8),
 * u = (0.6, 1.2); Coulomb's: u_N = 0, r = (1, -0.5), u = (0, 1.5). */
static void test_relaxed(void)
{
  struct cp_problem *p = cp_fc_create(2, 1);
  double ccp[2] = {1.6, -0.8}, coulomb[2] = {1.0, -0.5};
  struct cp_check c;
  p->M[0] = p->M[3] = 1.0;
  p->q[0] = -1.0, p->q[1] = 2.0;
  p->mu[0] = 0.5;
  cp_check(p, coulomb, NULL, &c);
  double e_coulomb = c.natural;
  cp_check(p, ccp, NULL, &c);
  double e_ccp_as_coulomb = c.natural;
  p->fc_relaxed = 1;
  struct cp_problem *dup = cp_duplicate(p);
  cp_check(dup, ccp, NULL, &c);
  double e_ccp = c.natural;
  cp_check(dup, coulomb, NULL, &c);
  CHECK(
      e_coulomb < 1e-15 && e_ccp < 1e-15 && e_ccp_as_coulomb > 0.1 && c.natural > 0.1 && dup->fc_relaxed,
      "relaxed: residual 0 at its answer (%g) and > 0 at Coulomb's (%g); Coulomb: 0 at its own (%g), > 0 at "
      "the relaxation's (%g); cp_duplicate keeps the flag",
      e_ccp, c.natural, e_coulomb, e_ccp_as_coulomb);
  cp_destroy(&dup);
  cp_destroy(&p);
}

static void test_reader(void)
{
  const char *texts[3] = {dense, blocks, sparse}, *names[3] = {"dense", "sparse-block", "sparse"};
  struct cp_problem *first = NULL;
  char err[512];
  for (int k = 0; k < 3; k++) {
    struct cp_problem *p = NULL;
    int rc = cp_read_text(texts[k], "fc3d/x.dat", CP_FILE_AUTO, &p, err, sizeof err);
    CHECK(rc == 0 && p->kind == CP_FC && p->fc_dim == 3 && p->n == 6 && p->mu[1] == 0.3 && p->M[1] == 0.5 &&
              p->M[6] == 0.5 && p->q[5] == -1.0,
          "%s W: read as kind fc, d = 3, 2 contacts (%s)", names[k], rc ? err : "ok");
    if (rc) continue;
    if (!first) {
      first = p;
      continue;
    }
    CHECK(cp_data_max_diff(first, p->M, p->q) == 0.0, "%s W: the same data as the dense form", names[k]);
    cp_destroy(&p);
  }
  cp_destroy(&first);
  CHECK(cp_file_format_guess("data/fc3d/a.dat") == CP_FILE_SICONOS_FC &&
            cp_file_format_guess("x/fc2d_granular.dat") == CP_FILE_SICONOS_FC &&
            cp_file_format_guess("x/lcp/a.dat") == CP_FILE_SICONOS_LCP,
        "auto: fc3d/ folders and fc2d names are frictional contact, others as before");
}

/* Overwrites the text at at with with's characters (not its terminator): a damaged copy. */
static void splice(char *at, const char *with)
{
  for (size_t i = 0; with[i]; i++)
    at[i] = with[i];
}

static void refused(const char *text, const char *what, const char *expect)
{
  struct cp_problem *p = NULL;
  char err[512] = "";
  int rc = cp_read_text(text, "bad.dat", CP_FILE_SICONOS_FC, &p, err, sizeof err);
  CHECK(rc != 0 && !p && strstr(err, expect), "refused: %s (%s)", what, err);
}

static void test_refused(void)
{
  refused("4\n2\n0\n8\n8\n", "dimension 4", "contact dimension");
  refused("3\n2\n0\n6\n6\n6 6\n"
          "2 0 0 0 0 0\n0 2 0 0 0 0\n0 0 2 0 0 0\n0 0 0 2 0 0\n0 0 0 0 2 0\n0 0 0 0 0 2\n"
          "-1 3 0 0.5 1 -1\n0.5 -0.3\n",
          "a negative friction coefficient", "negative");
  refused("3\n2\n0\n6\n6\n6 6\n1 2 3\n", "a truncated matrix", "file ends early");
  refused(
      "3\n2\n0\n9\n9\n9 9\n0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
      "W not d nc square", "expected 6 x 6");
  char bad[sizeof sparse];
  memcpy(bad, sparse, sizeof sparse);
  *strstr(bad, "nnz: 8") = 'x';
  refused(bad, "sparse header without nnz", "sparse header");
  memcpy(bad, sparse, sizeof sparse);
  splice(strstr(bad, "locations 2 to 3"), "locations 3 to 3");
  refused(bad, "sparse column not starting where the last ended", "first location");
  memcpy(bad, sparse, sizeof sparse);
  bad[strstr(bad, "\n2\nCSparse") - bad + 1] = '1';
  refused(bad, "a sparse origin other than compressed columns", "only 2");
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_projection();
  test_checker();
  test_relaxed();
  test_reader();
  test_refused();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
