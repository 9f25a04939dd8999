/* fb.h — what the Fischer-Burmeister semismooth Newton solvers share (fb_newton.c, the dense one, and
 * fb_newton_sparse.c): the per-row reformulation Phi_i and its generalised-Jacobian row coefficients
 * (De Luca-Facchinei-Kanzow, Math. Prog. 75 (1996); Billups 1995 eq. 2.9 for boxes; the formulas are
 * documented at the top of fb_newton.c), the options of the globalisation, and the run with the retry
 * without Levenberg-Marquardt and the status mapping. One definition, so the two solvers differ only in the
 * linear algebra of the Newton step. */
#ifndef CB_FB_H
#define CB_FB_H

#include "newton.h"

#include <math.h>
#include <stddef.h>

struct fb_data {
  struct newton_settings ns;
  int retry_plain; /* -fb_newton_retry_plain: a failed run with Levenberg-Marquardt is run again without */
};

/* The option rows of a struct fb_data placed at byte offset BASE of the solver's state (0 for fb_newton),
 * shared by both solvers so that their defaults cannot drift apart. */
#define FB_NEWTON_OPTION_ROWS(BASE)                                                                            \
  {"sigma", OPT_REAL, (BASE) + offsetof(struct fb_data, ns.sigma), "1e-4", "(0,0.5)", "Armijo constant"},      \
      {"beta", OPT_REAL, (BASE) + offsetof(struct fb_data, ns.beta),                                           \
       "0.5",  "(0,1)",  "backtracking ratio t <- beta t"},                                                    \
      {"max_backtracks",                                                                                       \
       OPT_INT,                                                                                                \
       (BASE) + offsetof(struct fb_data, ns.max_backtracks),                                                   \
       "40",                                                                                                   \
       "[1,inf)",                                                                                              \
       "line-search trials before line_search_failure"},                                                       \
      {"rho",  OPT_REAL,  (BASE) + offsetof(struct fb_data, ns.rho),                                           \
       "1e-8", "[0,inf)", "descent test: grad^T d <= -rho ||d||^p, else a gradient step (0: none)"},           \
      {"p", OPT_REAL, (BASE) + offsetof(struct fb_data, ns.p), "2.1", "(2,inf)", "descent test exponent"},     \
      {"lm", OPT_BOOL, (BASE) + offsetof(struct fb_data, ns.levenberg_marquardt),                              \
       "1",  NULL,     "Levenberg-Marquardt step when the Newton matrix is singular or the step is rejected"}, \
      {"lm_below", OPT_REAL,  (BASE) + offsetof(struct fb_data, ns.lm_below),                                  \
       "0.02",     "[0,inf)", "also try Levenberg-Marquardt when Armijo cut the Newton step below this"},      \
      {"lm_power",                                                                                             \
       OPT_REAL,                                                                                               \
       (BASE) + offsetof(struct fb_data, ns.lm_power),                                                         \
       "1.5",                                                                                                  \
       "[1,2]",                                                                                                \
       "Levenberg-Marquardt parameter |Phi|^lm_power (Fan-Yuan 2005; 2: Yamashita-Fukushima 2001)"},           \
      {"lm_scaled",                                                                                            \
       OPT_BOOL,                                                                                               \
       (BASE) + offsetof(struct fb_data, ns.lm_scaled),                                                        \
       "1",                                                                                                    \
       NULL,                                                                                                   \
       "Marquardt's scaling: damp by the parameter times diag(H^T H) instead of the identity"},                \
  {                                                                                                            \
    "retry_plain", OPT_BOOL, (BASE) + offsetof(struct fb_data, retry_plain), "1", NULL,                        \
        "a run with Levenberg-Marquardt that fails is run again from the start without it; the better is "     \
        "kept"                                                                                                 \
  }

static inline double fb_phi(double a, double b) { return a + b - hypot(a, b); }

/* Partial derivatives of phi(a, b); (1 - 1/sqrt 2) each at the kink a = b = 0. */
static inline void fb_dphi(double a, double b, double *da, double *db)
{
  double r = hypot(a, b);
  if (r > 0.0) {
    *da = 1.0 - a / r;
    *db = 1.0 - b / r;
  } else {
    *da = *db = 1.0 - M_SQRT1_2;
  }
}

/* Phi_i by the bounds of row i (fb_newton.c's header): F_i, phi(z - l, F), phi(u - z, -F) or Billups. */
static inline double fb_row_phi(double l, double u, double zi, double Fi)
{
  int hl = isfinite(l), hu = isfinite(u);
  if (!hl && !hu) return Fi;
  if (hl && !hu) return fb_phi(zi - l, Fi);
  if (!hl) return fb_phi(u - zi, -Fi);
  return fb_phi(zi - l, -fb_phi(u - zi, -Fi));
}

/* Row i of the generalised Jacobian is da e_i + db J_i. A lower-bound row with z_i = l_i and F_i = 0 is
 * degenerate: the caller passes has_y = 1 and y = (J e_beta)_i (DLFK Procedure 3.1), else has_y = 0. */
static inline void fb_row_slopes(double l, double u, double zi, double Fi, int has_y, double y, double *da,
                                 double *db)
{
  int hl = isfinite(l), hu = isfinite(u);
  if (!hl && !hu) {
    *da = 0.0; /* Phi_i = F_i: the row of J as it is */
    *db = 1.0;
  } else if (hl && !hu) {
    if (has_y) {
      double rho = hypot(1.0, y);
      *da = 1.0 - 1.0 / rho;
      *db = 1.0 - y / rho;
    } else {
      fb_dphi(zi - l, Fi, da, db);
    }
  } else if (!hl) {
    fb_dphi(u - zi, -Fi, da, db);
    *da = -*da; /* d/dz of (u - z) and of (-F) */
    *db = -*db;
  } else {
    double s = u - zi, t = -Fi, ps, pt, pa, pb;
    fb_dphi(s, t, &ps, &pt);
    double inner = fb_phi(s, t);
    fb_dphi(zi - l, -inner, &pa, &pb);
    /* Phi = phi(a, -inner): dPhi = pa e_i - pb (-ps e_i - pt J_i) */
    *da = pa + pb * ps;
    *db = pb * pt;
  }
}

/* Is row i degenerate in the sense of DLFK Procedure 3.1 (a lower bound only, both arguments zero)? */
static inline int fb_row_degenerate(double l, double u, double zi, double Fi)
{
  return isfinite(l) && !isfinite(u) && zi - l == 0.0 && Fi == 0.0;
}

/* Runs newton_solve on prob with d's settings (-cp_max_it from s), the retry without Levenberg-Marquardt
 * when d asks for it, and fills r (status, iterations, message). ns: d->ns with tol and clock set by the
 * caller. *stalled (may be NULL): 1 when the run stopped at ns.stall_window (status max_iterations).
 * Returns nonzero only on allocation failure. */
int fb_run(const struct fb_data *d, struct newton_settings ns, const struct newton_problem *prob, double *z,
           struct solve_result *r, int *stalled);

#endif
