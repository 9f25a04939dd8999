/* test_siconos_fc.c — our frictional-contact reader and checker against Siconos numerics 4.4's own, on every
 * problem of ../shared/data/siconos/fc3d: Siconos reads each file (frictionContact_new_from_filename) and
 * so do we (cp_read_file); d, nc, mu, q and every entry of W must be equal, and our residual (cp_check's
 * natural) must equal Siconos' fc3d_compute_error / fc2d_compute_error made absolute (siconos_error) at
 * three points: r = 0, a fixed non-round r, and fc_nsgs's iterate after 20 sweeps (near a solution, where
 * rounding matters most). Skips when the backend was not built or the data folder is absent. */
#include "check.h"
#include "cp.h"
#include "cp_io.h"
#include "solver.h"
#include "solver_fixture.h"
#ifdef CB_HAVE_SICONOS
#include "siconos_call.h"
#endif

#include <dirent.h>
#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CB_HAVE_SICONOS
#include <numerics/FrictionContactProblem.h>
#include <numerics/Friction_cst.h>
#include <numerics/NumericsMatrix.h>
#include <numerics/SolverOptions.h>
#include <numerics/fc2d_compute_error.h>
#include <numerics/fc3d_compute_error.h>

/* Siconos' absolute error at r (its w is scratch). 4.4 divides its error by the largest of the norm it is
 * given and ||u||_2 (measured: at r = 0, u = q), so it is called with norm 2^60, above any ||u|| here, and
 * the quotient multiplied back: both exact in binary. */
static double siconos_error(FrictionContactProblem *fp, const double *r, int n)
{
  double *z = malloc((size_t)n * sizeof *z), *w = malloc((size_t)n * sizeof *w), err = NAN;
  const double norm = 0x1p60;
  memcpy(z, r, (size_t)n * sizeof *z);
  if (fp->dimension == 3) {
    SolverOptions *o = solver_options_create(SICONOS_FRICTION_3D_NSGS);
    fc3d_compute_error(fp, z, w, 1.0, o, norm, &err);
    siconos_options_free(o);
  } else {
    fc2d_compute_error(fp, z, w, 1.0, norm, &err);
  }
  free(z);
  free(w);
  return err * norm;
}

/* Entry by entry: W (through NM_get_value, whatever Siconos' storage), q, mu. */
static double data_difference(const struct cp_problem *p, FrictionContactProblem *fp)
{
  int n = p->n, nc = n / p->fc_dim;
  double diff = 0.0;
  for (int i = 0; i < n; i++) {
    diff = fmax(diff, fabs(p->q[i] - fp->q[i]));
    for (int j = 0; j < n; j++)
      diff = fmax(diff, fabs(p->M[(size_t)i * n + j] - NM_get_value(fp->M, i, j)));
  }
  for (int c = 0; c < nc; c++)
    diff = fmax(diff, fabs(p->mu[c] - fp->mu[c]));
  return diff;
}

static void compare_residuals(const char *name, const struct cp_problem *p, FrictionContactProblem *fp)
{
  int n = p->n;
  double *r = calloc((size_t)n, sizeof *r);
  struct solver *s = test_solver_with("fc_nsgs", 1e-300, OPTS("-cp_max_it", "20"));
  for (int point = 0; point < 3 && s; point++) {
    if (point == 1)
      for (int i = 0; i < n; i++) /* non-round, inside and outside the cones */
        r[i] = 0.37 * sin(1.3 * i + 0.2) + (i % p->fc_dim == 0 ? 0.05 : 0.0);
    if (point == 2) {
      struct solve_result res;
      solver_solve(s, p, r, &res);
    }
    struct cp_check c;
    cp_check(p, r, NULL, &c);
    double theirs = siconos_error(fp, r, n);
    CHECK(fabs(c.natural - theirs) <= 1e-12 * fmax(1.0, c.scale) + 1e-9 * theirs,
          "%s point %d: our residual %.15g = Siconos' fc%dd_compute_error %.15g", name, point, c.natural,
          p->fc_dim, theirs);
  }
  solver_destroy(&s);
  free(r);
}

static void test_file(const char *dir, const char *file)
{
  char path[1024], err[256];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  struct cp_problem *p = NULL;
  if (cp_read_file(path, CP_FILE_AUTO, &p, err, sizeof err) != 0) {
    CHECK(0, "%s: our reader (%s)", file, err);
    return;
  }
  FrictionContactProblem *fp = frictionContact_new_from_filename(path);
  if (!fp) {
    CHECK(0, "%s: Siconos reads it", file);
    cp_destroy(&p);
    return;
  }
  CHECK(p->kind == CP_FC && p->fc_dim == fp->dimension && p->n == fp->dimension * fp->numberOfContacts,
        "%s: kind fc, d = %d, nc = %d as Siconos reads them", file, p->fc_dim, p->n / p->fc_dim);
  if (p->fc_dim == fp->dimension && p->n == fp->dimension * fp->numberOfContacts) {
    double diff = data_difference(p, fp);
    CHECK(diff == 0.0, "%s: W, q, mu equal to Siconos' entry by entry (max difference %g)", file, diff);
    compare_residuals(file, p, fp);
  }
  frictionContactProblem_free(fp);
  cp_destroy(&p);
}

static void test_data_folder(void)
{
  const char *data = check_shared_data();
  char dir[512];
  if (!data) {
    check_skip("Siconos fc3d files: shared data absent");
    return;
  }
  snprintf(dir, sizeof dir, "%s/siconos/fc3d", data);
  struct dirent **list = NULL;
  int k = scandir(dir, &list, NULL, alphasort), files = 0;
  if (k < 0) {
    check_skip("Siconos fc3d files: %s absent", dir);
    return;
  }
  for (int i = 0; i < k; i++) {
    size_t len = strlen(list[i]->d_name);
    if (len > 4 && strcmp(list[i]->d_name + len - 4, ".dat") == 0) {
      test_file(dir, list[i]->d_name);
      files++;
    }
    free(list[i]);
  }
  free(list);
  CHECK(files == 13, "all 13 problems of %s compared (%d)", dir, files);
}
#endif

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
#ifdef CB_HAVE_SICONOS
  test_data_folder();
#else
  check_skip("the Siconos backend is not built (no Siconos numerics headers)");
#endif
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
