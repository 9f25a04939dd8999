/* fc_nsgs.c — nonsmooth Gauss-Seidel for frictional contact (cone.h; Jean 1999, Acary, Brémond & Huber
 * 2018 Alg. 2): sweep the contacts in order, each solving its d x d Coulomb problem with the others'
 * latest reactions (cone_local_solve: closed forms, Newton on Alart-Curnier, projected fixed point; for
 * the relaxed variant, the block Gauss-Seidel of Anitescu & Tasora's CCP solvers, the local QP on the cone).
 * The sweep keeps u = W r + q up to date: a contact's local q is u_c - Wcc r_c, and a contact whose
 * reaction moved adds its column block times the change to u (O(n d), nothing for one that stays open), so
 * a sweep is at most one pass over W and the checker's residual after it is O(n) (Siconos' NSGS, by
 * default, tests ||r - r_old|| each sweep instead and the full error only at the end). When that residual
 * reaches tol * scale, u is recomputed from scratch (one dgemv, also every NSGS_REFRESH sweeps) and the
 * stop decided on it; -cp_max_it sweeps (default 10000) and the time limit bound the run.
 */
#include "cone.h"
#include "cp_fc.h"
#include "solver.h"

#include <cblas.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Sweeps between recomputations of u = W r + q from scratch (the sweeps update it in place). */
#define NSGS_REFRESH 100

struct nsgs_data {
  int local_max_it;
  double local_tol;
  double *Wcc, *u; /* the diagonal blocks (nc d x d), the velocity (n) */
  size_t cap;      /* n they are sized for */
};

static const struct option_decl nsgs_options[] = {
    {"local_max_it", OPT_INT, offsetof(struct nsgs_data, local_max_it), "20", "[1,10000]",
     "Newton iterations of a contact's local solve (its fixed-point fallback: 10 x)"},
    {"local_tol", OPT_REAL, offsetof(struct nsgs_data, local_tol), "1e-14", "(0,1)",
     "a local solve stops at error <= local_tol * max(1, |local q|, |r|, |sticking r|) (inf norms)"},
};

static int nsgs_create(struct solver *s)
{
  s->data = calloc(1, sizeof(struct nsgs_data));
  return s->data == NULL;
}

static int nsgs_setup(struct solver *s, const struct cp_problem *p)
{
  struct nsgs_data *d = s->data;
  size_t n = p->n > 0 ? (size_t)p->n : 1;
  if (n <= d->cap) return 0;
  free(d->Wcc);
  free(d->u);
  d->cap = 0;
  d->Wcc = malloc(3 * n * sizeof *d->Wcc); /* nc d^2 = n d <= 3 n */
  d->u = malloc(n * sizeof *d->u);
  if (!d->Wcc || !d->u) return 1;
  d->cap = n;
  return 0;
}

int cone_symmetric(const struct cp_problem *p)
{
  int n = p->n;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (p->M[(size_t)i * n + j] != p->M[(size_t)j * n + i]) return 0;
  return 1;
}

void cone_nsgs_sweep(const struct cp_problem *p, const struct cone_local *s, const double *Wcc, int sym,
                     double *r, double *u)
{
  int d = p->fc_dim, n = p->n, nc = n / d;
  for (int c = 0; c < nc; c++) {
    double ql[3], old[3], dr[3];
    const double *Wc = Wcc + (size_t)c * d * d;
    double *rc = r + (size_t)c * d;
    for (int k = 0; k < d; k++) { /* q_c + W_c,: r without the contact's own part: u_c - Wcc r_c */
      ql[k] = u[c * d + k];
      for (int j = 0; j < d; j++)
        ql[k] -= Wc[k * d + j] * rc[j];
      old[k] = rc[k];
    }
    cone_local_solve(s, d, p->mu[c], Wc, ql, rc);
    int moved = 0;
    for (int k = 0; k < d; k++) {
      dr[k] = rc[k] - old[k];
      moved |= dr[k] != 0.0;
    }
    if (!moved) continue; /* an open contact that stays open costs d^2, not a pass over its columns */
    if (sym)              /* u += W_:,c dr: the column block is the row block, contiguous */
      cblas_dgemv(CblasRowMajor, CblasTrans, d, n, 1.0, p->M + (size_t)c * d * n, n, dr, 1, 1.0, u, 1);
    else
      cblas_dgemv(CblasRowMajor, CblasNoTrans, n, d, 1.0, p->M + (size_t)c * d, n, dr, 1, 1.0, u, 1);
  }
}

static int nsgs_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct nsgs_data *d = s->data;
  int dim = p->fc_dim, nc = p->n / dim, max_sweeps = s->set.max_it > 0 ? s->set.max_it : 10000;
  if ((size_t)p->n > d->cap && nsgs_setup(s, p) != 0) return 1;
  if (p->n == 0) { /* no contact: nothing to solve (BLAS and LAPACK refuse empty matrices) */
    r->status = SOLVE_CONVERGED;
    return 0;
  }
  struct cone_local loc = {.max_it = d->local_max_it, .tol = d->local_tol, .relaxed = p->fc_relaxed};
  for (int c = 0; c < nc; c++)
    cone_block(p, c, d->Wcc + (size_t)c * dim * dim);
  int sym = cone_symmetric(p), cold = 1;
  for (int i = 0; i < p->n; i++)
    cold &= z[i] == 0.0;
  if (cold) /* u = W 0 + q */
    memcpy(d->u, p->q, (size_t)p->n * sizeof *d->u);
  else
    cone_residual(p, z, d->u);
  double goal = s->set.tol * cp_scale(p, NULL); /* the checker's, which the harness then applies itself */
  r->status = SOLVE_MAX_ITERATIONS;
  for (int sweep = 1; sweep <= max_sweeps; sweep++) {
    cone_nsgs_sweep(p, &loc, d->Wcc, sym, z, d->u);
    double res = cp_fc_residual(p, z, d->u); /* O(n): u was kept up to date by the sweep */
    r->iterations = sweep;
    if (res <= goal || !isfinite(res) || sweep % NSGS_REFRESH == 0)
      res = cone_residual(p, z, d->u); /* u afresh: the updates' rounding never decides the stop */
    if (!isfinite(res)) {
      r->status = SOLVE_NAN_OR_INF;
      break;
    }
    if (res <= goal) {
      r->status = SOLVE_CONVERGED;
      break;
    }
    if (solver_out_of_time(s)) {
      r->status = SOLVE_TIME_LIMIT;
      break;
    }
  }
  return 0;
}

static void nsgs_destroy(struct solver *s)
{
  struct nsgs_data *d = s->data;
  if (d) {
    free(d->Wcc);
    free(d->u);
  }
  free(s->data);
  s->data = NULL;
}

static void nsgs_view(const struct solver *s, FILE *out)
{
  const struct nsgs_data *d = s->data;
  fprintf(out, "  local solve: %d Newton iterations, tol %g (-fc_nsgs_local_max_it, -fc_nsgs_local_tol)\n",
          d->local_max_it, d->local_tol);
}

const struct solver_type solver_type_fc_nsgs = {
    .name = "fc_nsgs",
    .summary = "nonsmooth Gauss-Seidel on the Coulomb cones, exact local solves",
    .kinds = CP_FC,
    .options = nsgs_options,
    .n_options = (int)(sizeof nsgs_options / sizeof nsgs_options[0]),
    .create = nsgs_create,
    .setup = nsgs_setup,
    .solve = nsgs_solve,
    .destroy = nsgs_destroy,
    .view = nsgs_view,
};

void cone_buffers_free(double **const *bufs, int nb)
{
  for (int k = 0; k < nb; k++) {
    free(*bufs[k]);
    *bufs[k] = NULL;
  }
}

int cone_buffers_alloc(double **const *bufs, const size_t *len, int nb)
{
  int bad = 0;
  for (int k = 0; k < nb; k++)
    bad |= (*bufs[k] = malloc(len[k] * sizeof(double))) == NULL;
  if (bad) cone_buffers_free(bufs, nb);
  return bad;
}
