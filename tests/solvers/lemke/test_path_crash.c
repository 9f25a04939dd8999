/* test_path_crash.c — the crash-started pivoting method (solvers/lemke/path_crash.c): random SPD LCPs,
 * Murty's example and the box-stack contact classes, with the default crash and with a 2-step crash (so that
 * Lemke pivots from an unfinished crash basis; both basis-repair orders); the triangle drop's degenerate
 * Stewart-Trinkle LCP (two nearly parallel contact columns) with both covering vectors; a mixed LCP with a
 * known answer; a warm start at the solution (no pivot); the pivot limit (-cp_max_it) giving max_iterations
 * with no answer; the restart after a secondary ray from a warm basis. Residuals are the harness's
 * checker. */
#include "check.h"
#include "cp.h"
#include "cp_io.h"
#include "problem_class.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testproblems.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

/* path_crash with the option / value pairs opts (NULL: its defaults) given through solver_set_option */
static struct solve_result run(const struct cp_problem *p, double *z, int warm, int max_it,
                               const char *const *opts)
{
  struct solver *s = test_solver_with("path_crash", 0.0, opts);
  struct solve_result r;
  memset(&r, 0, sizeof r);
  r.status = SOLVE_NUMERICAL_FAILURE;
  if (!s) return r;
  s->set.warm_start = warm;
  s->set.max_it = max_it;
  solver_solve(s, p, z, &r);
  solver_destroy(&s);
  return r;
}

static int solved(const struct solve_result *r)
{
  return r->status == SOLVE_CONVERGED && r->residual <= 1e-8 * r->scale;
}

/* Each class with the default crash (which mostly solves these alone) and with a 2-step crash, so that
 * Lemke pivots from an unfinished crash basis; repair: -path_crash_repair_order. */
static void test_classes(const char *crash_it, const char *repair)
{
  static const struct {
    const char *cls;
    int seeds;
  } cases[] = {{"spd100", 3}, {"murty10", 1}, {"resting24", 3}, {"sliding24", 3}, {"resting120", 2}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int ok = 0, pivots = 0;
    double worst = 0.0;
    for (int seed = 0; seed < cases[c].seeds; seed++) {
      struct cp_problem *p = NULL;
      char err[256];
      if (cp_class_create(cases[c].cls, (unsigned long)seed + 1, NULL, &p, err, sizeof err) != CP_CLASS_OK)
        continue;
      double *z = calloc((size_t)p->n, sizeof *z);
      struct solve_result r =
          run(p, z, 0, 0, OPTS("-path_crash_crash_it", crash_it, "-path_crash_repair_order", repair));
      ok += solved(&r);
      pivots += r.iterations;
      worst = fmax(worst, r.residual / r.scale);
      if (!solved(&r))
        printf("# %s seed %d: %s, residual %.2g; %s\n", cases[c].cls, seed + 1, solve_status_name(r.status),
               r.residual, r.message);
      free(z);
      cp_destroy(&p);
    }
    CHECK(ok == cases[c].seeds,
          "%s, crash %s, repair %s: %d of %d seeds solved, relative residuals <= %.2g, %d pivots in all",
          cases[c].cls, crash_it, repair, ok, cases[c].seeds, worst, pivots);
  }
}

/* Murty's example with no crash: Lemke from the support of z = 0 is the cold start, 2^n - 1 pivots. */
static void test_murty_no_crash(void)
{
  struct cp_problem *p = cp_test_murty(8);
  double z[8] = {0};
  struct solve_result r = run(p, z, 0, 0, OPTS("-path_crash_crash_it", "0"));
  CHECK(solved(&r) && r.iterations == 255,
        "murty n=8 without a crash: %s, %d pivots (expect 255), residual %.2g", solve_status_name(r.status),
        r.iterations, r.residual);
  cp_destroy(&p);
}

static void test_triangle_drop(void)
{
  const char *path = "tests/data/lemke_triangle_drop_stewart_trinkle_h0.003.txt";
  char err[256];
  struct cp_problem *p = NULL;
  if (cp_read_file(path, CP_FILE_PLAIN, &p, err, sizeof err) != 0) {
    CHECK(0, "%s: %s", path, err);
    return;
  }
  static const char *const covers[] = {"point", "e"};
  static const char *const crash[] = {"1", "2", "30"};
  for (int c = 0; c < 2; c++)
    for (int k = 0; k < 3; k++) {
      double z[8] = {0};
      struct solve_result r =
          run(p, z, 0, 0, OPTS("-path_crash_cover", covers[c], "-path_crash_crash_it", crash[k]));
      CHECK(solved(&r) && r.residual <= 1e-10 * r.scale,
            "triangle drop LCP, cover %s, crash %s steps: %s, residual %.2g (scale %.3g), %d pivots; %s",
            covers[c], crash[k], solve_status_name(r.status), r.residual, r.scale, r.iterations, r.message);
    }
  /* warm start at the answer: the crash point solves it, no pivot */
  double z[8] = {0};
  struct solve_result r = run(p, z, 0, 0, NULL);
  r = run(p, z, 1, 0, NULL);
  CHECK(solved(&r) && r.iterations == 0, "warm start at the solution: %s after %d pivots",
        solve_status_name(r.status), r.iterations);
  cp_destroy(&p);
}

/* Mixed LCP: u free with u - v = 1 (so u = 1 + v), 0 <= v perp u + 2 v - 4 >= 0: v = 1, u = 2. Without a
 * crash the pivoting phase alone (on the reduced LCP) solves it. */
static void test_mlcp(void)
{
  struct cp_problem *p = cp_mlcp_create(1, 1);
  const double M[4] = {1, -1, 1, 2}, q[2] = {-1, -4};
  memcpy(p->M, M, sizeof M);
  memcpy(p->q, q, sizeof q);
  for (int k = 0; k < 2; k++) {
    double z[2] = {0, 0};
    struct solve_result r = run(p, z, 0, 0, OPTS("-path_crash_crash_it", k ? "30" : "0"));
    CHECK(solved(&r) && fabs(z[0] - 2.0) < 1e-10 && fabs(z[1] - 1.0) < 1e-10,
          "mixed LCP, crash %s: %s, z = (%g, %g) (expect (2, 1)), residual %.2g", k ? "30" : "0",
          solve_status_name(r.status), z[0], z[1], r.residual);
  }
  cp_destroy(&p);
}

/* The Lemke phase's own options, given through path_crash's typed setter, reach it: test_lemke's 2 x 2 LCP
 * whose second pivot is 2^-50 at a degenerate row, pivoted from z = 0 (no crash): the default
 * -lemke_pivot_tol rejects that pivot (1 pivot in all), -lemke_pivot_tol 0 takes it. */
static void test_lemke_options(void)
{
  const double M[4] = {1, 1 - ldexp(1.0, -50), 0, 1}, q[2] = {-1, -1};
  struct cp_problem *p = cp_lcp_create(2);
  memcpy(p->M, M, sizeof M);
  memcpy(p->q, q, sizeof q);
  double z[2] = {0, 0};
  struct solve_result r0 = run(p, z, 0, 0, OPTS("-path_crash_crash_it", "0"));
  memset(z, 0, sizeof z);
  struct solve_result r = run(p, z, 0, 0, OPTS("-path_crash_crash_it", "0", "-lemke_pivot_tol", "0"));
  CHECK(solved(&r0) && r0.iterations == 1 && r.iterations > 1,
        "-lemke_pivot_tol 0 through path_crash's setter takes the 2^-50 pivot: %d pivots (default: %s after "
        "%d)",
        r.iterations, solve_status_name(r0.status), r0.iterations);
  cp_destroy(&p);
}

/* The pivot limit: Murty n = 10 without a crash needs 1023 pivots; -cp_max_it 5 stops at 5 with no answer. */
static void test_pivot_limit(void)
{
  struct cp_problem *p = cp_test_murty(10);
  double z[10] = {0};
  struct solve_result r = run(p, z, 0, 5, OPTS("-path_crash_crash_it", "0"));
  CHECK(r.status == SOLVE_MAX_ITERATIONS && r.iterations == 5 && r.no_answer,
        "-cp_max_it 5 on murty n=10: %s after %d pivots, no_answer %d (expect max_iterations, 5, 1)",
        solve_status_name(r.status), r.iterations, r.no_answer);
  cp_destroy(&p);
}

/* The ray restart. Random LCPs with small integer data (n = 3 ... 6, entries in [-3, 3], a fixed generator)
 * are searched, support by support, for a warm basis {z_i : i in S} from which Lemke ends on a secondary ray
 * (then, with -path_crash_restarts 0, it restarts cold: the search's criterion); from that basis, with the
 * default restarts, the path restarts from the ray's basis and converges without the cold Lemke. Integer
 * data keep the rays genuine: on the box-contact classes every warm "ray" (2000 supports of sliding24) was
 * the blocked updates' rounding, which Lemke now checks on a fresh factorization before it reports one. */
static void test_ray_restart(void)
{
  unsigned long long lcg = 7;
  int found = 0, inst = 0, S = 0, n = 0;
  struct cp_problem *p = NULL;
  struct solve_result r;
  memset(&r, 0, sizeof r);
  double z[6];
  for (; inst < 1000 && !found; inst++) {
    n = 3 + inst % 4;
    cp_destroy(&p);
    p = cp_lcp_create(n);
    for (int i = 0; i < n * n + n; i++) {
      lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
      double v = (double)((int)((lcg >> 33) % 7) - 3);
      if (i < n * n)
        p->M[i] = v;
      else
        p->q[i - n * n] = v;
    }
    for (S = 1; S < (1 << n) && !found; S++) {
      for (int i = 0; i < n; i++)
        z[i] = (S >> i) & 1;
      r = run(p, z, 1, 0, OPTS("-path_crash_crash_it", "0", "-path_crash_restarts", "0"));
      found = solved(&r) && strstr(r.message, "stopped (ray") && strstr(r.message, "restarted cold");
    }
  }
  S--;
  CHECK(found,
        "random integer LCP %d (n = %d): a warm basis (support %#x) ending on a secondary ray, then "
        "restarted cold with -path_crash_restarts 0: %s; %s",
        inst - 1, n, S, solve_status_name(r.status), r.message);
  if (found) {
    for (int i = 0; i < n; i++)
      z[i] = (S >> i) & 1;
    r = run(p, z, 1, 0, OPTS("-path_crash_crash_it", "0"));
    const char *rs = strstr(r.message, " ray restarts");
    int restarts = 0;
    while (rs && rs > r.message && rs[-1] >= '0' && rs[-1] <= '9')
      rs--;
    if (rs) restarts = atoi(rs);
    CHECK(solved(&r) && restarts >= 1 && !strstr(r.message, "cold"),
          "that basis, restarts 10: %s, residual %.2g; %s (expect >= 1 ray restart, no cold start)",
          solve_status_name(r.status), r.residual, r.message);
  }
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_classes("30", "pivot");
  test_classes("2", "pivot");
  test_classes("2", "crash"); /* the other basis repair */
  test_murty_no_crash();
  test_triangle_drop();
  test_mlcp();
  test_lemke_options();
  test_pivot_limit();
  test_ray_restart();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
