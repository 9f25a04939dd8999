/* test_problem_class.c — the named problem classes of the solver benchmark (bench/problems/problem_class.c):
 * sizes (cp_class_size agrees with the built instance), name validation, seeds (random classes reproducible
 * and seed-dependent, deterministic ones seed-free and equal to the testproblems.h builders), the physics of
 * the contact classes (every corner in contact; resting boxes: zero tangential velocity rows; sliding: not),
 * and the Siconos files
 * (listed and loaded when ../shared is present; a missing folder gives CP_CLASS_MISSING, no list entries);
 * the boxed classes (boxed_lcp's step on a scene): kind boxed, their size, the same instance whatever the
 * seed, the friction rows indexed to their normals, solved by dantzig. */
#include "check.h"
#include "cp_io.h"
#include "problem_class.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testproblems.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct cp_problem *build(const char *name, unsigned long seed, const char *dir)
{
  struct cp_problem *p = NULL;
  char err[512];
  enum cp_class_status st = cp_class_create(name, seed, dir, &p, err, sizeof err);
  if (st != CP_CLASS_OK) printf("# %s: status %d: %s\n", name, (int)st, err);
  return p;
}

static int same(const struct cp_problem *a, const struct cp_problem *b)
{
  size_t n = (size_t)a->n;
  return a->n == b->n && a->kind == b->kind && memcmp(a->M, b->M, n * n * sizeof *a->M) == 0 &&
         memcmp(a->q, b->q, n * sizeof *a->q) == 0;
}

static void test_sizes(void)
{
  const char *names[] = {"spd10",   "spd1000",    "resting24",  "sliding600", "resting120", "murty16",
                         "murty10", "egan_max_a", "egan_max_b", "egan_sum_1", "egan_sum_2"};
  const int want[] = {10, 1000, 24, 600, 120, 16, 10, 10, 10, 4, 4};
  for (int i = 0; i < (int)(sizeof want / sizeof want[0]); i++) {
    struct cp_problem *p = build(names[i], 7, NULL);
    CHECK(p && p->n == want[i] && p->kind == CP_LCP && cp_class_size(names[i], NULL) == want[i],
          "%s: an LCP with n = %d (built %d, cp_class_size %d)", names[i], want[i], p ? p->n : -1,
          cp_class_size(names[i], NULL));
    cp_destroy(&p);
  }
}

static void test_names(void)
{
  const char *bad[] = {"spd",     "spd0",       "spd10x", "resting25", "sliding0",
                       "murty-3", "egan_max_c", "foo",    "siconos:"};
  for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
    struct cp_problem *p = NULL;
    char err[512] = "";
    enum cp_class_status st = cp_class_create(bad[i], 1, NULL, &p, err, sizeof err);
    CHECK(!cp_class_valid(bad[i]) && st == CP_CLASS_UNKNOWN && !p && strstr(err, "unknown problem class"),
          "'%s' is not a class (status %d, message '%s')", bad[i], (int)st, err);
    CHECK(cp_class_size(bad[i], NULL) == -1, "'%s' has no size", bad[i]);
  }
  const char *huge[] = {"sparse_mlcp100000", "spd16385"};
  for (int i = 0; i < 2; i++) {
    struct cp_problem *p = NULL;
    char err[512] = "";
    enum cp_class_status st = cp_class_create(huge[i], 1, NULL, &p, err, sizeof err);
    CHECK(!cp_class_valid(huge[i]) && st == CP_CLASS_UNKNOWN && !p && strstr(err, "above 16384") &&
              strstr(err, "dense"),
          "'%s' is refused before any allocation, the limit named ('%s')", huge[i], err);
  }
  CHECK(cp_class_valid("spd16384") && cp_class_size("spd16384", NULL) == 16384,
        "spd16384 is the largest spd");
  CHECK(cp_class_random("spd100") && cp_class_random("sliding48") && !cp_class_random("murty10") &&
            !cp_class_random("egan_sum_1") && !cp_class_random("siconos:lcp/lcp_mmc.dat"),
        "random classes: spd, resting, sliding only");
}

static void test_seeds(void)
{
  const char *random[] = {"spd100", "resting48", "sliding48"};
  for (int i = 0; i < 3; i++) {
    struct cp_problem *a = build(random[i], 11, NULL), *b = build(random[i], 11, NULL),
                      *c = build(random[i], 12, NULL);
    CHECK(a && b && c && same(a, b) && !same(a, c), "%s: seed 11 twice identical, seed 12 different",
          random[i]);
    cp_destroy(&a);
    cp_destroy(&b);
    cp_destroy(&c);
  }
  struct cp_problem *m1 = build("murty12", 1, NULL), *m2 = build("murty12", 99, NULL), *m = cp_test_murty(12);
  CHECK(m1 && m2 && m && same(m1, m2) && same(m1, m), "murty12 ignores the seed and is cp_test_murty(12)");
  cp_destroy(&m1);
  cp_destroy(&m2);
  cp_destroy(&m);
  /* the paper's b_1 is case (b) (a2 = -0.5), b_2 case (a) (a2 = 0.5); see testproblems.h */
  struct cp_problem *e[4] = {build("egan_max_a", 3, NULL), build("egan_max_b", 4, NULL),
                             build("egan_sum_1", 5, NULL), build("egan_sum_2", 6, NULL)};
  struct cp_problem *ref[4] = {cp_test_egan_max(-1.5, 0.5, 100.0), cp_test_egan_max(-1.5, -0.5, 100.0),
                               cp_test_egan_sum(-1.5, -0.5, 0.01), cp_test_egan_sum(-1.5, 0.5, 0.01)};
  for (int i = 0; i < 4; i++) {
    CHECK(e[i] && ref[i] && same(e[i], ref[i]), "Egan class %d equals its testproblems.h builder", i);
    cp_destroy(&e[i]);
    cp_destroy(&ref[i]);
  }
}

/* Unknowns per box: p_n (4), p_f (16, contact-major), s (4). Resting boxes have no tangential velocity, so
 * the friction rows of q (W_f^T v, gravity vertical) vanish; sliding boxes at 1-3 m/s give |q| >= 1 there. */
static void test_contact_physics(void)
{
  for (int sliding = 0; sliding < 2; sliding++) {
    struct cp_problem *p = build(sliding ? "sliding120" : "resting120", 5, NULL);
    if (!p) {
      CHECK(0, "contact class built");
      continue;
    }
    double tmax = 0.0, nmin = INFINITY, nmax = -INFINITY;
    for (int b = 0; b < 5; b++) {
      const double *q = p->q + 24 * b;
      for (int i = 0; i < 4; i++) {
        nmin = fmin(nmin, q[i]);
        nmax = fmax(nmax, q[i]);
      }
      for (int i = 4; i < 20; i++)
        tmax = fmax(tmax, fabs(q[i]));
    }
    /* normal rows: psi / h - h g with psi in [0, 1e-6), h = 1e-3: in [-9.81e-3, -8.81e-3), all in contact */
    CHECK(nmin >= -9.81e-3 - 1e-12 && nmax < -8.81e-3,
          "%s: normal rows of q in [-h g, 1e-6 / h - h g): [%g, %g]", sliding ? "sliding120" : "resting120",
          nmin, nmax);
    if (sliding)
      CHECK(tmax > 0.5, "sliding120: tangential rows of q carry the sliding speed (max |q| %g)", tmax);
    else
      CHECK(tmax < 1e-15, "resting120: tangential rows of q vanish (max |q| %g)", tmax);
    cp_destroy(&p);
  }
}

static void test_siconos_files(void)
{
  char *list = cp_class_default_list("/nonexistent/folder");
  CHECK(list && strstr(list, "spd1000") && strstr(list, "sliding600") && strstr(list, "egan_sum_2") &&
            !strstr(list, "siconos:"),
        "default list without a data folder: the built-in classes only");
  free(list);
  struct cp_problem *p = NULL;
  char err[512];
  enum cp_class_status st =
      cp_class_create("siconos:lcp/lcp_mmc.dat", 0, "/nonexistent/folder", &p, err, sizeof err);
  CHECK(st == CP_CLASS_MISSING && !p && cp_class_size("siconos:lcp/lcp_mmc.dat", "/nonexistent/folder") == -1,
        "missing Siconos file: CP_CLASS_MISSING (%s)", err);
  const char *shared = check_shared_data();
  if (!shared) {
    check_skip("Siconos file classes: ../shared/data absent");
    return;
  }
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/siconos", shared);
  list = cp_class_default_list(dir);
  int files = 0, loaded = 0, mlcp = 0;
  char *save = NULL;
  for (char *tok = list ? strtok_r(list, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
    if (strncmp(tok, "siconos:", 8) != 0) continue;
    files++;
    struct cp_problem *f = build(tok, 0, dir);
    if (f && f->n == cp_class_size(tok, dir)) loaded++;
    if (f && strstr(tok, "mlcp")) mlcp += f->kind == CP_MLCP;
    cp_destroy(&f);
  }
  CHECK(files >= 35 && loaded == files && mlcp == 15,
        "every Siconos file of %s is listed (%d >= 35) and loads (%d), the 15 MLCP files as mixed LCPs (%d)",
        dir, files, loaded, mlcp);
  free(list);
  p = build("siconos:lcp/lcp_mmc.dat", 0, dir);
  CHECK(p && p->n == 26 && p->kind == CP_LCP, "siconos:lcp/lcp_mmc.dat: an LCP with n = 26");
  cp_destroy(&p);
}

/* file:PATH reads a problem file as given (the plain files -cp_dump_failed writes): the same problem back,
 * bit for bit; a missing file is CP_CLASS_MISSING naming it. */
static void test_path_files(void)
{
  struct cp_problem *src = cp_test_murty(6), *p = NULL;
  char path[] = "/tmp/cb_problem_class_XXXXXX", name[64], err[512];
  int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  CHECK(src && fd >= 0 && cp_write_plain(path, src, err, sizeof err) == 0, "a problem written to %s", path);
  snprintf(name, sizeof name, "file:%s", path);
  enum cp_class_status st = cp_class_create(name, 0, "/nonexistent/folder", &p, err, sizeof err);
  int same = st == CP_CLASS_OK && p && p->n == src->n;
  for (int i = 0; same && i < src->n * src->n; i++)
    same = p->M[i] == src->M[i];
  for (int i = 0; same && i < src->n; i++)
    same = p->q[i] == src->q[i];
  CHECK(cp_class_valid(name) && same && cp_class_size(name, NULL) == 6,
        "file:PATH reads the problem back bit for bit (n = 6), whatever the data folder");
  cp_destroy(&p);
  remove(path);
  st = cp_class_create(name, 0, NULL, &p, err, sizeof err);
  CHECK(st == CP_CLASS_MISSING && !p && strstr(err, path), "a missing file: CP_CLASS_MISSING (%s)", err);
  cp_destroy(&src);
}

static void test_boxed_classes(void)
{
  static const char *const names[] = {"boxed_incline", "boxed_incline_3d", "boxed_hex_pyramid"};
  static const int rows[] = {2, 3, 3}, contacts[] = {2, 4, 6};
  struct solver *s = test_solver("dantzig", 1e-10);
  for (int k = 0; k < 3; k++) {
    struct cp_problem *p = build(names[k], 1, NULL), *q = build(names[k], 2, NULL);
    int n = rows[k] * contacts[k], indexed = p && p->findex;
    for (int i = 0; indexed && i < p->n; i++)
      indexed =
          p->findex[i] == (i % rows[k] ? i - i % rows[k] : -1) && (i % rows[k] ? p->lo[i] == -p->hi[i] : 1);
    CHECK(p && q && p->kind == CP_BOXED && p->n == n && cp_class_size(names[k], NULL) == n && same(p, q),
          "%s: kind boxed, n = %d (%d contacts), seed-free", names[k], p ? p->n : -1, contacts[k]);
    CHECK(indexed, "%s: each contact's friction rows indexed to its normal, bounds -mu, mu", names[k]);
    if (p && s) {
      double *z = calloc((size_t)p->n, sizeof *z);
      struct solve_result r;
      solver_solve(s, p, z, &r);
      CHECK(r.status == SOLVE_CONVERGED, "%s: dantzig %s", names[k], solve_status_name(r.status));
      free(z);
    }
    cp_destroy(&p);
    cp_destroy(&q);
  }
  solver_destroy(&s);
  CHECK(cp_class_valid("boxed_polygon_box") && !cp_class_valid("boxed_nothing") &&
            !cp_class_random("boxed_incline"),
        "boxed class names: valid, unknown, not random");
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_sizes();
  test_names();
  test_seeds();
  test_contact_physics();
  test_siconos_files();
  test_path_files();
  test_boxed_classes();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
