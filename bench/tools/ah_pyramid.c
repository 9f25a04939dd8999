/* NAME    ah_pyramid — the nonconvex solution set of Anitescu-Hart Sec. 3 (hexagonal pyramid on a table).
 * PURPOSE Anitescu & Hart Sec. 4B, experiment 4: builds the mixed LCP (6)-(7) of the pyramid at
 *         rest (scene_hex_pyramid through anitescu_potra, ah_pyramid.h), checks the paper's two
 *         solutions and their average with the independent checker for each mu, convex combinations
 *         at mu = 0, and searches for further
 *         solutions with the milp solver (objectives none, min_sum, max_sum) on the full problem and with
 *         enum on the reduced problem (zero tangential impulse).
 * USAGE   ah_pyramid [-mu 0,0.001,0.01,0.1,0.5,1,2] [-h 0.05] [-friction_dirs 4] [-cp_tol 1e-8]
 * OUTPUT  plain text on stdout; loads c_n in units of h m g, vertices numbered 1..6 as in the paper. */
#include "ah_pyramid.h"

#include "solver.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>

static const char help[] =
    "ah_pyramid: Anitescu-Hart Sec. 3, the hexagonal pyramid's nonconvex solution set.\n"
    "  -mu a,b,...      friction coefficients (default 0,0.001,0.01,0.1,0.5,1,2)\n"
    "  -h H             time step (default 0.05)\n"
    "  -friction_dirs K friction directions per contact (default 4)\n";

static double residual(const struct cp_problem *p, const double *z)
{
  struct cp_check c;
  if (cp_check(p, z, NULL, &c)) return INFINITY;
  return c.nonfinite ? INFINITY : fmax(c.natural, c.equality) / c.scale;
}

static void print_point(const struct ah_pyramid *a, const double *z)
{
  double load[6], lam[6], beta[6], vmax = 0.0;
  ah_pyramid_loads(a, z, load, lam, beta);
  for (int k = 0; k < a->nd; k++)
    vmax = fmax(vmax, fabs(z[k]));
  printf("      c_n/hmg");
  for (int j = 0; j < 6; j++)
    printf(" %6.3f", load[j] / a->hmg);
  printf("   lambda");
  for (int j = 0; j < 6; j++)
    printf(" %7.3g", lam[j]);
  printf("\n      sum beta/hmg");
  for (int j = 0; j < 6; j++)
    printf(" %6.3f", beta[j] / a->hmg);
  printf("   |v|_inf %.1e   residual %.1e\n", vmax, residual(a->p, z));
}

/* The paper's points: both solutions pass, their average fails by min(1/2, mu hmg / 6). */
static void paper_points(const struct ah_pyramid *a, double mu)
{
  int n = a->p->n;
  double *z1 = malloc((size_t)n * sizeof *z1), *z2 = malloc((size_t)n * sizeof *z2),
         *zt = malloc((size_t)n * sizeof *zt);
  if (!z1 || !z2 || !zt) goto cleanup;
  ah_pyramid_paper_solution(a, 1, z1);
  ah_pyramid_paper_solution(a, 2, z2);
  printf("  mu %-6g solution 1: residual %.1e  solution 2: %.1e  combinations t z1 + (1-t) z2:", mu,
         residual(a->p, z1), residual(a->p, z2));
  for (int k = 1; k < 4; k++) {
    double t = 0.25 * k;
    for (int i = 0; i < n; i++)
      zt[i] = t * z1[i] + (1.0 - t) * z2[i];
    printf(" t=%.2f %.1e", t, residual(a->p, zt));
  }
  printf("  (average expected min(1/2, mu hmg/6) = %.1e)\n", fmin(0.5, mu * a->hmg / 6.0));
cleanup:
  free(z1);
  free(z2);
  free(zt);
}

static void milp_search(const struct ah_pyramid *a)
{
  static const char *const objectives[] = {"none", "min_sum", "max_sum"};
  double *z = calloc((size_t)a->p->n, sizeof *z);
  for (int o = 0; o < 3 && z; o++) {
    struct solver *s = NULL;
    struct solve_result r;
    PetscOptionsSetValue(NULL, "-milp_objective", objectives[o]);
    char msg[512] = "";
    if (solver_create("milp", &s, msg, sizeof msg) || solver_set_from_options(s, NULL, msg, sizeof msg)) {
      fprintf(stderr, "error: %s\n", msg);
      solver_destroy(&s);
      break;
    }
    for (int i = 0; i < a->p->n; i++)
      z[i] = 0.0;
    if (solver_solve(s, a->p, z, &r) == 0) {
      printf("    milp -milp_objective %-7s %s (%d nodes)\n", objectives[o], solve_status_name(r.status),
             r.iterations);
      if (r.status == SOLVE_CONVERGED) print_point(a, z);
    }
    solver_destroy(&s);
  }
  PetscOptionsClearValue(NULL, "-milp_objective");
  free(z);
}

static void enum_search(const struct ah_pyramid *a)
{
  struct cp_problem *red = ah_pyramid_reduced(a);
  struct solver *s = NULL;
  double *zr = red ? calloc((size_t)red->n, sizeof *zr) : NULL, *z = calloc((size_t)a->p->n, sizeof *z);
  struct solve_result r;
  if (!red || !zr || !z || solver_create("enum", &s, NULL, 0) || solver_set_from_options(s, NULL, NULL, 0) ||
      solver_solve(s, red, zr, &r)) {
    printf("    enum: set-up failed\n");
    goto cleanup;
  }
  printf("    enum on the reduced problem (n = %d): %s, %d distinct basic solutions\n", red->n,
         solve_status_name(r.status), r.n_solutions);
  for (int k = 0; k < r.n_solutions; k++) {
    ah_pyramid_lift(a, r.solutions + (size_t)k * red->n, z);
    print_point(a, z);
  }
cleanup:
  solver_destroy(&s);
  cp_destroy(&red);
  free(zr);
  free(z);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscReal mus[32] = {0.0, 0.001, 0.01, 0.1, 0.5, 1.0, 2.0}, h = 0.05;
  PetscInt nmu = 32, k = 4;
  PetscBool set;
  PetscCall(PetscOptionsGetRealArray(NULL, NULL, "-mu", mus, &nmu, &set));
  if (!set) nmu = 7;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-h", &h, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-friction_dirs", &k, NULL));
  int rc = 0;
  printf("Anitescu-Hart Sec. 3: hexagonal pyramid (radius 1, height 1.5, mass 1) at rest, h = %g, k = %d\n",
         (double)h, (int)k);
  printf("residual = checker's max(natural, equality) / scale; a solution has residual <= -cp_tol\n");
  for (int i = 0; i < nmu; i++) {
    struct ah_pyramid *a = NULL;
    if (ah_pyramid_create(mus[i], h, (int)k, &a)) {
      fprintf(stderr, "error: could not build the pyramid problem (mu %g, k %d)\n", (double)mus[i], (int)k);
      rc = 1;
      break;
    }
    paper_points(a, mus[i]);
    if (mus[i] == 0.0 || mus[i] == 0.1 || mus[i] == 1.0) {
      milp_search(a);
      enum_search(a);
    }
    ah_pyramid_destroy(&a);
  }
  PetscCall(PetscFinalize());
  return rc;
}
