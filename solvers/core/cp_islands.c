/* cp_islands.c — the independent blocks ("islands", as physics engines call the groups of bodies that touch
 * one another) of a linear problem: the connected components of the graph with an edge i - j wherever M_ij or
 * M_ji is nonzero. On a block B the natural map, the bounds and F_B = M_BB z_B + q_B see nothing of the other
 * blocks, so a problem that is block diagonal up to a permutation is that many independent problems: a
 * Newton method then factors the blocks instead of the whole matrix and its line search is not held back by
 * the slowest block (bench_solvers' resting600 is 25 boxes on a plane, 25 blocks of 24 unknowns). */
#include "cp.h"
#include "solver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int uf_root(int *parent, int i)
{
  while (parent[i] != i) {
    parent[i] = parent[parent[i]]; /* path halving */
    i = parent[i];
  }
  return i;
}

int cp_islands(const struct cp_problem *p, int *order, int *start)
{
  int n = p->n;
  if (!cp_is_linear(p) || n < 1) return -1;
  int *parent = malloc((size_t)n * sizeof *parent), *label = malloc((size_t)n * sizeof *label);
  if (!parent || !label) {
    free(parent);
    free(label);
    return -1;
  }
  for (int i = 0; i < n; i++)
    parent[i] = i;
  /* rows only (contiguous reads): row i gives the edges of M_ij, row j those of M_ji */
  for (int i = 0; i < n; i++) {
    const double *row = p->M + (size_t)i * n;
    for (int j = 0; j < n; j++)
      if (row[j] != 0.0 && j != i) {
        int a = uf_root(parent, i), b = uf_root(parent, j);
        if (a != b) parent[a < b ? b : a] = a < b ? a : b; /* the smaller index is the root */
      }
  }
  /* islands numbered by their smallest unknown; a counting sort keeps each island's unknowns ascending */
  int count = 0;
  for (int i = 0; i < n; i++) {
    int r = uf_root(parent, i);
    label[i] = r == i ? count++ : label[r];
  }
  memset(start, 0, (size_t)(count + 1) * sizeof *start);
  for (int i = 0; i < n; i++)
    start[label[i] + 1]++;
  for (int k = 0; k < count; k++)
    start[k + 1] += start[k];
  for (int i = 0; i < n; i++)
    order[start[label[i]]++] = i;
  for (int k = count; k > 0; k--) /* the fill moved each start to the next island's */
    start[k] = start[k - 1];
  start[0] = 0;
  free(parent);
  free(label);
  return count;
}

struct cp_problem *cp_island_problem(const struct cp_problem *p, const int *idx, int k)
{
  if (!cp_is_linear(p) || k < 1) return NULL;
  int n_eq = 0;
  for (int a = 0; a < k; a++)
    n_eq += idx[a] < p->n_eq; /* ascending idx: the free unknowns come first, as in p */
  struct cp_problem *s = p->kind == CP_MLCP  ? cp_mlcp_create(n_eq, k - n_eq)
                         : p->kind == CP_LCP ? cp_lcp_create(k)
                                             : cp_box_create(k);
  if (!s) return NULL;
  for (int a = 0; a < k; a++) {
    const double *row = p->M + (size_t)idx[a] * p->n;
    for (int b = 0; b < k; b++)
      s->M[(size_t)a * k + b] = row[idx[b]];
    s->q[a] = p->q[idx[a]];
    s->lo[a] = p->lo[idx[a]];
    s->hi[a] = p->hi[idx[a]];
  }
  snprintf(s->name, sizeof s->name, "%.100s island", p->name);
  return s;
}

/* The islands (order, start) one by one, each from its part of z (solver_solve_islands). */
static int islands_each(const struct cp_problem *p, int count, const int *order, const int *start, double *z,
                        struct solve_result *r,
                        int (*solve_one)(void *, const struct cp_problem *, double *, struct solve_result *),
                        void *ctx)
{
  double *zs = malloc((size_t)p->n * sizeof *zs);
  if (!zs) return 1;
  int err = 0, largest = 0;
  r->status = SOLVE_CONVERGED;
  r->iterations = 0;
  for (int k = 0; k < count && !err; k++) {
    const int *idx = order + start[k], m = start[k + 1] - start[k];
    struct cp_problem *sub = cp_island_problem(p, idx, m);
    struct solve_result rs = {.status = SOLVE_CONVERGED};
    if (!sub) {
      err = 1;
      break;
    }
    for (int a = 0; a < m; a++)
      zs[a] = z[idx[a]];
    err = solve_one(ctx, sub, zs, &rs);
    for (int a = 0; a < m; a++)
      z[idx[a]] = zs[a];
    cp_destroy(&sub);
    largest = m > largest ? m : largest;
    r->iterations = rs.iterations > r->iterations ? rs.iterations : r->iterations;
    if (rs.status != SOLVE_CONVERGED && r->status == SOLVE_CONVERGED) {
      r->status = rs.status;
      snprintf(r->message, sizeof r->message, "island %d of %d (n = %d): %.250s", k + 1, count, m,
               rs.message);
    }
  }
  if (!err && r->status == SOLVE_CONVERGED)
    snprintf(r->message, sizeof r->message, "%d islands (largest n = %d)", count, largest);
  free(zs);
  return err;
}

int solver_solve_islands(const struct cp_problem *p, double *z, struct solve_result *r,
                         int (*solve_one)(void *ctx, const struct cp_problem *sub, double *z,
                                          struct solve_result *r),
                         void *ctx)
{
  int n = p->n, count = 1, err = 0;
  if (!cp_is_linear(p) || n < 2) return solve_one(ctx, p, z, r);
  int *order = malloc((size_t)n * sizeof *order), *start = malloc(((size_t)n + 1) * sizeof *start);
  if (!order || !start || (count = cp_islands(p, order, start)) < 0)
    err = 1;
  else
    err = count > 1 ? islands_each(p, count, order, start, z, r, solve_one, ctx) : solve_one(ctx, p, z, r);
  free(order);
  free(start);
  return err;
}
