/* testproblems.c — see testproblems.h. Egan-Berard-Trinkle (Fig. 3, eqs. 5-7, 13-22, 25-28); Murty (1978). */
#include "testproblems.h"

#include <cblas.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct cp_problem *cp_test_spd(int n, unsigned long seed)
{
  if (n < 1) return NULL;
  struct cp_problem *p = cp_lcp_create(n);
  double *A = malloc((size_t)n * n * sizeof *A);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!p || !A || !rng) {
    cp_destroy(&p);
    free(A);
    if (rng) gsl_rng_free(rng);
    return NULL;
  }
  gsl_rng_set(rng, seed);
  for (size_t k = 0; k < (size_t)n * n; k++)
    A[k] = 2.0 * gsl_rng_uniform(rng) - 1.0;
  for (int i = 0; i < n; i++)
    p->q[i] = 2.0 * gsl_rng_uniform(rng) - 1.0;
  /* M = A A^T / n + 0.1 I: dsyrk fills the lower triangle (n = 1000: 0.05 s instead of 1 s of scalar loop,
   * which every benchmark task building the instance paid), mirrored to the upper. */
  cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, n, n, 1.0 / n, A, n, 0.0, p->M, n);
  for (int i = 0; i < n; i++) {
    p->M[(size_t)i * n + i] += 0.1;
    for (int j = 0; j < i; j++)
      p->M[(size_t)j * n + i] = p->M[(size_t)i * n + j];
  }
  snprintf(p->name, sizeof p->name, "spd_n%d_s%lu", n, seed);
  free(A);
  gsl_rng_free(rng);
  return p;
}

struct cp_problem *cp_test_murty(int n)
{
  struct cp_problem *p = n >= 1 ? cp_lcp_create(n) : NULL;
  if (!p) return NULL;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++)
      p->M[(size_t)i * n + j] = 2.0;
    p->M[(size_t)i * n + i] = 1.0;
    p->q[i] = -1.0;
  }
  snprintf(p->name, sizeof p->name, "murty_n%d", n);
  return p;
}

static void set_row(struct cp_problem *p, int row, const int *cols, const double *vals, int count, double q)
{
  for (int k = 0; k < count; k++)
    p->M[(size_t)row * p->n + cols[k]] = vals[k];
  p->q[row] = q;
}

struct cp_problem *cp_test_egan_max(double a1, double a2, double gamma)
{
  /* unknowns: 0 c1, 1 c2, 2 d, 3 g1, 4 g2, 5 h1, 6 h2, 7 p, 8 p1n, 9 p2n. With m = 1, h = 2 and
   * axis-aligned sides, a_i = a_i(free) + p_in. */
  struct cp_problem *p = cp_lcp_create(10);
  if (!p) return NULL;
  const double one[2] = {1, 1};
  set_row(p, 0, (int[]){0, 8}, one, 2, a1 - 1.0);    /* (13) c1 + a1 - 1 */
  set_row(p, 1, (int[]){1, 9}, one, 2, a2 - 1.0);    /* (14) c2 + a2 - 1 */
  set_row(p, 2, (int[]){3, 4}, one, 2, -1.0);        /* (15) g1 + g2 - 1 perp d */
  set_row(p, 3, (int[]){0, 2}, one, 2, -gamma);      /* (16) c1 + d - gamma perp g1 */
  set_row(p, 4, (int[]){1, 2}, one, 2, -gamma);      /* (17) c2 + d - gamma perp g2 */
  set_row(p, 5, (int[]){5, 8}, one, 2, a1);          /* (18) h1 + a1 */
  set_row(p, 6, (int[]){6, 9}, one, 2, a2);          /* (19) h2 + a2 */
  set_row(p, 7, (int[]){2}, one, 1, 1.0 - gamma);    /* (20) d - gamma + 1 perp p */
  set_row(p, 8, (int[]){2, 5}, one, 2, 1.0 - gamma); /* (21) h1 + d - gamma + 1 perp p1n */
  set_row(p, 9, (int[]){2, 6}, one, 2, 1.0 - gamma); /* (22) h2 + d - gamma + 1 perp p2n */
  snprintf(p->name, sizeof p->name, "egan_max_a%g_%g_g%g", a1, a2, gamma);
  return p;
}

struct cp_problem *cp_test_egan_sum(double a1, double a2, double e)
{
  /* unknowns: 0 c1, 1 c2, 2 p1n, 3 p2n; a_i = a_i(free) + p_in. */
  struct cp_problem *p = cp_lcp_create(4);
  if (!p) return NULL;
  set_row(p, 0, (int[]){0, 2}, (double[]){1, -1}, 2, -a1 - e); /* (25) c1 - a1 - eps/h */
  set_row(p, 1, (int[]){1, 3}, (double[]){1, -1}, 2, -a2 - e); /* (26) c2 - a2 - eps/h */
  set_row(p, 2, (int[]){0, 1}, (double[]){1, 1}, 2, -e);       /* (27) c1 + c2 - eps/h perp p1n */
  set_row(p, 3, (int[]){0, 1}, (double[]){1, 1}, 2, -e);       /* (28) c1 + c2 - eps/h perp p2n */
  snprintf(p->name, sizeof p->name, "egan_sum_a%g_%g_e%g", a1, a2, e);
  return p;
}

/* One box's 4 contacts: wrench columns W (6 x 4 normals, then 6 x 4k friction), world frame. */
static void box_wrenches(double a, double b, double c, double yaw, int k, double *Wn, double *Wf)
{
  double cy = cos(yaw), sy = sin(yaw);
  for (int i = 0; i < 4; i++) {
    double bx = (i & 1) ? a : -a, by = (i & 2) ? b : -b;
    double r[3] = {cy * bx - sy * by, sy * bx + cy * by, -c}; /* corner relative to the centre of mass */
    double u[3] = {0, 0, 1};
    /* wrench of a unit force u at r: [u; r x u] */
    double *w = Wn + 6 * i;
    w[0] = u[0], w[1] = u[1], w[2] = u[2];
    w[3] = r[1] * u[2] - r[2] * u[1], w[4] = r[2] * u[0] - r[0] * u[2], w[5] = r[0] * u[1] - r[1] * u[0];
    for (int j = 0; j < k; j++) {
      double th = 2.0 * M_PI * j / k;
      double d[3] = {cos(th), sin(th), 0};
      double *f = Wf + 6 * (i * k + j);
      f[0] = d[0], f[1] = d[1], f[2] = d[2];
      f[3] = r[1] * d[2] - r[2] * d[1], f[4] = r[2] * d[0] - r[0] * d[2], f[5] = r[0] * d[1] - r[1] * d[0];
    }
  }
}

struct cp_problem *cp_test_box_lcp(const struct cp_test_box *boxes, int count, int k, double mu, double h)
{
  if (count < 1 || k < 1 || mu < 0 || !(h > 0)) return NULL;
  const double g = 9.81;
  const int nc = 4, ncol = nc + nc * k, per = nc * (k + 2);
  int n = count * per;
  struct cp_problem *p = cp_lcp_create(n);
  double *W = malloc(6 * (size_t)ncol * sizeof *W); /* [Wn Wf] as column blocks of 6 */
  if (!p || !W) {
    cp_destroy(&p);
    free(W);
    return NULL;
  }
  for (int bx = 0; bx < count; bx++) {
    const struct cp_test_box *B = &boxes[bx];
    double a = B->a, b = B->b, c = B->c, m = B->mass;
    /* solid box with half-extents a, b, c: I_xx = m (b^2 + c^2) / 3, ... */
    double Minv[6] = {1 / m,
                      1 / m,
                      1 / m,
                      3.0 / (m * (b * b + c * c)),
                      3.0 / (m * (a * a + c * c)),
                      3.0 / (m * (a * a + b * b))};
    box_wrenches(a, b, c, B->yaw, k, W, W + 6 * nc);
    int off = bx * per;
    /* (6): the [Wn Wf]^T M^-1 [Wn Wf] block, E and -E^T, U. */
    for (int i = 0; i < ncol; i++)
      for (int j = 0; j < ncol; j++) {
        double s = 0.0;
        for (int r = 0; r < 6; r++)
          s += W[6 * i + r] * Minv[r] * W[6 * j + r];
        p->M[(size_t)(off + i) * n + off + j] = s;
      }
    for (int ci = 0; ci < nc; ci++) {
      int srow = off + ncol + ci;
      for (int j = 0; j < k; j++) {
        int frow = off + nc + ci * k + j;
        p->M[(size_t)frow * n + srow] = 1.0;  /* E s */
        p->M[(size_t)srow * n + frow] = -1.0; /* -E^T p_f */
      }
      p->M[(size_t)srow * n + off + ci] = mu; /* U p_n */
    }
    /* (7): b = W^T (v + M^-1 p_ext) + [psi/h; 0], p_ext = h (0, 0, -m g, 0, 0, 0). */
    double vfree[6] = {B->vx, B->vy, -h * g, 0, 0, 0};
    for (int i = 0; i < ncol; i++) {
      double s = 0.0;
      for (int r = 0; r < 6; r++)
        s += W[6 * i + r] * vfree[r];
      if (i < nc) s += B->gap[i] / h;
      p->q[off + i] = s;
    }
  }
  snprintf(p->name, sizeof p->name, "box_lcp_b%d_k%d_mu%g", count, k, mu);
  free(W);
  return p;
}

struct cp_problem *cp_test_box_contact(int boxes, int k, double mu, int sliding, double h, unsigned long seed)
{
  return cp_test_box_contact_gap(boxes, k, mu, sliding, h, 1e-4, seed);
}

struct cp_problem *cp_test_box_contact_gap(int boxes, int k, double mu, int sliding, double h, double gap_max,
                                           unsigned long seed)
{
  if (boxes < 1 || !(gap_max >= 0.0)) return NULL;
  struct cp_test_box *B = calloc((size_t)boxes, sizeof *B);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  struct cp_problem *p = NULL;
  if (B && rng) {
    gsl_rng_set(rng, seed);
    for (int i = 0; i < boxes; i++) {
      B[i].a = 0.2 + 0.3 * gsl_rng_uniform(rng);
      B[i].b = 0.2 + 0.3 * gsl_rng_uniform(rng);
      B[i].c = 0.1 + 0.2 * gsl_rng_uniform(rng);
      B[i].mass = 0.5 + 2.0 * gsl_rng_uniform(rng);
      B[i].yaw = 2.0 * M_PI * gsl_rng_uniform(rng);
      if (sliding) {
        double speed = 1.0 + 2.0 * gsl_rng_uniform(rng), dir = 2.0 * M_PI * gsl_rng_uniform(rng);
        B[i].vx = speed * cos(dir);
        B[i].vy = speed * sin(dir);
      }
      for (int j = 0; j < 4; j++)
        B[i].gap[j] = gap_max * gsl_rng_uniform(rng);
    }
    p = cp_test_box_lcp(B, boxes, k, mu, h > 0 ? h : 1e-3);
    if (p)
      snprintf(p->name, sizeof p->name, "box_%s_b%d_k%d_mu%g_s%lu", sliding ? "sliding" : "resting", boxes, k,
               mu, seed);
  }
  free(B);
  if (rng) gsl_rng_free(rng);
  return p;
}
