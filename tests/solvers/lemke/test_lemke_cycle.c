/* test_lemke_cycle.c — cycle detection and the restart on a perturbed q in Lemke's method
 * (solvers/lemke/lemke_cycle.c, lemke.c): the set of visited bases flags a repeated basis at the pivot that
 * repeats it and never a new one; the perturbed q is q + xi with xi in [size, 2 size), reproducible; and the
 * LCP that cycled, Anitescu-Hart Table 1's LCP0 (210 discs, mu = 0.1, h = 0.05, the Anitescu-Potra
 * formulation's first step), is solved to the tolerance at every held-back block size (each takes a
 * different rounding path: before the restart, blocks 0 and 32 went round a four-basis loop from pivot
 * ~1285 to the pivot limit). */
#include "check.h"
#include "formulation.h"
#include "lemke.h"
#include "scenes.h"
#include "solver.h"
#include "solver_fixture.h"
#include "stepper.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

/* A tableau stub with the basis {0, ..., n-1} (the cold start's w's). */
static struct lemke_tableau *stub_tableau(int n)
{
  struct lemke_tableau *t = calloc(1, sizeof *t);
  t->n = n;
  t->basic = malloc((size_t)n * sizeof *t->basic);
  for (int r = 0; r < n; r++)
    t->basic[r] = r;
  return t;
}

static void test_visits(void)
{
  const int n = 50;
  struct lemke_tableau *t = stub_tableau(n);
  struct lemke_visits v = {0};
  CHECK(lemke_visits_reset(&v, t) == 0 && v.count == 1, "reset: the current basis is the one visited");
  /* a four-pivot loop over two complementary pairs (w_3, z_3), (w_7, z_7), the shape of the loop found on
   * LCP0: z_3 in w_7 out; z_7 in z_3 out; w_3 in z_7 out; w_7 in w_3 out -> the starting basis */
  const int loop[4][2] = {{7, n + 3}, {n + 3, n + 7}, {n + 7, 3}, {3, 7}};
  int flags[4];
  for (int k = 0; k < 4; k++)
    flags[k] = lemke_visits_pivot(&v, loop[k][0], loop[k][1]);
  CHECK(flags[0] == 0 && flags[1] == 0 && flags[2] == 0 && flags[3] == 1,
        "a loop of four pivots is flagged at its fourth, not before (%d %d %d %d)", flags[0], flags[1],
        flags[2], flags[3]);
  /* a long walk through distinct bases: swap w_i for z_i one at a time, then back in another order */
  lemke_visits_reset(&v, t);
  int repeats = 0, pivots = 0;
  for (int i = 0; i < n; i++, pivots++)
    repeats += lemke_visits_pivot(&v, i, n + i) != 0;
  for (int i = 0; i < n - 1; i++, pivots++) /* z_i -> w_i again, leaving z_{n-1}: all new sets */
    repeats += lemke_visits_pivot(&v, n + i, i) != 0;
  CHECK(repeats == 0 && v.count == (size_t)pivots + 1,
        "%d pivots through distinct bases: %d flagged (expect 0), %zu bases held (expect %d)", pivots,
        repeats, v.count, pivots + 1);
  CHECK(lemke_visits_pivot(&v, n + n - 1, n - 1) == 1, "the walk's starting basis is recognised again");
  lemke_visits_reset(&v, t);
  CHECK(v.count == 1 && lemke_visits_pivot(&v, 0, n) == 0, "reset forgets the earlier bases");
  lemke_visits_free(&v);
  free(t->basic);
  free(t);
}

static void test_perturb_q(void)
{
  const int n = 1000;
  struct lemke_work w = {0};
  double *q = malloc(n * sizeof *q), *first = malloc(n * sizeof *first);
  w.qpert = malloc(n * sizeof *w.qpert);
  for (int i = 0; i < n; i++)
    q[i] = i % 3 ? -1.0 : 0.5;
  int bad = lemke_perturb_q(&w, q, n, 1e-9);
  double lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < n; i++) {
    lo = fmin(lo, w.qpert[i] - q[i]);
    hi = fmax(hi, w.qpert[i] - q[i]);
  }
  CHECK(!bad && lo >= 0.99e-9 && hi < 2.01e-9 && hi - lo > 0.9e-9,
        "perturbed q: q + xi with xi in [%.3g, %.3g] (expect within [1e-9, 2e-9), spread over it)", lo, hi);
  memcpy(first, w.qpert, n * sizeof *first);
  lemke_perturb_q(&w, q, n, 1e-9);
  CHECK(max_abs_diff(first, w.qpert, n) == 0.0, "the same restart draws the same xi");
  w.perturbs = 1;
  lemke_perturb_q(&w, q, n, 1e-9);
  CHECK(max_abs_diff(first, w.qpert, n) > 1e-10, "the next restart draws another xi");
  free(q);
  free(first);
  free(w.qpert);
}

/* LCP0 of Anitescu-Hart Table 1 at mu = 0.1: the first step of the 210-disc pile (20 rows) with the
 * Anitescu-Potra formulation, as bench_cannonball builds it. */
static struct cp_problem *table1_lcp0(void)
{
  struct world *w = scene_cannonball(20, 1.0, 0.1, 0);
  struct formulation *f = NULL;
  struct solver *s = NULL;
  struct stepper *st = NULL;
  struct cp_problem *copy = NULL;
  struct step_record rec;
  if (!w || formulation_create("anitescu_potra", &f, NULL, 0) || solver_create("pgs", &s, NULL, 0) ||
      stepper_create(&st))
    goto cleanup;
  s->set.max_it = 1; /* the problem is what is wanted here, not PGS's answer */
  if (stepper_step(st, w, f, s, 0.05, &rec) == 0 && stepper_problem(st))
    copy = cp_duplicate(stepper_problem(st));
cleanup:
  stepper_destroy(&st);
  solver_destroy(&s);
  formulation_destroy(&f);
  world_destroy(&w);
  return copy;
}

static void test_table1_lcp0(void)
{
  struct cp_problem *p = table1_lcp0();
  CHECK(p != NULL && p->n == 2990 && p->n_eq == 630,
        "LCP0, 210 discs: the mixed LCP built (n = %d, %d equalities)", p ? p->n : -1, p ? p->n_eq : -1);
  if (!p) return;
  const char *blocks[3] = {"0", "32", "128"};
  double *z = malloc((size_t)p->n * sizeof *z);
  for (int b = 0; b < 3; b++) {
    struct solver *s = test_solver_with("lemke", 0.0, OPTS("-lemke_block", blocks[b]));
    int bad = !s;
    struct solve_result r = {0};
    memset(z, 0, (size_t)p->n * sizeof *z);
    if (!bad) solver_solve(s, p, z, &r);
    CHECK(!bad && r.status == SOLVE_CONVERGED && r.residual <= 1e-8 * r.scale,
          "LCP0, mu = 0.1, -lemke_block %s: %s after %d pivots, residual %.2g (scale %.3g; %s)", blocks[b],
          solve_status_name(r.status), r.iterations, r.residual, r.scale, r.message);
    solver_destroy(&s);
  }
  free(z);
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_visits();
  test_perturb_q();
  test_table1_lcp0();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
