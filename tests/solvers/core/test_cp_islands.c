/* test_cp_islands.c — the islands of a linear problem (solvers/core/cp_islands.c): three boxes' contact LCP
 * (Stewart-Trinkle, independent boxes) gives three islands of 24 in order, also when the unknowns are
 * shuffled by a symmetric permutation; an island's problem reproduces F on its rows; a mixed LCP keeps its
 * free unknowns first; a dense SPD matrix is one island; a callback problem has none (-1). */
#include "check.h"
#include "cp.h"
#include "testproblems.h"

#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

/* p with unknowns renamed by perm: new unknown a is old perm[a]. */
static struct cp_problem *permuted(const struct cp_problem *p, const int *perm, int n)
{
  struct cp_problem *s = cp_lcp_create(n);
  if (!s) return NULL;
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < n; b++)
      s->M[(size_t)a * n + b] = p->M[(size_t)perm[a] * n + perm[b]];
    s->q[a] = p->q[perm[a]];
  }
  return s;
}

static void test_boxes(void)
{
  struct cp_problem *p = cp_test_box_contact(3, 4, 0.5, 0, 1e-3, 7);
  if (!p || p->n != 72) {
    CHECK(0, "three boxes: the contact LCP of 72 unknowns");
    cp_destroy(&p);
    return;
  }
  enum { n = 72 };
  int order[72], start[73], count = cp_islands(p, order, start);
  int contiguous = 1;
  for (int i = 0; i < n; i++)
    contiguous &= order[i] == i;
  CHECK(count == 3 && start[1] == 24 && start[2] == 48 && start[3] == 72 && contiguous,
        "three boxes: 3 islands of 24 in order (%d islands)", count);
  /* a shuffle: the islands are the boxes' unknowns wherever they sit */
  int perm[72];
  for (int i = 0; i < n; i++)
    perm[i] = (i * 29 + 5) % n; /* 29 is prime to 72 */
  struct cp_problem *s = permuted(p, perm, n);
  count = s ? cp_islands(s, order, start) : -1;
  int same_box = 1, ascending = 1;
  for (int k = 0; k < count; k++)
    for (int a = start[k]; a < start[k + 1]; a++) {
      same_box &= perm[order[a]] / 24 == perm[order[start[k]]] / 24;
      ascending &= a == start[k] || order[a] > order[a - 1];
    }
  CHECK(count == 3 && same_box && ascending, "shuffled: 3 islands, each one box's, ascending (%d)", count);
  /* island 1's problem: F_B(z_B) = F(z)_B */
  double z[72], F[72], zs[24], Fs[24];
  for (int i = 0; i < n; i++)
    z[i] = 0.001 * ((i * 37) % 11);
  struct cp_problem *sub = count == 3 ? cp_island_problem(s, order + start[1], start[2] - start[1]) : NULL;
  if (!sub) {
    CHECK(0, "island problem of the shuffled boxes");
    cp_destroy(&s);
    cp_destroy(&p);
    return;
  }
  cp_eval_F(s, z, F);
  for (int a = 0; a < 24; a++)
    zs[a] = z[order[start[1] + a]];
  cp_eval_F(sub, zs, Fs);
  double diff = 0.0;
  for (int a = 0; a < 24; a++)
    diff = fmax(diff, fabs(Fs[a] - F[order[start[1] + a]]));
  CHECK(sub->n == 24 && sub->kind == CP_LCP && diff <= 1e-15, "island problem: F on its rows (diff %.2g)",
        diff);
  cp_destroy(&sub);
  cp_destroy(&s);
  cp_destroy(&p);
}

static void test_kinds(void)
{
  /* mixed LCP: free 0, 1; 0 - 2 coupled, 1 - 3 coupled: islands {0, 2}, {1, 3} with a free unknown first */
  struct cp_problem *p = cp_mlcp_create(2, 2);
  double M[16] = {2, 0, 1, 0, 0, 3, 0, 1, -1, 0, 1, 0, 0, -1, 0, 1};
  memcpy(p->M, M, sizeof M);
  int order[4], start[5], count = cp_islands(p, order, start);
  CHECK(count == 2 && order[0] == 0 && order[1] == 2 && order[2] == 1 && order[3] == 3,
        "mixed LCP: islands {0, 2} and {1, 3} (%d)", count);
  struct cp_problem *sub = cp_island_problem(p, order + 2, 2);
  CHECK(sub && sub->kind == CP_MLCP && sub->n_eq == 1 && sub->M[0] == 3 && sub->M[1] == 1 &&
            isinf(sub->lo[0]),
        "mixed LCP island: its free unknown first, M_BB");
  cp_destroy(&sub);
  cp_destroy(&p);
  p = cp_test_spd(30, 3);
  int order30[30], start30[31];
  CHECK(cp_islands(p, order30, start30) == 1 && start30[1] == 30, "dense SPD: one island");
  cp_destroy(&p);
}

static int f_identity(void *ctx, const double *z, double *Fz)
{
  (void)ctx;
  Fz[0] = z[0];
  return 0;
}

static void test_callback(void)
{
  struct cp_problem *p = cp_ncp_create(1, f_identity, NULL, NULL);
  int order[1], start[2];
  CHECK(cp_islands(p, order, start) == -1 && cp_island_problem(p, order, 1) == NULL,
        "callback problem: no islands (-1)");
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_boxes();
  test_kinds();
  test_callback();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
