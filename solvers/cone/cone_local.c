/* cone_local.c — one contact's Coulomb problem with the other reactions frozen, u = Wcc r + ql (cone.h):
 * the Alart-Curnier function and its generalized Jacobian, and the local solver NSGS calls: closed forms
 * first (take-off r = 0 when ql_N >= 0; sticking u = 0 when -Wcc^-1 ql lies in the cone), then a damped
 * Newton on the AC function for sliding, then a projected fixed point r <- P_K(r - rho û) when Newton
 * stalls (a singular Jacobian, a failed line search). The best point by the natural-map error is kept, so
 * a local solve never returns a worse reaction than it was given. The relaxation (cone complementarity,
 * û = u) has the same closed forms (take-off when ql ∈ K*) and, for the rest, is the convex QP
 * min 1/2 r'Wcc r + ql'r over K, solved by projected gradient with Nesterov's extrapolation and its
 * gradient restart (O'Donoghue & Candès 2015), step 1 / (Gershgorin's bound on Wcc's largest eigenvalue):
 * the AC function is Coulomb's law, not the relaxation's. */
#include "cone.h"
#include "cp_fc.h"

#include <cblas.h>
#include <math.h>
#include <string.h>

/* Armijo's constant and the backtracking depth of the local and global line searches. */
#define CONE_ARMIJO     1e-4
#define CONE_BACKTRACKS 40

void cone_ac_function(int d, double mu, double rho_n, double rho_t, const double *r, const double *u,
                      double *phi, double *A, double *B)
{
  int k = d - 1;
  if (A) {
    memset(A, 0, sizeof(double) * (size_t)(d * d));
    memset(B, 0, sizeof(double) * (size_t)(d * d));
  }
  double xn = r[0] - rho_n * u[0];
  int open = xn > 0.0; /* phi_N = r_N - max(0, xn): rho_n u_N while the contact pushes, else r_N */
  if (open) {
    phi[0] = rho_n * u[0];
    if (B) B[0] = rho_n;
  } else {
    phi[0] = r[0];
    if (A) A[0] = 1.0;
  }
  double y[2] = {0.0, 0.0}, ny2 = 0.0;
  for (int t = 0; t < k; t++) {
    y[t] = r[1 + t] - rho_t * u[1 + t];
    ny2 += y[t] * y[t];
  }
  double ny = sqrt(ny2), R = mu * (open ? xn : 0.0);
  if (ny <= R) { /* inside the disc: sticking, phi_T = rho_t u_T */
    for (int t = 0; t < k; t++) {
      phi[1 + t] = rho_t * u[1 + t];
      if (B) B[(1 + t) * d + 1 + t] = rho_t;
    }
    return;
  }
  /* outside (ny > R >= 0): phi_T = r_T - R y/|y|, d(y/|y|) = (I - ŷŷ')/|y| dy, dR = mu d(xn) if open */
  double yh[2] = {y[0] / ny, y[1] / ny};
  for (int t = 0; t < k; t++)
    phi[1 + t] = r[1 + t] - R * yh[t];
  if (!A) return;
  for (int t = 0; t < k; t++) {
    int row = (1 + t) * d;
    if (open) {
      A[row] = -mu * yh[t];
      B[row] = mu * rho_n * yh[t];
    }
    for (int s = 0; s < k; s++) {
      double P = R / ny * ((t == s ? 1.0 : 0.0) - yh[t] * yh[s]);
      A[row + 1 + s] = (t == s ? 1.0 : 0.0) - P;
      B[row + 1 + s] = rho_t * P;
    }
  }
}

double cone_rho(int d, const double *Wcc)
{
  double m = 0.0;
  for (int k = 0; k < d; k++)
    m = fmax(m, Wcc[k * d + k]);
  return m > 0.0 ? 1.0 / m : 1.0;
}

/* Solves A x = b in place (d <= 3, A row-major, overwritten) by Gaussian elimination with partial pivoting,
 * LAPACK's dgesv without its call: a 3 x 3 solve through LAPACKE cost a transposition, OpenBLAS' locks and
 * ~1 us, more than the rest of a contact's local solve. 1 when a pivot is exactly 0 (dgesv's info > 0). */
static int small_solve(int d, double *A, double *b)
{
  for (int k = 0; k < d; k++) {
    int p = k;
    for (int i = k + 1; i < d; i++)
      if (fabs(A[i * d + k]) > fabs(A[p * d + k])) p = i;
    if (A[p * d + k] == 0.0) return 1;
    if (p != k) {
      for (int j = 0; j < d; j++) {
        double t = A[k * d + j];
        A[k * d + j] = A[p * d + j];
        A[p * d + j] = t;
      }
      double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
    for (int i = k + 1; i < d; i++) {
      double l = A[i * d + k] / A[k * d + k];
      for (int j = k + 1; j < d; j++)
        A[i * d + j] -= l * A[k * d + j];
      b[i] -= l * b[k];
    }
  }
  for (int k = d - 1; k >= 0; k--) {
    for (int j = k + 1; j < d; j++)
      b[k] -= A[k * d + j] * b[j];
    b[k] /= A[k * d + k];
  }
  return 0;
}

static void local_velocity(int d, const double *Wcc, const double *ql, const double *r, double *u)
{
  for (int i = 0; i < d; i++) {
    u[i] = ql[i];
    for (int j = 0; j < d; j++)
      u[i] += Wcc[i * d + j] * r[j];
  }
}

static double local_error(int d, double mu, double ds, const double *Wcc, const double *ql, const double *r)
{
  double u[3] = {0, 0, 0};
  local_velocity(d, Wcc, ql, r, u);
  return sqrt(cp_fc_contact_error2(d, mu, ds, r, u));
}

static double half_norm2(int d, const double *phi)
{
  double f = 0.0;
  for (int i = 0; i < d; i++)
    f += phi[i] * phi[i];
  return 0.5 * f;
}

/* One damped Newton step on the local AC function from r; 0 when it moved r, 1 when it could not. */
static int local_newton_step(int d, double mu, double rho, const double *Wcc, const double *ql, double *r)
{
  double u[3] = {0, 0, 0}, phi[3] = {0, 0, 0}, A[9], B[9], J[9], dx[3] = {0, 0, 0}, rt[3] = {0, 0, 0};
  double ut[3] = {0, 0, 0}, pt[3] = {0, 0, 0};
  local_velocity(d, Wcc, ql, r, u);
  cone_ac_function(d, mu, rho, rho, r, u, phi, A, B);
  double f = half_norm2(d, phi);
  for (int i = 0; i < d; i++) {
    dx[i] = -phi[i];
    for (int j = 0; j < d; j++) { /* J = A + B Wcc */
      double bw = 0.0;
      for (int k = 0; k < d; k++)
        bw += B[i * d + k] * Wcc[k * d + j];
      J[i * d + j] = A[i * d + j] + bw;
    }
  }
  if (f == 0.0 || small_solve(d, J, dx) != 0) return 1;
  double t = 1.0;
  for (int b = 0; b < CONE_BACKTRACKS; b++, t *= 0.5) {
    for (int i = 0; i < d; i++)
      rt[i] = r[i] + t * dx[i];
    local_velocity(d, Wcc, ql, rt, ut);
    cone_ac_function(d, mu, rho, rho, rt, ut, pt, NULL, NULL);
    if (half_norm2(d, pt) <= (1.0 - 2.0 * CONE_ARMIJO * t) * f) {
      memcpy(r, rt, sizeof(double) * (size_t)d);
      return 0;
    }
  }
  return 1;
}

/* Keeps x in best when its error is lower. */
static void keep_best(int d, double e, const double *x, double *best, double *e_best)
{
  if (e < *e_best) {
    *e_best = e;
    memcpy(best, x, sizeof(double) * (size_t)d);
  }
}

/* The projected fixed point r <- P_K(r - rho (u + mu |u_T| e_N)) from best, the fallback. */
static void local_fixed_point(const struct cone_local *s, int d, double mu, const double *Wcc,
                              const double *ql, double goal, double *best, double *e_best)
{
  double r[3] = {0, 0, 0}, u[3] = {0, 0, 0}, rho = cone_rho(d, Wcc);
  memcpy(r, best, sizeof(double) * (size_t)d);
  for (int it = 0; it < 10 * s->max_it && (*e_best > goal); it++) {
    local_velocity(d, Wcc, ql, r, u);
    double norm_ut = d == 3 ? hypot(u[1], u[2]) : fabs(u[1]);
    r[0] -= rho * (u[0] + mu * norm_ut);
    for (int k = 1; k < d; k++)
      r[k] -= rho * u[k];
    cp_fc_project(d, mu, r);
    keep_best(d, local_error(d, mu, 1.0, Wcc, ql, r), r, best, e_best);
  }
}

/* The relaxation's local QP: r <- P_K(y - (Wcc y + ql) / L) from the extrapolated y, L >= Wcc's largest
 * eigenvalue (Gershgorin), restarted when the step goes against the last move. */
static void local_qp(const struct cone_local *s, int d, double mu, const double *Wcc, const double *ql,
                     double goal, double *best, double *e_best)
{
  double L = 0.0, r[3] = {0, 0, 0}, prev[3] = {0, 0, 0}, y[3] = {0, 0, 0}, g[3] = {0, 0, 0}, t = 1.0;
  for (int i = 0; i < d; i++) {
    double row = 0.0;
    for (int j = 0; j < d; j++)
      row += fabs(Wcc[i * d + j]);
    L = fmax(L, row);
  }
  if (!(L > 0.0)) return;
  memcpy(r, best, sizeof(double) * (size_t)d);
  memcpy(y, r, sizeof r);
  for (int it = 0; it<50 * s->max_it && * e_best> goal; it++) {
    memcpy(prev, r, sizeof r);
    local_velocity(d, Wcc, ql, y, g);
    for (int k = 0; k < d; k++)
      r[k] = y[k] - g[k] / L;
    cp_fc_project(d, mu, r);
    double tn = 0.5 * (1.0 + sqrt(1.0 + 4.0 * t * t)), turn = 0.0;
    for (int k = 0; k < d; k++)
      turn += (y[k] - r[k]) * (r[k] - prev[k]);
    if (turn > 0.0) tn = 1.0; /* restart: the momentum points uphill */
    for (int k = 0; k < d; k++)
      y[k] = r[k] + (t - 1.0) / tn * (r[k] - prev[k]);
    t = tn;
    keep_best(d, local_error(d, mu, 0.0, Wcc, ql, r), r, best, e_best);
  }
}

double cone_local_solve(const struct cone_local *s, int d, double mu, const double *Wcc, const double *ql,
                        double *r)
{
  double ds = s->relaxed ? 0.0 : 1.0, qt = d == 3 ? hypot(ql[1], ql[2]) : fabs(ql[1]);
  /* take-off: û(0) = ql + ds mu |ql_T| e_N lies in K* exactly when ql_N >= (1 - ds) mu |ql_T| */
  if (ql[0] >= (1.0 - ds) * mu * qt) {
    for (int k = 0; k < d; k++)
      r[k] = 0.0;
    return local_error(d, mu, ds, Wcc, ql, r);
  }
  double best[3] = {0, 0, 0}, e_best = local_error(d, mu, ds, Wcc, ql, r), x[3] = {0, 0, 0}, LU[9];
  memcpy(best, r, sizeof(double) * (size_t)d);
  memcpy(LU, Wcc, sizeof(double) * (size_t)(d * d));
  for (int k = 0; k < d; k++)
    x[k] = -ql[k];
  int stick_ok = small_solve(d, LU, x) == 0;
  /* The error r - P_K(r - û) is computed in units of r: it cannot fall below rounding of |r|, and where W
   * is small the reactions are large (Confeti: |r| ~ 1e4 for |ql| ~ 1, a floor ~ 1e-12 that the Newton
   * search can never reach below 1e-14 |ql|, which sent a third of the local solves into 200 futile
   * fixed-point steps). So the goal scales with the reactions too: the previous one and -Wcc^-1 ql,
   * the sticking reaction, which bounds the size of the answer's scale. */
  double scale = 1.0;
  for (int k = 0; k < d; k++)
    scale = fmax(scale, fmax(fabs(ql[k]), fmax(fabs(r[k]), stick_ok ? fabs(x[k]) : 0.0)));
  double goal = s->tol * scale;
  if (e_best > goal && stick_ok) {
    double xt = d == 3 ? hypot(x[1], x[2]) : fabs(x[1]);
    if (xt <= mu * x[0]) keep_best(d, local_error(d, mu, ds, Wcc, ql, x), x, best, &e_best); /* sticking */
  }
  if (s->relaxed) {
    if (e_best > goal) local_qp(s, d, mu, Wcc, ql, goal, best, &e_best);
    memcpy(r, best, sizeof(double) * (size_t)d);
    return e_best;
  }
  memcpy(x, best, sizeof(double) * (size_t)d);
  double rho = cone_rho(d, Wcc);
  for (int it = 0; it < s->max_it && e_best > goal; it++) { /* sliding: Newton on the AC function */
    if (local_newton_step(d, mu, rho, Wcc, ql, x) != 0) break;
    keep_best(d, local_error(d, mu, 1.0, Wcc, ql, x), x, best, &e_best);
  }
  if (e_best > goal) local_fixed_point(s, d, mu, Wcc, ql, goal, best, &e_best);
  memcpy(r, best, sizeof(double) * (size_t)d);
  return e_best;
}

void cone_block(const struct cp_problem *p, int c, double *Wcc)
{
  int d = p->fc_dim, n = p->n;
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d; j++)
      Wcc[i * d + j] = p->M[(size_t)(c * d + i) * n + c * d + j];
}

double cone_residual(const struct cp_problem *p, const double *r, double *u)
{
  int n = p->n;
  memcpy(u, p->q, sizeof(double) * (size_t)n);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, p->M, n, r, 1, 1.0, u, 1);
  return cp_fc_residual(p, r, u);
}
