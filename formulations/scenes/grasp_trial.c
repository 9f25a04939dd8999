/* grasp_trial.c — one grasp trial of the lock piece (Chakraborty et al., Sec. 6.4): the part's planar
 * motion on its support tripod (2.5D model, Berard et al. 2007: each support point with its own Coulomb
 * friction, bounded by mu_s N_i with N_i from statics) and the two fingertips closing symmetrically under
 * force control until they stop.
 *
 * Each step is the Stewart–Trinkle velocity-level LCP (Sec. 3, eq. (6) with the friction law linearised):
 * unknowns u = (v_x, v_y, omega, s_dot) after the step,
 *   M (u+ - u) = G^T z,    q+ = q + h u+,
 * z = [p_n | beta_f | lambda_f | beta_s | lambda_s | beta_m | lambda_m]:
 *   0 <= p_n      perp  gap / h + J_n u+                       >= 0   (finger-part contacts)
 *   0 <= beta_f   perp  lambda_f + (+-J_t) u+                  >= 0   (2 directions: exact in the plane)
 *   0 <= lambda_f perp  mu_g p_n - sum beta_f                  >= 0
 *   0 <= beta_s   perp  lambda_s + D_i u+                      >= 0   (n_dirs directions per support point)
 *   0 <= lambda_s perp  mu_s N_i h - sum beta_s                >= 0   (the bound is known: statics)
 *   0 <= beta_m   perp  lambda_m +- (s_dot + v_close)          >= 0   (the jaws' controller: a velocity motor
 *   0 <= lambda_m perp  2 F h - sum beta_m                     >= 0    whose force is bounded by F a jaw)
 * The contacts (normal, point, gap) come from the exact shapes at the step's start: geometrically
 * explicit, NOT the geometrically implicit NCP of Sec. 4 (that is a different formulation). The friction
 * disc of each support point is a polygon of n_dirs directions (the paper's law is the ellipse, eq. (5)).
 * Viscous support damping enters implicitly (M + h C). Everything is sized once in grasp_trial_create: a
 * step allocates nothing; the run ends at rest (no steps wasted on a still scene), when the jaws meet, on
 * a failed solve, or at the time limit. The free closing before the first touch is skipped: the jaws
 * start just outside the part, already at their commanded speed.
 * The geometrically implicit step (grasp_trial_implicit.c, Sec. 4's mixed NCP) is driven from here too
 * (implicit_step): its guesses (the last step's answers, the explicit LCP's), and a step that neither guess
 * lets the solver finish taken as two steps of half the length (-step_halvings). */
#include "grasp.h"
#include "grasp_implicit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NMAX (4 * GRASP_MAX_CONTACTS + 3 * (GRASP_MAX_DIRS + 1) + 3)

struct grasp_trial {
  struct solver *s;
  struct cp_problem *p;
  double G[NMAX][4]; /* generalized direction of each unknown's impulse (zero for the multipliers) */
  double z[NMAX], zprev[NMAX];               /* the scaled unknowns (assemble) */
  double scale[NMAX], row[NMAX];             /* unknown a is scale[a] z[a]; row a is divided by row[a] */
  int prev_key[GRASP_MAX_CONTACTS], prev_nc; /* the last step's contact set (finger, component) */
  int n_dirs;
  struct grasp_implicit *gi; /* the geometrically implicit step (NULL: the explicit LCP) */
  struct solver *lemke;      /* ... and its predictor's solver */
};

int grasp_trial_create(struct grasp_trial **t, struct solver *s, int n_dirs, enum grasp_formulation form)
{
  if (n_dirs < 3 || n_dirs > GRASP_MAX_DIRS) return 1;
  *t = calloc(1, sizeof **t);
  if (!*t) return 1;
  (*t)->s = s;
  (*t)->n_dirs = n_dirs;
  char msg[128];
  if (!((*t)->p = cp_lcp_create(NMAX)) ||
      (form == GRASP_GEOMETRIC_IMPLICIT &&
       (grasp_implicit_create(&(*t)->gi) || solver_create("lemke", &(*t)->lemke, msg, sizeof msg)))) {
    cp_destroy(&(*t)->p);
    grasp_implicit_destroy(&(*t)->gi);
    free(*t);
    *t = NULL;
    return 1;
  }
  snprintf((*t)->p->name, sizeof(*t)->p->name, "grasp step");
  return 0;
}

void grasp_trial_destroy(struct grasp_trial **t)
{
  if (!*t) return;
  cp_destroy(&(*t)->p);
  grasp_implicit_destroy(&(*t)->gi);
  solver_destroy(&(*t)->lemke);
  free(*t);
  *t = NULL;
}

static void set_row(double g[4], double a, double b, double c, double d)
{
  g[0] = a;
  g[1] = b;
  g[2] = c;
  g[3] = d;
}

/* Assembles the LCP of one step into t->p (size returned); minv: the diagonal of (M + h C)^{-1}. */
static int assemble(struct grasp_trial *t, const struct grasp_params *pp, const struct grasp_trial_opts *o,
                    const struct grasp_state *st, const struct grasp_contact *c, int nc, const double minv[4],
                    const double ustar[4])
{
  const int nd = t->n_dirs;
  const int n = 4 * nc + 3 * (nd + 1) + 3;
  const int i_bf = nc, i_lf = 3 * nc, i_bs = 4 * nc, i_ls = i_bs + 3 * nd, i_bm = i_ls + 3, i_lm = i_bm + 2;
  double(*G)[4] = t->G, *q = t->p->q, *M = t->p->M;
  const double h = o->h, cth = cos(st->q[2]), sth = sin(st->q[2]);
  memset(G, 0, (size_t)n * sizeof G[0]);
  memset(q, 0, (size_t)n * sizeof *q);
  for (int k = 0; k < nc; k++) {
    const double *nn = c[k].n, *r = c[k].r, tt[2] = {-nn[1], nn[0]};
    const double sg = c[k].finger;
    set_row(G[k], -nn[0], -nn[1], -(r[0] * nn[1] - r[1] * nn[0]), sg * nn[0]);
    set_row(G[i_bf + 2 * k], -tt[0], -tt[1], -(r[0] * tt[1] - r[1] * tt[0]), sg * tt[0]);
    for (int j = 0; j < 4; j++)
      G[i_bf + 2 * k + 1][j] = -G[i_bf + 2 * k][j];
    q[k] = c[k].gap / h;
  }
  for (int i = 0; i < 3; i++) {
    const double rho[2] = {cth * pp->tripod[i][0] - sth * pp->tripod[i][1],
                           sth * pp->tripod[i][0] + cth * pp->tripod[i][1]};
    for (int k = 0; k < nd; k++) {
      const double d[2] = {cos(2.0 * M_PI * k / nd), sin(2.0 * M_PI * k / nd)};
      set_row(G[i_bs + i * nd + k], d[0], d[1], rho[0] * d[1] - rho[1] * d[0], 0.0);
    }
    q[i_ls + i] = pp->mu_support * pp->normal[i] * h;
  }
  set_row(G[i_bm], 0, 0, 0, 1.0);
  set_row(G[i_bm + 1], 0, 0, 0, -1.0);
  q[i_bm] = pp->close_speed;
  q[i_bm + 1] = -pp->close_speed;
  q[i_lm] = 2.0 * pp->close_force * h;
  /* M = G Minv G^T, q += G u* */
  for (int a = 0; a < n; a++) {
    q[a] += G[a][0] * ustar[0] + G[a][1] * ustar[1] + G[a][2] * ustar[2] + G[a][3] * ustar[3];
    for (int b = 0; b < n; b++)
      M[a * n + b] = G[a][0] * minv[0] * G[b][0] + G[a][1] * minv[1] * G[b][1] + G[a][2] * minv[2] * G[b][2] +
                     G[a][3] * minv[3] * G[b][3];
  }
  /* the multipliers' couplings */
  for (int k = 0; k < nc; k++) {
    for (int j = 0; j < 2; j++) {
      M[(i_bf + 2 * k + j) * n + i_lf + k] = 1.0;
      M[(i_lf + k) * n + i_bf + 2 * k + j] = -1.0;
    }
    M[(i_lf + k) * n + k] = pp->mu_grip;
  }
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < nd; k++) {
      M[(i_bs + i * nd + k) * n + i_ls + i] = 1.0;
      M[(i_ls + i) * n + i_bs + i * nd + k] = -1.0;
    }
  for (int j = 0; j < 2; j++) {
    M[(i_bm + j) * n + i_lm] = 1.0;
    M[i_lm * n + i_bm + j] = -1.0;
  }
  /* Scaling (SI values differ by orders: impulses ~ F h = 1e-3 N s, velocities ~ v_close): impulse
   * unknowns in units of 2 F h, the multipliers (slip speeds) in units of v_close; each row by the unit of
   * its own complementary quantity's partner, so that complementarity is kept and the harness's relative
   * tolerance means the same everywhere (an absolute 1e-8 on 1e-3 impulses would be loose, on 1e-8 tight). */
  const double P = 2.0 * pp->close_force * h, V = pp->close_speed;
  for (int a = 0; a < n; a++) {
    const int mult = (a >= i_lf && a < i_bs) || (a >= i_ls && a < i_bm) || a == i_lm;
    t->scale[a] = mult ? V : P;
    t->row[a] = mult ? P : V; /* the row's unit: a velocity for an impulse unknown, and back */
  }
  for (int a = 0; a < n; a++) {
    const double ra = t->row[a];
    q[a] /= ra;
    for (int b = 0; b < n; b++)
      M[a * n + b] *= t->scale[b] / ra;
  }
  t->p->n = n;
  return n;
}

/* No contact, the part still and the jaws at their commanded speed: nothing happens until a finger
 * reaches the part, so the jaws advance in one go to half the margin from it (each gap shrinks by at most
 * the jaws' travel: d gap / d s = cos phi <= 1), or to where they meet. Returns 1 when it moved them. */
static int free_jump(struct grasp_state *st, const struct grasp_params *pp, const struct grasp_trial_opts *o,
                     struct grasp_result *r)
{
  const double still = 1e-9; /* [m/s]: a part this slow is at rest on its support (friction holds it) */
  if (fabs(st->u[0]) > still || fabs(st->u[1]) > still || fabs(st->u[2]) * GRASP_DISC_RADIUS > still ||
      fabs(st->u[3] + pp->close_speed) > 1e-9 * pp->close_speed)
    return 0;
  double gmin = INFINITY;
  for (int finger = 1; finger >= -1; finger -= 2)
    for (int k = 0; k < GRASP_COMPONENTS; k++) {
      struct grasp_contact c;
      grasp_finger_gap(st->q, finger, k, &c);
      if (c.gap < gmin) gmin = c.gap;
    }
  double ds = gmin - 0.5 * o->margin;
  if (ds <= 0.0) return 0;
  if (st->q[3] - ds < o->s_min) ds = st->q[3] - o->s_min;
  st->q[3] -= ds;
  st->u[0] = st->u[1] = st->u[2] = 0.0;
  st->t += ds / pp->close_speed;
  r->skipped += ds / pp->close_speed;
  return 1;
}

/* One step of the explicit LCP from st with the contacts c: assembles, solves (a failed warm-started solve
 * once more from cold), and on success advances st (not st->t) and sets c[k].impulse. Returns 0 when
 * solved; *rows the LCP's size; the solves' seconds and iterations are added to r. */
static int explicit_step(struct grasp_trial *t, struct solver *s, const struct grasp_params *pp,
                         const struct grasp_trial_opts *o, struct grasp_state *st, struct grasp_contact *c,
                         int nc, const double mass[4], const double minv[4], struct solve_result *sr,
                         int *rows, struct grasp_result *r)
{
  double ustar[4];
  for (int j = 0; j < 4; j++)
    ustar[j] = minv[j] * mass[j] * st->u[j];
  const int n = assemble(t, pp, o, st, c, nc, minv, ustar);
  *rows = n;
  /* warm start only when the contact set is the one of the last step: then z's layout is the same */
  int same = nc == t->prev_nc;
  for (int k = 0; same && k < nc; k++)
    same = t->prev_key[k] == c[k].finger * 16 + c[k].component;
  s->set.warm_start = o->warm_start && same;
  if (s->set.warm_start)
    memcpy(t->z, t->zprev, (size_t)n * sizeof *t->z);
  else
    memset(t->z, 0, (size_t)n * sizeof *t->z);
  int bad = solver_solve(s, t->p, t->z, sr);
  if ((bad || sr->status != SOLVE_CONVERGED || sr->no_answer) && s->set.warm_start) {
    /* a warm basis can be singular where a cold start is not: one cold retry, both solves counted */
    r->solve_seconds += sr->seconds;
    r->pivots += sr->iterations;
    r->retries++;
    s->set.warm_start = 0;
    memset(t->z, 0, (size_t)n * sizeof *t->z);
    bad = solver_solve(s, t->p, t->z, sr);
  }
  if (bad || sr->status != SOLVE_CONVERGED || sr->no_answer) return 1;
  memcpy(t->zprev, t->z, (size_t)n * sizeof *t->z);
  t->prev_nc = nc;
  for (int k = 0; k < nc; k++)
    t->prev_key[k] = c[k].finger * 16 + c[k].component;
  /* u+ = u* + Minv G^T z; q+ = q + h u+ */
  double du[4] = {0, 0, 0, 0};
  for (int a = 0; a < n; a++)
    if (t->z[a] != 0.0)
      for (int j = 0; j < 4; j++)
        du[j] += t->G[a][j] * t->scale[a] * t->z[a];
  for (int k = 0; k < nc; k++)
    c[k].impulse = t->scale[k] * t->z[k];
  for (int j = 0; j < 4; j++) {
    st->u[j] = ustar[j] + minv[j] * du[j];
    st->q[j] += o->h * st->u[j];
  }
  return 0;
}

/* The implicit step's predictor: the explicit LCP (Lemke) of the same step on a copy of the state; its cost
 * is added to r's solve time. Returns 0 when it solved. */
static int predict(struct grasp_trial *t, const struct grasp_params *pp, const struct grasp_trial_opts *o,
                   const struct grasp_state *st, const struct grasp_contact *c, int nc, const double mass[4],
                   const double minv[4], struct grasp_predictor *pred, struct grasp_result *r)
{
  struct grasp_state s2 = *st;
  struct grasp_contact c2[GRASP_MAX_CONTACTS];
  memcpy(c2, c, (size_t)nc * sizeof *c);
  struct solve_result sr;
  int rows;
  const int bad = explicit_step(t, t->lemke, pp, o, &s2, c2, nc, mass, minv, &sr, &rows, r);
  r->solve_seconds += sr.seconds;
  r->pivots += sr.iterations;
  r->predictions++;
  if (bad) return 1;
  memcpy(pred->u, s2.u, sizeof pred->u);
  for (int k = 0; k < nc; k++)
    pred->pn[k] = c2[k].impulse;
  /* the motor's impulse on s: its two directions' unknowns (assemble's layout) */
  const int i_bm = 4 * nc + 3 * (t->n_dirs + 1);
  const double pm = t->scale[i_bm] * t->z[i_bm] - t->scale[i_bm + 1] * t->z[i_bm + 1];
  pred->pm = pm;
  return 0;
}

/* The step's mass matrix M + h C (diagonal) and its inverse, for a step of length h. */
static void step_mass(const struct grasp_params *pp, double h, double mass[4], double minv[4])
{
  double rho2 = 0.0;
  for (int i = 0; i < 3; i++)
    rho2 += pp->tripod[i][0] * pp->tripod[i][0] + pp->tripod[i][1] * pp->tripod[i][1];
  const double m[4] = {pp->mass, pp->mass, pp->inertia, 2.0 * pp->jaw_mass};
  const double damp[4] = {pp->support_damping, pp->support_damping, pp->support_damping * rho2 / 3.0, 0.0};
  for (int j = 0; j < 4; j++) {
    mass[j] = m[j];
    minv[j] = 1.0 / (m[j] + h * damp[j]);
  }
}

/* One geometrically implicit step of length o->h from st with the pairs c (detected at st; *nc of them, cut
 * to those the step can close). The guess: the last step's answers per pair, the explicit LCP's answer
 * (predict) for a pair met for the first time or when the warm solve fails. When neither guess leads the
 * solver to a solution, the step is taken as two steps of half the length (each the same mixed NCP with
 * h / 2, judged by the same checker; the second half detects its pairs again), nested at most o->halvings
 * times. Why: the failures left are solves that stall or crawl to the iteration limit (on the quick grid
 * 78 of 94 at a pair touching at a fingertip's vertex, on the disc or a tooth; 8 at a tooth's flat flank),
 * the Newton matrix nearly singular in sigma of (22) where p_t is near 0, or in the statically
 * indeterminate split of the impulses; a shorter step moves the solution closer to the guess, back inside
 * Newton's region of convergence, and the state it reaches is the same model's (measured:
 * results/reference/grasp_implicit_quick). On success c[k].impulse is per
 * length o->h (a halved step's last half's impulse doubled), as the caller's load test expects. */
static int implicit_step(struct grasp_trial *t, const struct grasp_params *pp,
                         const struct grasp_trial_opts *o, struct grasp_state *st, struct grasp_contact *c,
                         int *nc, struct solve_result *sr, int *rows, struct grasp_result *r, int depth)
{
  const double h = o->h;
  double mass[4], minv[4];
  step_mass(pp, h, mass, minv);
  /* only the pairs the step can close: a separated pair in the NCP has p_n = 0, where (22)'s
   * sigma perp mu^2 p_n^2 - p_t^2 pins p_t only quadratically and the Newton methods crawl */
  const double reach = 3.0 * h * (fabs(st->u[3]) + hypot(st->u[0], st->u[1]) + fabs(st->u[2]) * 0.025) + 1e-6;
  int kept = 0;
  for (int k = 0; k < *nc; k++)
    if (c[k].gap < reach) c[kept++] = c[k];
  *nc = kept;
  /* a pair met for the first time (or no warm start): the explicit LCP's answer is the guess; else the
   * last step's answers, and the predictor only when they fail */
  struct grasp_predictor pred;
  const int fresh = !o->warm_start || grasp_implicit_fresh(t->gi, c, kept);
  const int have = fresh && predict(t, pp, o, st, c, kept, mass, minv, &pred, r) == 0;
  t->s->set.warm_start = 1; /* the NCP's z = 0 is the guess: the unknowns are stored shifted */
  int bad = grasp_implicit_step(t->gi, t->s, pp, o, have ? &pred : NULL, st, c, kept, sr, rows);
  if (bad == 1 && !fresh && predict(t, pp, o, st, c, kept, mass, minv, &pred, r) == 0) {
    r->solve_seconds += sr->seconds;
    r->pivots += sr->iterations;
    r->retries++;
    bad = grasp_implicit_step(t->gi, t->s, pp, o, &pred, st, c, kept, sr, rows);
  }
  if (bad != 1 || depth >= o->halvings) return bad;
  /* two half steps from the same state (the failed solve's cost counted) */
  struct grasp_trial_opts half = *o;
  half.h = 0.5 * h;
  struct grasp_state s2 = *st;
  r->halved++;
  for (int k = 0; k < 2; k++) {
    r->solve_seconds += sr->seconds;
    r->pivots += sr->iterations;
    if (k == 1) *nc = grasp_detect(s2.q, o->margin, c);
    bad = implicit_step(t, pp, &half, &s2, c, nc, sr, rows, r, depth + 1);
    if (bad) return bad;
  }
  *st = s2;
  for (int k = 0; k < *nc; k++)
    c[k].impulse *= 2.0;
  return 0;
}

int grasp_trial_run(struct grasp_trial *t, const struct grasp_params *pp, const struct grasp_trial_opts *o,
                    double x, double y, struct grasp_result *r)
{
  memset(r, 0, sizeof *r);
  struct grasp_state st = {.q = {-x, -y, 0.0, 0.0}, .u = {0.0, 0.0, 0.0, -pp->close_speed}, .t = 0.0};
  st.q[3] = grasp_part_extent(st.q) + o->start_clear;
  const double h = o->h;
  double mass[4], minv[4];
  step_mass(pp, h, mass, minv);
  struct grasp_contact c[GRASP_MAX_CONTACTS];
  const double load_min = 0.01 * pp->close_force * h;
  const long max_steps = (long)ceil(o->t_max / h);
  int still = 0, nc = 0, failed = 0;
  t->prev_nc = -1;
  if (t->gi) grasp_implicit_reset(t->gi);
  r->outcome = GRASP_LOST;
  while (r->steps < max_steps) {
    nc = grasp_detect(st.q, o->margin, c);
    if (nc == 0 && free_jump(&st, pp, o, r)) {
      if (st.q[3] <= o->s_min) break; /* closed on nothing */
      continue;
    }
    struct solve_result sr;
    int n = 0, bad;
    if (t->gi)
      bad = implicit_step(t, pp, o, &st, c, &nc, &sr, &n, r, 0);
    else
      bad = explicit_step(t, t->s, pp, o, &st, c, nc, mass, minv, &sr, &n, r);
    r->solve_seconds += sr.seconds;
    r->pivots += sr.iterations;
    r->rows_sum += n;
    r->steps++;
    if (bad) {
      snprintf(r->message, sizeof r->message, "step %ld: %s %.100s", r->steps, solve_status_name(sr.status),
               sr.message);
      r->status = sr.status;
      failed = 1;
      break;
    }
    int loaded = 0;
    for (int k = 0; k < nc; k++)
      loaded |= c[k].impulse > load_min;
    double speed = 0.0;
    for (int j = 0; j < 4; j++) {
      double v = fabs(st.u[j]) * (j == 2 ? GRASP_DISC_RADIUS : 1.0);
      if (v > speed) speed = v;
    }
    st.t += h;
    if (st.q[3] <= o->s_min) break; /* the fingers met: nothing held */
    still = loaded && speed < o->rest_speed ? still + 1 : 0;
    if (still >= o->rest_steps) {
      r->at_rest = 1;
      break;
    }
  }
  r->t = st.t;
  memcpy(r->q, st.q, sizeof r->q);
  r->n_contacts = nc;
  memcpy(r->contact, c, (size_t)nc * sizeof *c);
  r->outcome = failed ? GRASP_SOLVER_FAILURE : grasp_classify(c, nc, load_min, o->s_min, st.q[3]);
  return 0;
}
