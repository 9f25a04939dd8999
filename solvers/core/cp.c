/* cp.c — problem construction and the independent checker (design.md contracts 1 and 3).
 * The natural-map residual || z - mid(lo, hi, z - F(z)) ||_inf is zero exactly at solutions of the
 * box MCP, which covers LCP (lo = 0, hi = inf) and the free rows of a mixed LCP (residual = |F_i|). */
#include "cp.h"

#include "cp_fc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct cp_problem *cp_alloc(enum cp_kind kind, int n, int linear)
{
  if (n < 0) return NULL;
  struct cp_problem *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  size_t nn = (size_t)n > 0 ? (size_t)n : 1;
  p->kind = kind;
  p->n = n;
  p->scale = 1.0;
  p->lo = malloc(nn * sizeof *p->lo);
  p->hi = malloc(nn * sizeof *p->hi);
  if (linear) {
    p->M = calloc(nn * nn, sizeof *p->M);
    p->q = calloc(nn, sizeof *p->q);
  }
  if (!p->lo || !p->hi || (linear && (!p->M || !p->q))) {
    cp_destroy(&p);
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    p->lo[i] = 0.0;
    p->hi[i] = INFINITY;
  }
  return p;
}

struct cp_problem *cp_lcp_create(int n) { return cp_alloc(CP_LCP, n, 1); }

struct cp_problem *cp_box_create(int n) { return cp_alloc(CP_BOX_MCP, n, 1); }

struct cp_problem *cp_mlcp_create(int n_eq, int m)
{
  if (n_eq < 0 || m < 0) return NULL;
  struct cp_problem *p = cp_alloc(CP_MLCP, n_eq + m, 1);
  if (!p) return NULL;
  p->n_eq = n_eq;
  for (int i = 0; i < n_eq; i++)
    p->lo[i] = -INFINITY;
  return p;
}

struct cp_problem *cp_ncp_create(int n, cp_function F, cp_jacobian J, void *ctx)
{
  struct cp_problem *p = cp_alloc(CP_NCP, n, 0);
  if (!p) return NULL;
  p->F = F;
  p->J = J;
  p->ctx = ctx;
  return p;
}

struct cp_problem *cp_fc_create(int dim, int nc)
{
  if ((dim != 2 && dim != 3) || nc < 0) return NULL;
  struct cp_problem *p = cp_alloc(CP_FC, dim * nc, 1);
  if (!p) return NULL;
  p->fc_dim = dim;
  p->mu = calloc(nc > 0 ? (size_t)nc : 1, sizeof *p->mu);
  if (!p->mu) {
    cp_destroy(&p);
    return NULL;
  }
  for (int i = 0; i < p->n; i++) { /* the cone, not bounds, constrains r */
    p->lo[i] = -INFINITY;
    p->hi[i] = INFINITY;
  }
  return p;
}

struct cp_problem *cp_boxed_create(int n)
{
  struct cp_problem *p = cp_alloc(CP_BOXED, n, 1);
  if (!p) return NULL;
  p->findex = malloc((n > 0 ? (size_t)n : 1) * sizeof *p->findex);
  if (!p->findex) {
    cp_destroy(&p);
    return NULL;
  }
  for (int i = 0; i < n; i++)
    p->findex[i] = -1;
  return p;
}

int cp_boxed_invalid(const struct cp_problem *p, char *why, size_t len)
{
  for (int i = 0; i < p->n; i++) {
    int k = p->findex ? p->findex[i] : -1;
    double lo = p->lo[i], hi = p->hi[i];
    if (k < -1 || k >= p->n || k == i) {
      snprintf(why, len, "row %d: friction index %d is not -1 or another row in [0, %d)", i, k, p->n);
      return 1;
    }
    if (k >= 0 && p->findex[k] >= 0) {
      snprintf(why, len, "row %d: its normal row %d is a friction row itself (findex %d)", i, k,
               p->findex[k]);
      return 1;
    }
    if (k >= 0 && !(isfinite(hi) && hi >= 0.0 && lo == -hi)) {
      snprintf(why, len,
               "row %d (friction of row %d): bounds [%g, %g] are not [-mu, mu] with a finite mu >= 0", i, k,
               lo, hi);
      return 1;
    }
    if (k < 0 && !(lo <= hi && lo < INFINITY && hi > -INFINITY)) {
      snprintf(why, len, "row %d: bounds [%g, %g] are no interval", i, lo, hi);
      return 1;
    }
  }
  return 0;
}

struct cp_problem *cp_duplicate(const struct cp_problem *src)
{
  struct cp_problem *p = cp_alloc(src->kind, src->n, src->M != NULL);
  if (!p) return NULL;
  size_t n = (size_t)src->n;
  p->n_eq = src->n_eq;
  p->F = src->F;
  p->J = src->J;
  p->ctx = src->ctx;
  p->scale = src->scale;
  p->fc_dim = src->fc_dim;
  p->fc_relaxed = src->fc_relaxed;
  if (src->mu) {
    size_t nc = src->fc_dim > 0 ? n / (size_t)src->fc_dim : 0;
    p->mu = malloc((nc > 0 ? nc : 1) * sizeof *p->mu);
    if (!p->mu) {
      cp_destroy(&p);
      return NULL;
    }
    memcpy(p->mu, src->mu, nc * sizeof *p->mu);
  }
  if (src->findex) {
    p->findex = malloc((n > 0 ? n : 1) * sizeof *p->findex);
    if (!p->findex) {
      cp_destroy(&p);
      return NULL;
    }
    memcpy(p->findex, src->findex, n * sizeof *p->findex);
  }
  memcpy(p->name, src->name, sizeof p->name);
  memcpy(p->lo, src->lo, n * sizeof *p->lo);
  memcpy(p->hi, src->hi, n * sizeof *p->hi);
  if (src->M) {
    memcpy(p->M, src->M, n * n * sizeof *p->M);
    memcpy(p->q, src->q, n * sizeof *p->q);
  }
  return p;
}

void cp_destroy(struct cp_problem **p)
{
  if (!p || !*p) return;
  free((*p)->M);
  free((*p)->q);
  free((*p)->lo);
  free((*p)->hi);
  free((*p)->mu);
  free((*p)->findex);
  free(*p);
  *p = NULL;
}

const char *cp_kind_name(enum cp_kind kind)
{
  switch (kind) {
  case CP_LCP: return "lcp";
  case CP_MLCP: return "mlcp";
  case CP_BOX_MCP: return "box_mcp";
  case CP_NCP: return "ncp";
  case CP_FC: return "fc";
  case CP_BOXED: return "boxed";
  }
  return "unknown";
}

int cp_is_linear(const struct cp_problem *p) { return p->M != NULL; }

int cp_eval_F(const struct cp_problem *p, const double *z, double *Fz)
{
  if (!cp_is_linear(p)) return p->F ? p->F(p->ctx, z, Fz) : 1;
  int n = p->n;
  for (int i = 0; i < n; i++) {
    const double *row = p->M + (size_t)i * n;
    double s = p->q[i];
    for (int j = 0; j < n; j++)
      s += row[j] * z[j];
    Fz[i] = s;
  }
  return 0;
}

int cp_eval_J(const struct cp_problem *p, const double *z, double *J)
{
  if (!cp_is_linear(p)) return p->J ? p->J(p->ctx, z, J) : 1;
  memcpy(J, p->M, (size_t)p->n * p->n * sizeof *J);
  return 0;
}

/* max(1, ||q||_inf) over the finite entries (a NaN in q is the checker's to report; it leaves the scale). */
static double q_scale(int n, const double *q)
{
  double scale = 1.0;
  for (int i = 0; i < n; i++)
    if (fabs(q[i]) > scale && isfinite(q[i])) scale = fabs(q[i]);
  return scale;
}

double cp_scale_q(int n, const double *q)
{
  double scale = q_scale(n, q);
  return scale <= CP_SCALE_MAX ? scale : CP_SCALE_MAX;
}

double cp_scale(const struct cp_problem *p, double *data_scale)
{
  double scale = cp_is_linear(p) ? q_scale(p->n, p->q) : p->scale > 0.0 ? p->scale : 1.0;
  if (data_scale) *data_scale = scale;
  return scale <= CP_SCALE_MAX ? scale : CP_SCALE_MAX; /* also a NaN declared scale */
}

/* |z - mid(lo, hi, z - F)| by cases, without forming z - F: when |z| >> |F| that sum rounds to z and the
 * residual to 0 (z = 1e18 on a row with w = -1, lo = 0, hi = inf passed as converged). mid picks lo when
 * z - F <= lo, i.e. F >= z - lo; hi when F <= z - hi; else z - F, leaving |F|. */
static double cp_natural_component(double lo, double hi, double z, double F)
{
  if (F >= z - lo) return fabs(z - lo);
  if (F <= z - hi) return fabs(z - hi);
  return fabs(F);
}

int cp_check(const struct cp_problem *p, const double *z, double *work, struct cp_check *c)
{
  int n = p->n;
  double *Fz = work ? work : malloc(((size_t)n > 0 ? (size_t)n : 1) * sizeof *Fz);
  if (!Fz) return 1;
  c->natural = 0.0;
  c->equality = 0.0;
  c->nonfinite = 0;
  c->scale = cp_scale(p, &c->data_scale);
  for (int i = 0; cp_is_linear(p) && i < n; i++)
    if (!isfinite(p->q[i])) c->nonfinite = 1;
  /* A failing callback counts as a non-finite F: such a z is never a solution. */
  if (cp_eval_F(p, z, Fz) != 0) c->nonfinite = 1;
  int nc = p->kind == CP_FC && p->fc_dim > 0 ? n / p->fc_dim : 0;
  for (int k = 0; k < nc; k++) /* a friction coefficient must be a finite mu >= 0 to define a cone */
    if (!(isfinite(p->mu[k]) && p->mu[k] >= 0.0)) c->nonfinite = 1;
  char why[160];
  if (p->kind == CP_BOXED && cp_boxed_invalid(p, why, sizeof why)) c->nonfinite = 1; /* no box to judge by */
  for (int i = 0; i < n && !c->nonfinite; i++) {
    if (!isfinite(z[i]) || !isfinite(Fz[i])) {
      c->nonfinite = 1;
      break;
    }
    if (p->kind == CP_FC) continue; /* the cone's residual, below */
    double lo = p->lo[i], hi = p->hi[i];
    if (p->kind == CP_BOXED) cp_boxed_bounds(p, z, i, &lo, &hi); /* z finite: z_k was checked or is next */
    double r = cp_natural_component(lo, hi, z[i], Fz[i]);
    if (r > c->natural) c->natural = r;
    if (i < p->n_eq && fabs(Fz[i]) > c->equality) c->equality = fabs(Fz[i]);
  }
  if (cp_is_linear(p) && !c->nonfinite) {
    for (size_t k = 0; k < (size_t)n * n; k++)
      if (!isfinite(p->M[k])) {
        c->nonfinite = 1;
        break;
      }
  }
  if (p->kind == CP_FC && !c->nonfinite) c->natural = cp_fc_residual(p, z, Fz);
  if (c->nonfinite) {
    c->natural = INFINITY;
    c->equality = p->n_eq ? INFINITY : 0.0;
  }
  if (!work) free(Fz);
  return 0;
}

int cp_check_passes(const struct cp_check *c, double tol)
{
  return !c->nonfinite && c->natural <= tol * c->scale && c->equality <= tol * c->scale;
}

double cp_data_max_diff(const struct cp_problem *p, const double *M, const double *q)
{
  double d = 0.0;
  for (long k = 0; k < (long)p->n * p->n; k++)
    d = fmax(d, fabs(p->M[k] - M[k]));
  for (int i = 0; i < p->n; i++)
    d = fmax(d, fabs(p->q[i] - q[i]));
  return d;
}

int cp_not_copositive(const double *M, int n, int *wi, int *wj)
{
  for (int i = 0; i < n; i++) {
    double a = M[(size_t)i * n + i];
    if (a < 0.0) return *wi = *wj = i, 1;
    for (int j = i + 1; j < n; j++) {
      double c = M[(size_t)j * n + j], b = M[(size_t)i * n + j] + M[(size_t)j * n + i];
      if (c >= 0.0 && b < -2.0 * sqrt(a * c) * (1.0 + 1e-12)) return *wi = i, *wj = j, 1;
    }
  }
  return 0;
}
