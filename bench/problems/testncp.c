/* testncp.c — see testncp.h. The disc step is Chakraborty-Berard-Akella-Trinkle eqs. (41)-(47) with
 * analytic Jacobians (tests/solvers/core/test_ncp_mixed.c checks them against finite differences);
 * Kojima-Shindo is problem 1 of Kojima & Shindo (1986) as used by Facchinei-Pang; the mixed monotone NCP is
 * built around a chosen solution. Ownership: a callback problem's data must outlive it, and cp_destroy frees
 * only the problem's own block; so the data are placed in that block, after the struct cp_problem that begins
 * it (free(p) then frees both). The data are read-only during solves, so one problem may be solved from
 * several solvers in turn; cp_duplicate's copy shares them and must not outlive the original. */
#include "testncp.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ncp_block {
  struct cp_problem p; /* first: &block->p is the block, which cp_destroy frees */
  struct cp_test_disc disc;
  int n;
  double kappa;
  double data[]; /* mixed NCP: A (n x n, row-major) then r (n) */
};

/* A callback problem of n unknowns whose callback data (ctx) is the block itself, extra doubles long. */
static struct ncp_block *ncp_block_new(int n, size_t extra, cp_function F, cp_jacobian J)
{
  if (n <= 0) return NULL;
  struct ncp_block *b = calloc(1, sizeof *b + extra * sizeof(double));
  if (!b) return NULL;
  struct cp_problem *p = &b->p;
  p->kind = CP_NCP;
  p->n = n;
  p->scale = 1.0;
  p->F = F;
  p->J = J;
  p->ctx = b;
  b->n = n;
  p->lo = malloc((size_t)n * sizeof *p->lo);
  p->hi = malloc((size_t)n * sizeof *p->hi);
  if (!p->lo || !p->hi) {
    cp_destroy(&p);
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    p->lo[i] = 0.0;
    p->hi[i] = INFINITY;
  }
  return b;
}

/* the first n_free unknowns free */
static void ncp_set_free(struct cp_problem *p, int n_free)
{
  p->n_eq = n_free;
  for (int i = 0; i < n_free; i++)
    p->lo[i] = -INFINITY;
}

/* ---- the disc on a plane, eqs. (41)-(47) ------------------------------------------------------------ */

enum { D_VX, D_VY, D_W, D_A1X, D_A1Y, D_A2X, D_L2, D_PT, D_L1, D_PN, D_SIG, D_N };

static int disc_F(void *ctx, const double *z, double *F)
{
  const struct cp_test_disc *d = &((const struct ncp_block *)ctx)->disc;
  double qx = d->qx + d->h * z[D_VX], qy = d->qy + d->h * z[D_VY]; /* q' = q + h v' */
  double rx = z[D_A1X] - qx, ry = z[D_A1Y] - qy;                   /* r = a_1 - q' */
  double pn = z[D_PN], pt = z[D_PT];
  /* (41): W_n = (n; r x n) = (0, 1, rx), W_t = (t; r x t) = (1, 0, -ry), p_app = (0, -m g h, 0) */
  F[D_VX] = -d->m * (z[D_VX] - d->vx) + pt;
  F[D_VY] = -d->m * (z[D_VY] - d->vy) + pn - d->m * d->g * d->h;
  F[D_W] = -d->J * (z[D_W] - d->omega) + rx * pn - ry * pt;
  /* (42): a_1 - a_2 + l_1 grad f_1(a_1), a_2 = (a_2x, 0) */
  F[D_A1X] = z[D_A1X] - z[D_A2X] + 2.0 * z[D_L1] * rx;
  F[D_A1Y] = z[D_A1Y] + 2.0 * z[D_L1] * ry;
  /* (43): grad f_1(a_1) + l_2 n */
  F[D_A2X] = 2.0 * rx;
  F[D_L2] = 2.0 * ry + z[D_L2];
  /* (44): mu p_n (W_t' v) + sigma p_t */
  F[D_PT] = d->mu * pn * (z[D_VX] - ry * z[D_W]) + z[D_SIG] * pt;
  /* (45) in the KKT form of eq. (40), (46), (47) */
  F[D_L1] = -(rx * rx + ry * ry - 1.0);
  F[D_PN] = (z[D_A2X] - qx) * (z[D_A2X] - qx) + qy * qy - 1.0;
  F[D_SIG] = d->mu * d->mu * pn * pn - pt * pt;
  return 0;
}

static int disc_J(void *ctx, const double *z, double *Jm)
{
  const struct cp_test_disc *d = &((const struct ncp_block *)ctx)->disc;
  const double h = d->h;
  double qx = d->qx + h * z[D_VX], qy = d->qy + h * z[D_VY];
  double rx = z[D_A1X] - qx, ry = z[D_A1Y] - qy, pn = z[D_PN], pt = z[D_PT], l1 = z[D_L1];
  memset(Jm, 0, (size_t)D_N * D_N * sizeof *Jm);
#define JM(i, j) Jm[(i)*D_N + (j)]
  /* d rx / d vx = -h, d rx / d a1x = 1; d ry / d vy = -h, d ry / d a1y = 1 */
  JM(D_VX, D_VX) = -d->m;
  JM(D_VX, D_PT) = 1.0;
  JM(D_VY, D_VY) = -d->m;
  JM(D_VY, D_PN) = 1.0;
  JM(D_W, D_W) = -d->J;
  JM(D_W, D_VX) = -h * pn;
  JM(D_W, D_A1X) = pn;
  JM(D_W, D_VY) = h * pt;
  JM(D_W, D_A1Y) = -pt;
  JM(D_W, D_PN) = rx;
  JM(D_W, D_PT) = -ry;
  JM(D_A1X, D_A1X) = 1.0 + 2.0 * l1;
  JM(D_A1X, D_A2X) = -1.0;
  JM(D_A1X, D_L1) = 2.0 * rx;
  JM(D_A1X, D_VX) = -2.0 * h * l1;
  JM(D_A1Y, D_A1Y) = 1.0 + 2.0 * l1;
  JM(D_A1Y, D_L1) = 2.0 * ry;
  JM(D_A1Y, D_VY) = -2.0 * h * l1;
  JM(D_A2X, D_A1X) = 2.0;
  JM(D_A2X, D_VX) = -2.0 * h;
  JM(D_L2, D_A1Y) = 2.0;
  JM(D_L2, D_VY) = -2.0 * h;
  JM(D_L2, D_L2) = 1.0;
  JM(D_PT, D_VX) = d->mu * pn;
  JM(D_PT, D_W) = -d->mu * pn * ry;
  JM(D_PT, D_A1Y) = -d->mu * pn * z[D_W];
  JM(D_PT, D_VY) = d->mu * pn * h * z[D_W];
  JM(D_PT, D_PN) = d->mu * (z[D_VX] - ry * z[D_W]);
  JM(D_PT, D_SIG) = pt;
  JM(D_PT, D_PT) = z[D_SIG];
  JM(D_L1, D_A1X) = -2.0 * rx;
  JM(D_L1, D_VX) = 2.0 * h * rx;
  JM(D_L1, D_A1Y) = -2.0 * ry;
  JM(D_L1, D_VY) = 2.0 * h * ry;
  JM(D_PN, D_A2X) = 2.0 * (z[D_A2X] - qx);
  JM(D_PN, D_VX) = -2.0 * h * (z[D_A2X] - qx);
  JM(D_PN, D_VY) = 2.0 * h * qy;
  JM(D_SIG, D_PN) = 2.0 * d->mu * d->mu * pn;
  JM(D_SIG, D_PT) = -2.0 * pt;
#undef JM
  return 0;
}

struct cp_problem *cp_test_disc_step(const struct cp_test_disc *disc)
{
  if (!(disc->m > 0.0) || !(disc->J > 0.0) || !(disc->mu >= 0.0) || !(disc->h > 0.0)) return NULL;
  struct ncp_block *b = ncp_block_new(D_N, 0, disc_F, disc_J);
  if (!b) return NULL;
  b->disc = *disc;
  ncp_set_free(&b->p, D_L1);
  /* F's rows are impulses (m v ~ m |v|) and lengths (~1): the scale of the relative tolerance */
  b->p.scale = fmax(1.0, disc->m * fmax(fabs(disc->vx), fmax(fabs(disc->vy), fabs(disc->omega))));
  snprintf(b->p.name, sizeof b->p.name, "disc_step_q%.3g_%.3g_v%.3g_%.3g_%.3g_h%g", disc->qx, disc->qy,
           disc->vx, disc->vy, disc->omega, disc->h);
  return &b->p;
}

struct cp_test_disc cp_test_disc_rolling(double h)
{
  struct cp_test_disc d = {0.0, 1.0, -3.0, 0.0, 3.0, 1.0, 0.5, 0.4, 9.81, h};
  return d;
}

int cp_test_disc_solution(const struct cp_test_disc *d, double *z)
{
  if (d->qy != 1.0 || d->vy != 0.0) return 0;
  double pn = d->m * d->g * d->h, vt = d->vx + d->omega, inv = 1.0 / d->m + 1.0 / d->J, pt, sigma;
  if (fabs(vt) > d->mu * pn * inv) { /* keeps sliding: the full Coulomb impulse against v_t */
    pt = -d->mu * pn * (vt > 0 ? 1.0 : -1.0);
    sigma = fabs(vt + pt * inv);
  } else if (vt == 0.0) { /* rolls */
    pt = 0.0;
    sigma = 0.0;
  } else {
    return 0; /* stops slipping within the step: the sticking impulse; not needed by the tests */
  }
  z[D_VX] = d->vx + pt / d->m;
  z[D_VY] = 0.0;
  z[D_W] = d->omega + pt / d->J; /* J (w' - w) = -r_y p_t = p_t */
  z[D_A1X] = d->qx + d->h * z[D_VX];
  z[D_A1Y] = 0.0;
  z[D_A2X] = z[D_A1X];
  z[D_L2] = 2.0;
  z[D_PT] = pt;
  z[D_L1] = 0.0;
  z[D_PN] = pn;
  z[D_SIG] = sigma;
  return 1;
}

void cp_test_disc_advance(struct cp_test_disc *d, const double *z)
{
  d->vx = z[D_VX];
  d->vy = z[D_VY];
  d->omega = z[D_W];
  d->qx += d->h * d->vx;
  d->qy += d->h * d->vy;
}

/* ---- the monotone mixed NCP ------------------------------------------------------------------------ */

static int mixed_F(void *ctx, const double *z, double *F)
{
  const struct ncp_block *b = ctx;
  int n = b->n;
  const double *A = b->data, *r = b->data + (size_t)n * n;
  for (int i = 0; i < n; i++) {
    double s = r[i] + b->kappa * z[i] * z[i] * z[i];
    for (int j = 0; j < n; j++)
      s += A[(size_t)i * n + j] * z[j];
    F[i] = s;
  }
  return 0;
}

static int mixed_J(void *ctx, const double *z, double *J)
{
  const struct ncp_block *b = ctx;
  int n = b->n;
  memcpy(J, b->data, (size_t)n * n * sizeof *J);
  for (int i = 0; i < n; i++)
    J[(size_t)i * n + i] += 3.0 * b->kappa * z[i] * z[i];
  return 0;
}

struct cp_problem *cp_test_ncp_mixed(int n_free, int n_comp, double kappa, unsigned long seed, double *z_star)
{
  int n = n_free + n_comp;
  if (n_free < 0 || n_comp < 0 || n <= 0 || !(kappa >= 0.0)) return NULL;
  size_t nn = (size_t)n;
  struct ncp_block *b = ncp_block_new(n, nn * nn + nn, mixed_F, mixed_J);
  double *zs = calloc(nn, sizeof *zs), *ws = calloc(nn, sizeof *ws), *G = calloc(nn * nn, sizeof *G);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  struct cp_problem *p = b ? &b->p : NULL;
  if (!b || !zs || !ws || !G || !rng) {
    cp_destroy(&p);
    goto cleanup;
  }
  gsl_rng_set(rng, seed);
  b->kappa = kappa;
  ncp_set_free(p, n_free);
  double *A = b->data, *r = b->data + nn * nn;
  /* S = G G' / n + I (SPD), K = (G - G') / 2 (skew) */
  for (size_t k = 0; k < nn * nn; k++)
    G[k] = 2.0 * gsl_rng_uniform(rng) - 1.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0.0;
      for (int k = 0; k < n; k++)
        s += G[(size_t)i * n + k] * G[(size_t)j * n + k];
      A[(size_t)i * n + j] = s / n + (i == j) + 0.5 * (G[(size_t)i * n + j] - G[(size_t)j * n + i]);
    }
  for (int i = 0; i < n; i++) {
    double u = gsl_rng_uniform(rng), v = gsl_rng_uniform(rng);
    if (i < n_free) {
      zs[i] = 2.0 * u - 1.0;
      ws[i] = 0.0;
    } else {
      int kind = (i - n_free) % 3; /* active, inactive, degenerate */
      zs[i] = kind == 0 ? 0.1 + u : 0.0;
      ws[i] = kind == 1 ? 0.1 + v : 0.0;
    }
  }
  for (int i = 0; i < n; i++) {
    double s = kappa * zs[i] * zs[i] * zs[i];
    for (int j = 0; j < n; j++)
      s += A[(size_t)i * n + j] * zs[j];
    r[i] = ws[i] - s;
  }
  if (z_star) memcpy(z_star, zs, nn * sizeof *zs);
  snprintf(p->name, sizeof p->name, "ncp_mixed_%d_%d_k%g_s%lu", n_free, n_comp, kappa, seed);
cleanup:
  if (rng) gsl_rng_free(rng);
  free(zs);
  free(ws);
  free(G);
  return p;
}

/* ---- Kojima-Shindo ------------------------------------------------------------------------------------ */

static int ks_F(void *ctx, const double *x, double *F)
{
  (void)ctx;
  F[0] = 3 * x[0] * x[0] + 2 * x[0] * x[1] + 2 * x[1] * x[1] + x[2] + 3 * x[3] - 6;
  F[1] = 2 * x[0] * x[0] + x[0] + x[1] * x[1] + 3 * x[2] + 2 * x[3] - 2;
  F[2] = 3 * x[0] * x[0] + x[0] * x[1] + 2 * x[1] * x[1] + 2 * x[2] + 3 * x[3] - 1;
  F[3] = x[0] * x[0] + 3 * x[1] * x[1] + 2 * x[2] + 3 * x[3] - 3;
  return 0;
}

static int ks_J(void *ctx, const double *x, double *J)
{
  (void)ctx;
  const double rows[16] = {6 * x[0] + 2 * x[1], 2 * x[0] + 4 * x[1], 1, 3, 4 * x[0] + 1, 2 * x[1], 3, 2,
                           6 * x[0] + x[1],     x[0] + 4 * x[1],     2, 3, 2 * x[0],     6 * x[1], 2, 3};
  memcpy(J, rows, sizeof rows);
  return 0;
}

struct cp_problem *cp_test_kojima_shindo(void)
{
  struct ncp_block *b = ncp_block_new(4, 0, ks_F, ks_J);
  if (!b) return NULL;
  b->p.scale = 6.0;
  snprintf(b->p.name, sizeof b->p.name, "kojima_shindo");
  return &b->p;
}

/* ---- Siconos' MCP test --------------------------------------------------------------------------------- */

static int sic_F(void *ctx, const double *z, double *F)
{
  const struct ncp_block *b = ctx;
  int n = b->n;
  for (int i = 0; i < n; i++)
    F[i] = 7.0 - i + 2.0 * z[i] + (i > 0 ? z[i - 1] : 0.0) + (i + 1 < n ? z[i + 1] : 0.0);
  return 0;
}

static int sic_J(void *ctx, const double *z, double *J)
{
  (void)z;
  const struct ncp_block *b = ctx;
  int n = b->n;
  memset(J, 0, (size_t)n * n * sizeof *J);
  for (int i = 0; i < n; i++) {
    J[(size_t)i * n + i] = 2.0;
    if (i > 0) J[(size_t)i * n + i - 1] = 1.0;
    if (i + 1 < n) J[(size_t)i * n + i + 1] = 1.0;
  }
  return 0;
}

struct cp_problem *cp_test_mcp_siconos(void)
{
  struct ncp_block *b = ncp_block_new(10, 0, sic_F, sic_J);
  if (!b) return NULL;
  ncp_set_free(&b->p, 5);
  b->p.scale = 7.0; /* max |q_i| */
  snprintf(b->p.name, sizeof b->p.name, "siconos_mcp_2_test1");
  return &b->p;
}
