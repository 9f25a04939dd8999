/* newton.h — one semismooth Newton method fed by a callback table (Siconos' functions_LSA idea). De Luca,
 * Facchinei, Kanzow, Math. Prog. 75 (1996), Alg. 3.1: solve H d = -Phi, H in the generalised Jacobian;
 * if H is singular, d fails the descent test grad^T d <= -rho ||d||^p, or Armijo rejects it or cuts it
 * below lm_below, try Levenberg-Marquardt (H^T H + ||Phi|| I) d = -grad (Yamashita-Fukushima 2001: fast
 * at nonisolated solutions, e.g. 4 contacts of a rigid box), else d = -grad, grad = H^T Phi. Armijo on
 * Psi = 1/2 ||Phi||^2 (C^1, as for Fischer-Burmeister). LAPACKE LU / Cholesky; workspace once per solve. */
#ifndef CB_NEWTON_H
#define CB_NEWTON_H

#include "solver.h"

/* The problem as the Newton method sees it. Callbacks return 0 on success, nonzero when the value cannot
 * be computed at z (then the method stops with NEWTON_EVAL_FAILURE, or backtracks inside a line search). */
struct newton_linalg;

struct newton_problem {
  int n;
  void *ctx;
  int (*phi)(void *ctx, const double *z, double *phi);
  /* An element of the generalised Jacobian of Phi at z, dense row-major n x n; phi = Phi(z). z is usually,
   * not always, the point of the most recent phi call: a callback reusing what phi computed must check. */
  int (*jacobian)(void *ctx, const double *z, const double *phi, double *H);
  /* Optional merit; NULL means 1/2 ||phi||^2, which the gradient H^T Phi and the Armijo test assume. */
  double (*merit)(void *ctx, const double *phi);
  /* Optional stopping test on the problem's own measure (the natural-map residual), called after every
   * phi evaluation that is accepted; returns 1 to stop. NULL: stop when merit <= tol^2 / 2. */
  int (*converged)(void *ctx, const double *z, const double *phi, double *residual);
  /* Optional linear algebra of the backend's own (a sparse factorization): when set, jacobian is not
   * called and no n x n array is allocated. NULL: H dense, LAPACK LU / Cholesky. */
  const struct newton_linalg *linalg;
  /* Optional (dense H only): n entries the jacobian callback fills at each call; when the Newton step fails
   * or is cut below lm_below, the proximal step (H + diag(diag_shift)) d = -Phi is tried before
   * Levenberg-Marquardt (newton.c, newton_prox_step). NULL: none. */
  const double *diag_shift;
  /* Optional: a direction of the backend's own into d (n entries), tried before the Newton step H d = -Phi
   * and judged as it is (the descent test, then Armijo on the merit); taken when Armijo accepts it at a step
   * of at least lm_below, else the iteration goes on from its start as without it. Called after jacobian
   * (or linalg->assemble) at z, phi = Phi(z). Returns 0 with d filled, nonzero when it has none. fb_newton's
   * is the active-set Newton step of the natural map (fb_newton.c, fb_active_direction). NULL: none. */
  int (*direction)(void *ctx, const double *z, const double *phi, double *d);
};

/* The linear algebra newton_solve needs, for H an element of the generalised Jacobian kept by the backend.
 * All take the problem's ctx. Return 0 on success. */
struct newton_linalg {
  /* H at z (as jacobian: phi = Phi(z), z not necessarily the point of the last phi call) */
  int (*assemble)(void *ctx, const double *z, const double *phi);
  void (*mult_transpose)(void *ctx, const double *v, double *g); /* g = H^T v */
  /* H d = rhs, in place (d holds rhs on entry); > 0 when H is singular, < 0 on other failures */
  int (*solve)(void *ctx, double *d);
  /* (H^T H + lambda D) d = rhs in place, D = diag(H^T H) floored at DBL_EPSILON times its largest entry
   * when scaled, else I: the Levenberg-Marquardt step of newton.c */
  int (*solve_lm)(void *ctx, double lambda, int scaled, double *d);
};

struct newton_settings {
  int max_it;              /* Newton iterations (default 200) */
  double sigma;            /* Armijo constant: Psi(z + t d) <= Psi(z) + sigma t grad^T d (default 1e-4) */
  double beta;             /* backtracking ratio t <- beta t (default 0.5) */
  int max_backtracks;      /* line-search trials before line_search_failure (default 40) */
  double rho;              /* descent test constant (default 1e-8) */
  double p;                /* descent test exponent, > 2 (default 2.1) */
  int levenberg_marquardt; /* on a singular or rejected Newton step try (H^T H + lambda D) d = -H^T Phi
                            * before the gradient step (default 1) */
  double lm_below; /* also try Levenberg-Marquardt when Armijo cut the Newton step below this; the lower
                    * merit wins (default 0.02, i.e. after 6 halvings) */
  double lm_power; /* the Levenberg-Marquardt parameter is |Phi|^lm_power, in [1, 2] (Fan-Yuan 2005; 2 is
                    * Yamashita-Fukushima 2001) */
  int lm_scaled;   /* Marquardt's scaling: the parameter multiplies diag(H^T H) instead of I, so a column
                    * that is small only because of the state (a friction multiplier whose column is the
                    * friction impulse, near separation) is not damped to a standstill */
  int direction_refusals;     /* problem->direction refused this many times in a row (singular, no descent,
                               * Armijo below lm_below): the run stops asking for it (default 2) */
  int stall_window;           /* > 0: stop with NEWTON_STALLED when the merit has not halved over this many
                               * iterations (a crawl to a stationary point); 0: never (default) */
  double tol;                 /* used only when problem->converged is NULL */
  const struct solver *clock; /* for solver_out_of_time; may be NULL */
};

enum newton_reason {
  NEWTON_CONVERGED,
  NEWTON_MAX_ITERATIONS,
  NEWTON_LINE_SEARCH_FAILURE,
  NEWTON_NAN_OR_INF,
  NEWTON_TIME_LIMIT,
  NEWTON_EVAL_FAILURE,
  NEWTON_ALLOCATION_FAILURE,
  NEWTON_STALLED /* stall_window iterations without halving the merit */
};

struct newton_stats {
  int iterations;
  int lm_steps;        /* iterations that took the Levenberg-Marquardt step */
  int prox_steps;      /* iterations that took the proximal Newton step (diag_shift) */
  int direction_steps; /* iterations that took the backend's direction (direction) */
  int gradient_steps;  /* iterations that fell back to the steepest-descent direction */
  int singular;        /* iterations whose Newton matrix had a zero pivot */
  double merit;        /* final merit */
  double residual;     /* final value reported by problem->converged (or sqrt(2 merit)) */
};

void newton_settings_default(struct newton_settings *set);
const char *newton_reason_name(enum newton_reason r);
/* Runs the method from z (updated in place). */
enum newton_reason newton_solve(const struct newton_problem *prob, const struct newton_settings *set,
                                double *z, struct newton_stats *stats);

#endif
