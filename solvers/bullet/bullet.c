/* bullet.c — solvers `bullet_dantzig`, `bullet_lemke`, `bullet_pgs`: Bullet's MLCP solvers (bullet.h) on
 * LCPs, mixed LCPs, box MCPs and boxed LCPs with a friction index (cp.h CP_BOXED: lo, hi and findex are
 * handed over as Bullet's lo, hi and limitDependency, the arrays an engine's btMLCPSolver builds; Bullet's
 * Dantzig takes the friction boxes from the normals' x as ODE's dLCP does, its PGS bounds x_i by lo_i x_k,
 * hi_i x_k at each sweep, and its Lemke ignores the dependency: it solves the fixed box [-mu, mu], which the
 * checker then judges against the problem's own boxes). Bullet's answer to "solved?" is a claim like any
 * solver's: the harness's checker decides (a true with a failing answer becomes numerical_failure there); a
 * false is reported as numerical_failure with no answer. The problem is copied into Bullet's matrix type by
 * setup, outside the clock (an engine assembles into it directly); the copies Bullet's solvers make inside
 * solveMLCP are theirs and timed. bullet_dantzig needs lo <= 0 <= hi (Bullet's restriction; otherwise
 * not_applicable). bullet_pgs runs -bullet_pgs_check_every sweeps per call (Bullet's own stop, the sum of
 * squared steps, is off) and the checker between calls, up to -cp_max_it sweeps (default 10000);
 * bullet_lemke's pivot limit is -cp_max_it (default Bullet's 1000). Infinite bounds are given to Bullet as
 * +-1e18 (-bullet_bound_clip). */
#include "bullet.h"

#include "solver.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

struct bullet_data {
  int check_every;   /* -bullet_pgs_check_every */
  double bound_clip; /* -bullet_bound_clip */
  struct bullet_ws *ws;
  const struct cp_problem *loaded; /* the problem setup copied in */
  double *check;                   /* n doubles for the checker between PGS calls */
  int cap;
};

static const struct option_decl bullet_options[] = {
    {"pgs_check_every", OPT_INT, offsetof(struct bullet_data, check_every), "100", "[1,1000000]",
     "bullet_pgs: sweeps per call of Bullet's PGS between the checker's tests"},
    {"bound_clip", OPT_REAL, offsetof(struct bullet_data, bound_clip), "1e18", "(0,inf)",
     "infinite bounds are handed to Bullet as +- this"},
};

static int bullet_create(struct solver *s)
{
  struct bullet_data *d = calloc(1, sizeof *d);
  if (!d) return 1;
  d->ws = bullet_ws_create();
  s->data = d;
  return d->ws == NULL;
}

static int bullet_setup(struct solver *s, const struct cp_problem *p)
{
  struct bullet_data *d = s->data;
  if (p->n > d->cap) {
    double *c = realloc(d->check, (size_t)p->n * sizeof *c);
    if (!c) return 1;
    d->check = c;
    d->cap = p->n;
  }
  d->loaded = NULL;
  if (bullet_ws_load(d->ws, p->n, p->M, p->q, p->lo, p->hi, p->findex, d->bound_clip)) return 1;
  d->loaded = p;
  return 0;
}

/* every lo 0 and hi inf: Bullet's Lemke has a plain LCP path for those */
static int bullet_plain_lcp(const struct cp_problem *p)
{
  for (int i = 0; i < p->n; i++)
    if (p->lo[i] != 0.0 || !isinf(p->hi[i])) return 0;
  return 1;
}

static int bullet_pgs_run(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct bullet_data *d = s->data;
  int max_sweeps = s->set.max_it > 0 ? s->set.max_it : 10000;
  struct cp_check c;
  r->status = SOLVE_MAX_ITERATIONS;
  for (r->iterations = 0; r->iterations < max_sweeps;) {
    int sweeps = max_sweeps - r->iterations < d->check_every ? max_sweeps - r->iterations : d->check_every;
    bullet_ws_solve(d->ws, BULLET_PGS, sweeps, 0, z);
    r->iterations += sweeps;
    cp_check(p, z, d->check, &c);
    if (c.nonfinite) {
      r->status = SOLVE_NAN_OR_INF;
      break;
    }
    if (cp_check_passes(&c, s->set.tol)) {
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

static int bullet_solve_with(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r,
                             enum bullet_method method)
{
  struct bullet_data *d = s->data;
  if (d->loaded != p && bullet_setup(s, p)) return 1;
  if (method == BULLET_PGS) return bullet_pgs_run(s, p, z, r);
  if (method == BULLET_DANTZIG)
    for (int i = 0; i < p->n; i++)
      if (p->lo[i] > 0.0 || p->hi[i] < 0.0) {
        r->status = SOLVE_NOT_APPLICABLE;
        snprintf(r->message, sizeof r->message, "Bullet's Dantzig needs lo <= 0 <= hi (row %d: [%g, %g])", i,
                 p->lo[i], p->hi[i]);
        return 0;
      }
  int limit = s->set.max_it > 0 ? s->set.max_it : 1000;
  int ok = bullet_ws_solve(d->ws, method, limit, bullet_plain_lcp(p), z);
  r->iterations = method == BULLET_LEMKE ? limit : 0; /* Bullet does not say how many it took */
  r->status = ok ? SOLVE_CONVERGED : SOLVE_NUMERICAL_FAILURE;
  if (!ok) {
    r->no_answer = 1;
    snprintf(r->message, sizeof r->message, "Bullet's solver returned false");
  }
  return 0;
}

static int bullet_dantzig_solve(struct solver *s, const struct cp_problem *p, double *z,
                                struct solve_result *r)
{
  return bullet_solve_with(s, p, z, r, BULLET_DANTZIG);
}

static int bullet_lemke_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  return bullet_solve_with(s, p, z, r, BULLET_LEMKE);
}

static int bullet_pgs_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  return bullet_solve_with(s, p, z, r, BULLET_PGS);
}

static void bullet_destroy(struct solver *s)
{
  struct bullet_data *d = s->data;
  if (d) {
    bullet_ws_destroy(&d->ws);
    free(d->check);
  }
  free(s->data);
  s->data = NULL;
}

static void bullet_view(const struct solver *s, FILE *out)
{
  const struct bullet_data *d = s->data;
  fprintf(out, "  Bullet 3.24 (double), pgs_check_every %d, bound_clip %g\n", d->check_every, d->bound_clip);
}

#define BULLET_TYPE(NAME, SUMMARY)                                                                           \
  const struct solver_type solver_type_##NAME = {                                                            \
      .name = #NAME,                                                                                         \
      .summary = (SUMMARY),                                                                                  \
      .kinds = CP_LCP | CP_MLCP | CP_BOX_MCP | CP_BOXED,                                                     \
      .options = bullet_options,                                                                             \
      .n_options = 2,                                                                                        \
      .option_prefix = "bullet_",                                                                            \
      .create = bullet_create,                                                                               \
      .setup = bullet_setup,                                                                                 \
      .solve = NAME##_solve,                                                                                 \
      .destroy = bullet_destroy,                                                                             \
      .view = bullet_view,                                                                                   \
  };

BULLET_TYPE(bullet_dantzig, "Bullet 3.24's btDantzigSolver (ODE's dLCP; symmetric M, lo <= 0 <= hi)")
BULLET_TYPE(bullet_lemke, "Bullet 3.24's btLemkeSolver")
BULLET_TYPE(bullet_pgs, "Bullet 3.24's btSolveProjectedGaussSeidel (sparse rows)")
