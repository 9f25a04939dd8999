/* two_spheres_exact.c — the sphere on two spheres (Chakraborty et al. Sec. 6.2) as a smooth DAE between
 * events. State y = (x, v, w, W_f): centre, velocity, angular velocity, work of friction; the orientation is
 * left out (a uniform sphere: nothing depends on it). Per contact c with the fixed sphere (c_c, R_c):
 *   d = |x - c_c|, n = (x - c_c) / d, gap g = d - R_c - r, contact point p = x - r n,
 *   slip u = v + w x (p - x) = v + r n x w (n.u = n.v), u_t = u - n (n.v), spin w_r = w.n,
 *   n' = (v - n (n.v)) / d.
 * Contact wrench on the sphere: force f_n n + f_t at p (torque -r n x f_t) and the torsional moment f_r n.
 * Modes (index reduction: every constraint at acceleration level, its multipliers solved with the motion):
 *   sliding    one row  n.a = -n'.v (g'' = 0 given g = g' = 0); friction by maximum dissipation on the
 *              ellipsoid (eq. (5), e_t = e_o): f_t = -mu f_n e_t^2 u_t / s, f_r = -mu f_n e_r^2 w_r / s,
 *              s = sqrt(e_t^2 |u_t|^2 + e_r^2 w_r^2), so |(f_t, f_r)|_e = sqrt(|f_t|^2/e_t^2 + f_r^2/e_r^2)
 *              = mu f_n; one unknown f_n.
 *   sticking   four rows u' = a + r n x alpha + r n' x w = 0 and w_r' = n.alpha + n'.w = 0 (rolling without
 *              slip or spin); four unknowns: the contact force (3) and f_r.
 * With M = diag(m I, J I), nu = (v, w), G the wrench columns and A nu' = b the rows:
 *   M nu' = (F, 0) + G lambda,  (A M^-1 G) lambda = b - A M^-1 (F, 0).
 * Events (looked for every 1 ms, refined by Illinois regula falsi to t_tol): f_n = 0 (separation), mu f_n -
 * |(f_t, f_r)|_e = 0 (stick to slide), the slip's projection on its direction at the interval's start = 0
 * (slide to stick), a separated contact's gap < 0 (an impact: not modelled, an error); and, recorded only,
 * a sliding contact's slip speed |u_t| passing slip_speed (what a time stepper's slide detection sees). A
 * slip that starts on the cone's edge (continuous forces) has no slip acceleration to point it: its friction
 * is held at the direction it had when sticking for -onset seconds; one that starts off the cone (at rest at
 * t = 0, or a force jump) takes the direction consistent with its own slip acceleration (a fixed point), held
 * alike. Checks: energy balance E(T) - E(0) = F.(x(T) - x0) + W_f, and the active constraints' drift. */
#include "two_spheres_exact.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { NY = 10, MAXROW = 8, NG = 6 };     /* state size, constraint rows at most, event functions */
static const double look_interval = 1e-3; /* events are looked for at these intervals [s] */

struct kin {
  double n[3], d, gap, vn, ndot[3], ut[3], wr;
};

struct dae {
  const struct two_spheres_problem *p;
  enum two_spheres_mode mode[2];
  int hold[2];       /* 1: friction held at phi (a slip's onset) */
  double phi[2][4];  /* held direction: tangential (world frame), torsional; ellipsoidal norm 1 */
  double sref[2][4]; /* a sliding contact's slip at the look interval's start */
  int watch[2];      /* 1 until a sliding contact's slip speed first exceeds p->slip_speed */
  long evals;
};

struct forces {
  double acc[6];
  double fn[2], ft[2][3], fr[2], power; /* power: of the friction */
};

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross3(const double *a, const double *b, double *c)
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static double ellnorm(const struct two_spheres_problem *p, const double *ft, double fr)
{
  return sqrt(dot3(ft, ft) / (p->e_t * p->e_t) + fr * fr / (p->e_r * p->e_r));
}

static void kin_eval(const struct two_spheres_problem *p, int c, const double *y, struct kin *k)
{
  double dv[3], nxw[3];
  for (int i = 0; i < 3; i++)
    dv[i] = y[i] - p->centre[c][i];
  k->d = sqrt(dot3(dv, dv));
  for (int i = 0; i < 3; i++)
    k->n[i] = dv[i] / k->d;
  k->gap = k->d - p->radius[c] - p->r;
  k->vn = dot3(k->n, y + 3);
  cross3(k->n, y + 6, nxw);
  for (int i = 0; i < 3; i++) {
    k->ndot[i] = (y[3 + i] - k->vn * k->n[i]) / k->d;
    k->ut[i] = y[3 + i] + p->r * nxw[i] - k->vn * k->n[i];
  }
  k->wr = dot3(y + 6, k->n);
}

/* Friction per unit normal force of a sliding contact: (dt, *dr). */
static void slide_direction(const struct dae *X, int c, const struct kin *k, double *dt, double *dr)
{
  const struct two_spheres_problem *p = X->p;
  if (X->hold[c]) { /* the held direction, kept tangent as n turns */
    double pt[3], pn = dot3(X->phi[c], k->n);
    for (int i = 0; i < 3; i++)
      pt[i] = X->phi[c][i] - pn * k->n[i];
    double sc = ellnorm(p, pt, X->phi[c][3]);
    for (int i = 0; i < 3; i++)
      dt[i] = sc > 0 ? p->mu * pt[i] / sc : 0.0;
    *dr = sc > 0 ? p->mu * X->phi[c][3] / sc : 0.0;
    return;
  }
  double et2 = p->e_t * p->e_t, er2 = p->e_r * p->e_r;
  double s = sqrt(et2 * dot3(k->ut, k->ut) + er2 * k->wr * k->wr);
  for (int i = 0; i < 3; i++)
    dt[i] = s > 0 ? -p->mu * et2 * k->ut[i] / s : 0.0;
  *dr = s > 0 ? -p->mu * er2 * k->wr / s : 0.0;
}

/* Solves the n x n system S x = r in place (partial pivoting); 1 when singular. */
static int solve_small(int n, double *S, double *r)
{
  for (int j = 0; j < n; j++) {
    int piv = j;
    for (int i = j + 1; i < n; i++)
      if (fabs(S[i * n + j]) > fabs(S[piv * n + j])) piv = i;
    if (fabs(S[piv * n + j]) < 1e-300) return 1;
    for (int k = 0; k < n && piv != j; k++) {
      double tmp = S[j * n + k];
      S[j * n + k] = S[piv * n + k], S[piv * n + k] = tmp;
    }
    double tr = r[j];
    r[j] = r[piv], r[piv] = tr;
    for (int i = j + 1; i < n; i++) {
      double f = S[i * n + j] / S[j * n + j];
      for (int k = j; k < n; k++)
        S[i * n + k] -= f * S[j * n + k];
      r[i] -= f * r[j];
    }
  }
  for (int j = n - 1; j >= 0; j--) {
    for (int k = j + 1; k < n; k++)
      r[j] -= S[j * n + k] * r[k];
    r[j] /= S[j * n + j];
  }
  return 0;
}

/* Appends contact c's wrench columns (G, column-major 6 per column) and acceleration rows (A, 6 per row),
 * with their right-hand sides b; returns the new count. */
static int contact_rows(const struct dae *X, int c, const double *y, const struct kin *k, double *G,
                        double *A, double *b, int nr)
{
  const double r = X->p->r, *v = y + 3, *w = y + 6;
  double t[3];
  if (X->mode[c] == TWO_SPHERES_SLIDING) {
    double dt[3], dr;
    slide_direction(X, c, k, dt, &dr);
    double f[3] = {k->n[0] + dt[0], k->n[1] + dt[1], k->n[2] + dt[2]};
    cross3(k->n, dt, t);
    for (int i = 0; i < 3; i++) {
      G[6 * nr + i] = f[i];
      G[6 * nr + 3 + i] = -r * t[i] + dr * k->n[i];
      A[6 * nr + i] = k->n[i], A[6 * nr + 3 + i] = 0.0;
    }
    b[nr] = -dot3(k->ndot, v);
    return nr + 1;
  }
  if (X->mode[c] != TWO_SPHERES_STICKING) return nr;
  double ndw[3];
  cross3(k->ndot, w, ndw);
  for (int j = 0; j < 3; j++, nr++) { /* u_j: row (e_j, r [n]x_j), column its transpose (e_j, -r n x e_j) */
    double e[3] = {0, 0, 0};
    e[j] = 1.0;
    cross3(k->n, e, t);
    for (int i = 0; i < 3; i++) {
      G[6 * nr + i] = e[i], G[6 * nr + 3 + i] = -r * t[i];
      A[6 * nr + i] = e[i], A[6 * nr + 3 + i] = -r * t[i];
    }
    b[nr] = -r * ndw[j];
  }
  for (int i = 0; i < 3; i++) { /* the spin w.n */
    G[6 * nr + i] = A[6 * nr + i] = 0.0;
    G[6 * nr + 3 + i] = A[6 * nr + 3 + i] = k->n[i];
  }
  b[nr] = -dot3(k->ndot, w);
  return nr + 1;
}

/* The accelerations and contact forces at y in the current modes; 1 when the rows are dependent. */
static int dae_forces(struct dae *X, const double *y, struct forces *f)
{
  const struct two_spheres_problem *p = X->p;
  const double minv[6] = {1 / p->m, 1 / p->m, 1 / p->m, 1 / p->J, 1 / p->J, 1 / p->J};
  const double F[6] = {p->force[0], p->force[1], p->force[2], 0, 0, 0};
  double G[6 * MAXROW] = {0}, A[6 * MAXROW] = {0}, b[MAXROW] = {0}, S[MAXROW * MAXROW] = {0};
  struct kin k[2];
  int start[2], nr = 0;
  for (int c = 0; c < 2; c++) {
    kin_eval(p, c, y, &k[c]);
    start[c] = nr;
    nr = contact_rows(X, c, y, &k[c], G, A, b, nr);
  }
  for (int i = 0; i < nr; i++) {
    for (int j = 0; j < nr; j++) {
      S[i * nr + j] = 0.0;
      for (int l = 0; l < 6; l++)
        S[i * nr + j] += A[6 * i + l] * minv[l] * G[6 * j + l];
    }
    for (int l = 0; l < 6; l++)
      b[i] -= A[6 * i + l] * minv[l] * F[l];
  }
  if (solve_small(nr, S, b)) return 1;
  for (int l = 0; l < 6; l++) {
    double s = F[l];
    for (int j = 0; j < nr; j++)
      s += G[6 * j + l] * b[j];
    f->acc[l] = minv[l] * s;
  }
  f->power = 0.0;
  for (int c = 0; c < 2; c++) {
    const double *lam = b + start[c];
    f->fn[c] = f->fr[c] = 0.0;
    f->ft[c][0] = f->ft[c][1] = f->ft[c][2] = 0.0;
    if (X->mode[c] == TWO_SPHERES_SLIDING) {
      double dt[3], dr;
      slide_direction(X, c, &k[c], dt, &dr);
      f->fn[c] = lam[0];
      for (int i = 0; i < 3; i++)
        f->ft[c][i] = lam[0] * dt[i];
      f->fr[c] = lam[0] * dr;
      f->power += dot3(f->ft[c], k[c].ut) + f->fr[c] * k[c].wr;
    } else if (X->mode[c] == TWO_SPHERES_STICKING) {
      f->fn[c] = dot3(lam, k[c].n);
      for (int i = 0; i < 3; i++)
        f->ft[c][i] = lam[i] - f->fn[c] * k[c].n[i];
      f->fr[c] = lam[3];
    }
  }
  return 0;
}

static int dae_rhs(double t, const double y[], double dy[], void *params)
{
  struct dae *X = params;
  struct forces f;
  (void)t;
  X->evals++;
  if (dae_forces(X, y, &f)) return GSL_EBADFUNC;
  for (int i = 0; i < 3; i++)
    dy[i] = y[3 + i];
  for (int i = 0; i < 6; i++)
    dy[3 + i] = f.acc[i];
  dy[9] = f.power;
  return GSL_SUCCESS;
}

/* A contact's slip (e_t u_t, e_r w_r) at y and its slip acceleration given the accelerations acc. */
static void slip_of(const struct two_spheres_problem *p, int c, const double *y, const double *acc, double *s,
                    double *as)
{
  struct kin k;
  kin_eval(p, c, y, &k);
  for (int i = 0; i < 3; i++)
    s[i] = p->e_t * k.ut[i];
  s[3] = p->e_r * k.wr;
  if (!acc) return;
  double nxa[3], ndw[3], au[3];
  cross3(k.n, acc + 3, nxa);
  cross3(k.ndot, y + 6, ndw);
  for (int i = 0; i < 3; i++)
    au[i] = acc[i] + p->r * (nxa[i] + ndw[i]);
  double aun = dot3(au, k.n);
  for (int i = 0; i < 3; i++)
    as[i] = p->e_t * (au[i] - aun * k.n[i]);
  as[3] = p->e_r * (dot3(k.n, acc + 3) + dot3(k.ndot, y + 6));
}

/* Event functions at y: g[2c] the normal force (the gap when separated), g[2c + 1] the cone's margin when
 * sticking, the slip along its reference when sliding (1 while held or separated); g[4 + c] the slip-speed
 * threshold's margin slip_speed - |u_t| while watched and sliding (else 1): not an event of the motion. */
static int dae_events(struct dae *X, const double *y, double *g)
{
  const struct two_spheres_problem *p = X->p;
  struct forces f;
  if (dae_forces(X, y, &f)) return 1;
  for (int c = 0; c < 2; c++) {
    g[2 * c + 1] = g[4 + c] = 1.0;
    if (X->mode[c] == TWO_SPHERES_SEPARATED) {
      struct kin k;
      kin_eval(p, c, y, &k);
      g[2 * c] = k.gap;
      continue;
    }
    g[2 * c] = f.fn[c];
    if (X->mode[c] == TWO_SPHERES_STICKING) g[2 * c + 1] = p->mu * f.fn[c] - ellnorm(p, f.ft[c], f.fr[c]);
    if (X->mode[c] == TWO_SPHERES_SLIDING && !X->hold[c]) {
      double s[4];
      slip_of(p, c, y, NULL, s, NULL);
      g[2 * c + 1] = 0.0;
      for (int i = 0; i < 4; i++)
        g[2 * c + 1] += s[i] * X->sref[c][i];
    }
    if (X->mode[c] == TWO_SPHERES_SLIDING && X->watch[c]) {
      struct kin k;
      kin_eval(p, c, y, &k);
      g[4 + c] = p->slip_speed - sqrt(dot3(k.ut, k.ut));
    }
  }
  return 0;
}

/* Integrates from (t0, y0) to t1 into y1. */
static int dae_advance(gsl_odeiv2_driver *d, double t0, const double *y0, double t1, double *y1)
{
  double t = t0;
  memcpy(y1, y0, NY * sizeof *y1);
  if (t1 <= t0) return 0;
  gsl_odeiv2_driver_reset(d);
  return gsl_odeiv2_driver_apply(d, &t, t1, y1) != GSL_SUCCESS;
}

/* The direction of a slip from rest consistent with its own slip acceleration: phi = -E a_s / |a_s|_e
 * (E = diag(e_t, e_t, e_t, e_r) scaling, a_s the scaled slip acceleration), by fixed-point iteration from
 * the frictionless slip acceleration, for every contact whose hold flag is set (both at once). */
static int slip_start_direction(struct dae *X, const double *y)
{
  const struct two_spheres_problem *p = X->p;
  for (int c = 0; c < 2; c++)
    if (X->hold[c]) memset(X->phi[c], 0, sizeof X->phi[c]);
  for (int it = 0; it < 2000; it++) {
    struct forces f;
    double change = 0.0;
    if (dae_forces(X, y, &f)) return 1;
    for (int c = 0; c < 2; c++) {
      double s[4], as[4], na = 0.0, nw[4];
      if (!X->hold[c]) continue;
      slip_of(p, c, y, f.acc, s, as);
      for (int i = 0; i < 4; i++)
        na += as[i] * as[i];
      if (!(na > 0)) return 1;
      for (int i = 0; i < 4; i++) /* -E (E a_s) / |E a_s| with E a_s = as: e_t^2 a_t / s, e_r^2 a_r / s */
        nw[i] = -(i < 3 ? p->e_t : p->e_r) * as[i] / sqrt(na);
      for (int i = 0; i < 4; i++) { /* damped: the plain iteration can cycle between two directions */
        double nv = 0.5 * (X->phi[c][i] + nw[i]);
        change = fmax(change, fabs(nv - X->phi[c][i]));
        X->phi[c][i] = nv;
      }
      double sc = ellnorm(p, X->phi[c], X->phi[c][3]);
      for (int i = 0; i < 4; i++)
        X->phi[c][i] /= sc;
    }
    if (change < 1e-15) return 0;
  }
  return 1;
}

struct run {
  struct dae X;
  gsl_odeiv2_driver *d;
  double t, y[NY], hold_end;
  struct two_spheres_answer *a;
};

static int record_event(struct run *R, int c, enum two_spheres_mode to, char *msg, size_t len)
{
  struct two_spheres_answer *a = R->a;
  if (a->n_events == TWO_SPHERES_MAX_EVENTS) {
    snprintf(msg, len, "more than %d contact events by t = %.6g s", TWO_SPHERES_MAX_EVENTS, R->t);
    return 1;
  }
  a->ev[a->n_events++] = (struct two_spheres_event){R->t, c, R->X.mode[c], to};
  if (to == TWO_SPHERES_SEPARATED && a->t_sep[c] < 0) a->t_sep[c] = R->t;
  if (to == TWO_SPHERES_SLIDING && a->t_slide[c] < 0) a->t_slide[c] = R->t;
  R->X.mode[c] = to;
  return 0;
}

/* The largest violation of the active contacts' position and velocity constraints so far. */
static void check_drift(struct run *R)
{
  for (int c = 0; c < 2; c++) {
    struct kin k;
    if (R->X.mode[c] == TWO_SPHERES_SEPARATED) continue;
    kin_eval(R->X.p, c, R->y, &k);
    R->a->gap_drift = fmax(R->a->gap_drift, fabs(k.gap));
    R->a->vn_drift = fmax(R->a->vn_drift, fabs(k.vn));
  }
}

/* A sticking contact whose friction reached the cone's edge starts to slide: friction held at its direction
 * there for the onset. */
static int slip_on_edge(struct run *R, int c, char *msg, size_t len)
{
  struct forces f;
  if (dae_forces(&R->X, R->y, &f)) {
    snprintf(msg, len, "dependent constraint rows at t = %.12g s", R->t);
    return 1;
  }
  double sc = ellnorm(R->X.p, f.ft[c], f.fr[c]);
  for (int i = 0; i < 3; i++)
    R->X.phi[c][i] = f.ft[c][i] / sc;
  R->X.phi[c][3] = f.fr[c] / sc;
  R->X.hold[c] = 1;
  R->hold_end = R->t + R->X.p->onset;
  return record_event(R, c, TWO_SPHERES_SLIDING, msg, len);
}

/* After an event: a contact whose normal force is negative separates, a sticking one off its cone slides
 * (the direction from its slip acceleration), until the modes are consistent. */
static int settle(struct run *R, char *msg, size_t len)
{
  const struct two_spheres_problem *p = R->X.p;
  for (int round = 0; round < 4; round++) {
    struct forces f;
    int changed = 0;
    if (dae_forces(&R->X, R->y, &f)) {
      snprintf(msg, len, "dependent constraint rows at t = %.12g s", R->t);
      return 1;
    }
    for (int c = 0; c < 2 && !changed; c++) {
      if (R->X.mode[c] != TWO_SPHERES_SEPARATED && f.fn[c] < 0) {
        if (record_event(R, c, TWO_SPHERES_SEPARATED, msg, len)) return 1;
        changed = 1;
      } else if (R->X.mode[c] == TWO_SPHERES_STICKING &&
                 p->mu * f.fn[c] - ellnorm(p, f.ft[c], f.fr[c]) < -1e-9 * fabs(f.fn[c])) {
        R->X.hold[c] = 1;
        if (record_event(R, c, TWO_SPHERES_SLIDING, msg, len) || slip_start_direction(&R->X, R->y)) {
          snprintf(msg, len, "no consistent slip direction for contact %d at t = %.12g s", c + 1, R->t);
          return 1;
        }
        R->hold_end = R->t + p->onset;
        changed = 1;
      }
    }
    if (!changed) return 0;
  }
  snprintf(msg, len, "no consistent contact modes at t = %.12g s", R->t);
  return 1;
}

/* The modes at rest at t = 0: the first of (slide, stick), (stick, slide), (slide, slide) whose forces are
 * consistent (normal forces >= 0, sticking friction inside its cone); both sticking is statically
 * indeterminate (eight rows on six velocities) and is not tried. */
static int initial_modes(struct run *R, char *msg, size_t len)
{
  static const enum two_spheres_mode tries[3][2] = {{TWO_SPHERES_SLIDING, TWO_SPHERES_STICKING},
                                                    {TWO_SPHERES_STICKING, TWO_SPHERES_SLIDING},
                                                    {TWO_SPHERES_SLIDING, TWO_SPHERES_SLIDING}};
  const struct two_spheres_problem *p = R->X.p;
  for (int k = 0; k < 3; k++) {
    struct forces f;
    int ok = 1;
    for (int c = 0; c < 2; c++) {
      R->X.mode[c] = tries[k][c];
      R->X.hold[c] = tries[k][c] == TWO_SPHERES_SLIDING;
    }
    if (slip_start_direction(&R->X, R->y) || dae_forces(&R->X, R->y, &f)) continue;
    for (int c = 0; c < 2; c++)
      ok = ok && f.fn[c] >= 0 &&
           (R->X.mode[c] != TWO_SPHERES_STICKING || p->mu * f.fn[c] >= ellnorm(p, f.ft[c], f.fr[c]));
    if (!ok) continue;
    for (int c = 0; c < 2; c++) {
      R->a->mode0[c] = R->X.mode[c];
      if (R->X.mode[c] == TWO_SPHERES_SLIDING) R->a->t_slide[c] = 0.0;
    }
    R->hold_end = p->onset;
    return 0;
  }
  snprintf(msg, len, "no consistent contact modes at rest at t = 0");
  return 1;
}

/* Event function i's root in (R->t, tb] by Illinois regula falsi (every fourth step a bisection), each trial
 * integrated from the interval's start; *root: the bracket's right end, where g_i <= 0. */
static int refine(struct run *R, int i, double ga, double gb, double tb, double *root)
{
  double a = R->t, b = tb, ym[NY], g[NG];
  int side = 0;
  for (int it = 0; it < 300 && b - a > R->X.p->t_tol; it++) {
    double m = it % 4 == 3 ? 0.5 * (a + b) : (a * gb - b * ga) / (gb - ga);
    if (!(m > a && m < b)) m = 0.5 * (a + b);
    if (dae_advance(R->d, R->t, R->y, m, ym) || dae_events(&R->X, ym, g)) return 1;
    if (g[i] > 0) {
      a = m, ga = g[i];
      if (side == 1) gb *= 0.5;
      side = 1;
    } else {
      b = m, gb = g[i];
      if (side == -1) ga *= 0.5;
      side = -1;
    }
  }
  *root = b;
  return 0;
}

/* One look interval: integrates to its end, or to the earliest event in it and applies that event. */
static int look(struct run *R, char *msg, size_t len)
{
  const struct two_spheres_problem *p = R->X.p;
  int held = R->X.hold[0] || R->X.hold[1];
  double t1 = fmin(R->t + look_interval, p->t_end), y1[NY], g0[NG], g1[NG], root = 0.0;
  if (held) t1 = fmin(t1, R->hold_end);
  for (int c = 0; c < 2; c++)
    slip_of(p, c, R->y, NULL, R->X.sref[c], NULL);
  if (dae_events(&R->X, R->y, g0) || dae_advance(R->d, R->t, R->y, t1, y1) || dae_events(&R->X, y1, g1)) {
    snprintf(msg, len, "integration failed in [%.12g, %.12g] s", R->t, t1);
    return 1;
  }
  int first = -1;
  for (int i = 0; i < NG; i++) {
    int c = i < 4 ? i / 2 : i - 4;
    if (R->X.mode[c] == TWO_SPHERES_SEPARATED) {
      if (i % 2 == 0 && g1[i] < -1e3 * p->t_tol) {
        snprintf(msg, len, "contact %d closes again by t = %.12g s (impacts are not modelled)", c + 1, t1);
        return 1;
      }
      continue;
    }
    if (i < 4 && i % 2 == 1 && p->mu == 0) continue; /* frictionless: no stick or slip */
    double ri;
    if (!(g0[i] > 0 && g1[i] <= 0)) continue;
    if (refine(R, i, g0[i], g1[i], t1, &ri)) {
      snprintf(msg, len, "integration failed refining an event in [%.12g, %.12g] s", R->t, t1);
      return 1;
    }
    if (first < 0 || ri < root) first = i, root = ri;
  }
  if (first < 0) {
    R->t = t1;
    memcpy(R->y, y1, sizeof y1);
    if (held && R->t >= R->hold_end) R->X.hold[0] = R->X.hold[1] = 0;
    return 0;
  }
  if (dae_advance(R->d, R->t, R->y, root, y1)) return 1;
  R->t = root;
  memcpy(R->y, y1, sizeof y1);
  check_drift(R);
  if (first >= 4) { /* the slip speed's threshold: recorded, the motion goes on */
    R->a->t_slip_speed[first - 4] = R->t;
    R->X.watch[first - 4] = 0;
    return 0;
  }
  int c = first / 2, rc;
  if (first % 2 == 0)
    rc = record_event(R, c, TWO_SPHERES_SEPARATED, msg, len);
  else if (R->X.mode[c] == TWO_SPHERES_STICKING)
    rc = slip_on_edge(R, c, msg, len);
  else
    rc = record_event(R, c, TWO_SPHERES_STICKING, msg, len);
  return rc || settle(R, msg, len);
}

void two_spheres_exact_paper(struct two_spheres_problem *p)
{
  *p = (struct two_spheres_problem){.centre = {{0, 0, 0}, {0, 11.4, 0}},
                                    .radius = {10.0, 9.0},
                                    .r = 1.0,
                                    .m = 1.0,
                                    .J = 0.4,
                                    .x0 = {0.0, 6.62105263157895, 8.78417110772903},
                                    .force = {1.0, 2.6, -9.81},
                                    .mu = 0.2,
                                    .e_t = 1.0,
                                    .e_r = 0.3,
                                    .t_end = 4.0,
                                    .tol = 1e-12,
                                    .t_tol = 1e-12,
                                    .onset = 1e-6};
}

int two_spheres_exact(const struct two_spheres_problem *p, struct two_spheres_answer *a, char *msg,
                      size_t len)
{
  struct run R = {.X = {.p = p}, .a = a};
  gsl_odeiv2_system sys = {dae_rhs, NULL, NY, &R.X};
  int rc = 1;
  memset(a, 0, sizeof *a);
  a->t_slide[0] = a->t_slide[1] = a->t_sep[0] = a->t_sep[1] = -1.0;
  a->t_slip_speed[0] = a->t_slip_speed[1] = -1.0;
  R.X.watch[0] = R.X.watch[1] = p->slip_speed > 0;
  memcpy(R.y, p->x0, sizeof p->x0);
  R.d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-6, p->tol, p->tol);
  if (!R.d) {
    snprintf(msg, len, "out of memory");
    return 1;
  }
  if (initial_modes(&R, msg, len)) goto cleanup;
  check_drift(&R);
  while (R.t < p->t_end)
    if (look(&R, msg, len)) goto cleanup;
  check_drift(&R);
  memcpy(a->x, R.y, sizeof a->x);
  memcpy(a->v, R.y + 3, sizeof a->v);
  memcpy(a->w, R.y + 6, sizeof a->w);
  double e = 0.5 * p->m * dot3(a->v, a->v) + 0.5 * p->J * dot3(a->w, a->w), dx[3];
  for (int i = 0; i < 3; i++)
    dx[i] = a->x[i] - p->x0[i];
  a->work_load = dot3(p->force, dx);
  a->work_friction = R.y[9];
  a->energy_residual = fabs(e - a->work_load - a->work_friction);
  rc = 0;
cleanup:
  a->evaluations = R.X.evals;
  gsl_odeiv2_driver_free(R.d);
  return rc;
}
