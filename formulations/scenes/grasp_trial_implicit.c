/* grasp_trial_implicit.c — a grasp trial's step as the geometrically implicit mixed NCP of Chakraborty,
 * Berard, Akella & Trinkle (Sec. 3-4; Sec. 6.4 is this very study): the contact points are unknowns of the
 * step, fixed by the KKT conditions of the distance problem between a component of the lock piece (the disc
 * of eq. (56) or a tooth of eq. (57): one convex function each, body 1) and a fingertip (the intersection of
 * the two half-planes of eqs. (58)-(59) or (60)-(61), body 2: Sec. 4.3's eqs. (28)-(31), written for this
 * pair in the paper as (62)-(66)). Each pair's rows are implicit_contact2d.c's, also used by the
 * geometric_implicit formulation.
 *
 * Generalized velocities nu = (v_x, v_y, omega, s_dot): the part in its plane and the jaws' half-opening s
 * (the jaws close symmetrically, as the experiment did: the right fingertip at x = s, the left at -s). A pair
 * is evaluated with the finger as a body of its own moving at (+-s_dot, 0, 0) (its guide takes the other
 * force components) and its rows and columns are mapped to s by the chain rule. Per step:
 *   0 = M nu^l - (M + h C) nu + sum_contacts W (p_n, p_t) + sum_i W_i beta_i + e_s p_m     (20)
 *   each pair: (28), (29), (21) free; (17), (31), (19), (22) complementarity (e_t = 1, mu_grip)
 *   0 = B_i v_i(nu) + (sigma_i + eps) beta_i,  0 <= sigma_i perp B_i^2 - |beta_i|^2 >= 0      (support i)
 *   -B_m <= p_m <= B_m  perp  s_dot + v_close                                                  (jaw motor)
 * The support friction of the 2.5D model (Berard et al. 2007, ../shared/notes/grasp-study.md) is the
 * paper's ellipsoidal law (21)-(22) with the normal impulse known from statics, B_i = mu_s N_i h, at each of
 * the three tripod points, whose world velocity is v_i = v + omega x rho_i (rho_i turned by the step's start
 * orientation: the lever arm's change within a step is second order in h). The jaws' force-controlled
 * closing is a velocity motor whose impulse is bounded by B_m = 2 F h: a box-constrained row (p_m at its
 * lower bound, closing with all its force, while the jaws are slower than commanded). Why a box and not
 * the one-dimensional form of (21)-(22): with that form, at the step a finger first meets the part every
 * Newton solver (ours, SNES VI, TAO) stalled with the motor's multiplier at zero, holding the commanded
 * speed, the penetration left in the merit's floor; the box row has no multiplier to leave zero.
 * Why eps (-friction_creep, default 1e-3): a creep of at most eps v_close at full friction, in the support
 * points' rows and in the fingertips' (21), which becomes e_t^2 mu p_n v_t + (sigma + eps) p_t = 0. While
 * the part sticks, how the friction splits among the support points and the fingers is statically
 * indeterminate (more impulses than equations), the Newton matrix singular and the solution set not a
 * point; eps picks the split whose slip velocities are proportional to the impulses. A held part then slips
 * by at most eps v_close (2e-5 m/s at the defaults; less below full friction). Measured on the quick grid
 * (480 trials, fb_newton; results/reference/grasp_implicit_quick): with eps = 1e-5 only at the supports
 * 282 trials solved, 1e-3 at both 386, 1e-2 at both 433; the share whose outcome equals the explicit
 * LCP's stays 91-92 %.
 *
 * Units: the NCP is solved in millimetres, the part's mass and the closing speed (time L / v_close), so
 * that points, multipliers, velocities and impulses are all near 1 and the checker's relative tolerance
 * means the same on every row. As in geometric_implicit, the unknowns are stored shifted by the guess (the
 * last step's answers per pair, the pose and velocity of the last step), so the solvers' z = 0 start is a
 * warm start. A pair met for the first time, or a failed warm solve, takes its guess from a predictor, the
 * explicit LCP of the same step (grasp_trial.c): its velocities and impulses, the sliding directions they
 * imply, and the closest points at the poses it predicts. Without it Newton went from the detection's
 * guess to a spurious point: jaws at full speed, part still, a1 = a2 at the fingertip vertex inside the
 * disc (every KKT row holds there; only (19) does not). Everything is sized once. */
#include "grasp_implicit.h"
#include "implicit_contact2d.h"
#include "shape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAIR  10 /* a1 (2), a2 (2), p_t | l1, l2_1, l2_2, p_n, sigma */
#define TAIL  10 /* beta_1..3 (6) | sigma_1..3, p_m */
#define NMAX  (4 + PAIR * GRASP_MAX_CONTACTS + TAIL)
#define LOCAL 16   /* a pair's local unknowns: part nu (3), finger nu (3), the pair's 10 */
#define LEN   1e-3 /* the length unit [m] */

struct pair_answer {
  int valid;
  double v[PAIR];
};

struct grasp_implicit {
  struct cp_problem *p;
  double guess[NMAX], z[NMAX];
  int nc, n, nfree;
  double h;                   /* the step in time units */
  double M[4], mom[4];        /* M + h C (diagonal) and M nu^l, scaled */
  double B[3], rho[3][2], Bm; /* the support points' bounds and lever arms [mm]; the motor's bound */
  double mu_grip;
  double creep; /* -friction_creep: the sticking friction's largest slip speed, in units of v_close */
  struct gi_side side[GRASP_MAX_CONTACTS][2];
  int fsign[GRASP_MAX_CONTACTS]; /* +1 right finger, -1 left */
  struct convex_fn comp[GRASP_COMPONENTS], finger[2][2];
  struct pair_answer prev[2][GRASP_COMPONENTS]; /* [right, left][component] */
  double tail[TAIL];
  int tail_valid;
};

static int eval(struct grasp_implicit *g, const double *z, double *F, double *J);
static int cb_F(void *ctx, const double *z, double *F) { return eval(ctx, z, F, NULL); }
static int cb_J(void *ctx, const double *z, double *J)
{
  double F[NMAX];
  return eval(ctx, z, F, J);
}

static int part_of(struct convex_fn *fn, struct convex_part *part, int rc)
{
  if (rc) return 1;
  *fn = part->f[0];
  return 0;
}

int grasp_implicit_create(struct grasp_implicit **out)
{
  struct grasp_implicit *g = calloc(1, sizeof *g);
  struct convex_part *part = malloc(sizeof *part);
  char msg[128];
  int bad = !g || !part;
  /* the lock piece in its own frame [mm]: eq. (56) with the radius 20.75 (grasp.h), eq. (57)'s teeth */
  const double c0[3] = {0, 0, 0}, ax[3] = {GRASP_TOOTH_A / LEN, GRASP_TOOTH_B / LEN, 1};
  bad = bad ||
        part_of(&g->comp[0], part, convex_part_ball(part, 2, c0, GRASP_DISC_RADIUS / LEN, msg, sizeof msg));
  for (int k = 1; !bad && k < GRASP_COMPONENTS; k++) {
    const double th = grasp_tooth_angle[k - 1];
    const double c[3] = {GRASP_DISC_RADIUS / LEN * cos(th), GRASP_DISC_RADIUS / LEN * sin(th), 0};
    bad = part_of(&g->comp[k], part, convex_part_superellipsoid(part, 2, c, ax, 4, 4, msg, sizeof msg));
  }
  /* a fingertip in its own frame (origin at the fingertip vertex): the top edge y <= 0 (eqs. (58), (60))
   * and the inside edge, -x <= 0 for the right finger (59), x <= 0 for the left (61) */
  for (int f = 0; !bad && f < 2; f++) {
    const double top[3] = {0, 1, 0}, inside[3] = {f == 0 ? -1.0 : 1.0, 0, 0};
    bad = part_of(&g->finger[f][0], part, convex_part_halfspace(part, 2, top, 0.0, msg, sizeof msg)) ||
          part_of(&g->finger[f][1], part, convex_part_halfspace(part, 2, inside, 0.0, msg, sizeof msg));
  }
  free(part);
  if (!bad) bad = !(g->p = cp_ncp_create(NMAX, cb_F, cb_J, g));
  if (bad) {
    if (g) cp_destroy(&g->p);
    free(g);
    return 1;
  }
  *out = g;
  return 0;
}

void grasp_implicit_destroy(struct grasp_implicit **g)
{
  if (!*g) return;
  cp_destroy(&(*g)->p);
  free(*g);
  *g = NULL;
}

void grasp_implicit_reset(struct grasp_implicit *g)
{
  memset(g->prev, 0, sizeof g->prev);
  g->tail_valid = 0;
}

static int finger_index(int fsign) { return fsign > 0 ? 0 : 1; }

/* the pair k's free block (a1, a2, p_t) and complementarity block (l1, l2_1, l2_2, p_n, sigma) in x */
static int pair_free(int k) { return 4 + 5 * k; }
static int pair_comp(const struct grasp_implicit *g, int k) { return g->nfree + 5 * k; }

static void add(double *J, int n, int row, int col, double v)
{
  if (J) J[(size_t)row * n + col] += v;
}

/* F (and J, dense row-major, when not NULL) at x = guess + z. */
static int eval(struct grasp_implicit *g, const double *z, double *F, double *J)
{
  const int n = g->n, nc = g->nc;
  double x[NMAX] = {0}, xl[LOCAL], Fl[LOCAL],
         Jl[LOCAL * LOCAL]; /* zeroed: the analyser cannot see n <= NMAX */
  for (int i = 0; i < n; i++)
    x[i] = g->guess[i] + z[i];
  memset(F, 0, (size_t)n * sizeof *F);
  if (J) memset(J, 0, (size_t)n * n * sizeof *J);
  for (int j = 0; j < 4; j++) { /* M nu^l - (M + h C) nu */
    F[j] = g->mom[j] - g->M[j] * x[j];
    add(J, n, j, j, -g->M[j]);
  }
  const struct implicit_contact2d_index il = {6, 8, 10, 11, 12, 14, 15};
  for (int k = 0; k < nc; k++) {
    const int fb = pair_free(k), cb = pair_comp(g, k), fs = g->fsign[k];
    /* the local unknowns: the part's velocity, the finger's (fs s_dot, 0, 0), the pair's own */
    int map[LOCAL];
    double sg[LOCAL];
    for (int a = 0; a < LOCAL; a++) {
      map[a] = a < 3 ? a : a == 3 ? 3 : a < 6 ? -1 : a < 11 ? fb + a - 6 : cb + a - 11;
      sg[a] = a == 3 ? fs : 1.0;
      xl[a] = map[a] >= 0 ? sg[a] * x[map[a]] : 0.0;
    }
    memset(Fl, 0, sizeof Fl);
    if (J) memset(Jl, 0, sizeof Jl);
    struct side_eval e2[2];
    if (implicit_contact2d_eval(g->side[k], g->finger[finger_index(fs)], 2, g->mu_grip, 1.0, g->creep, g->h,
                                xl, il, e2, Fl, J ? Jl : NULL, LOCAL))
      return 1;
    /* rows 4, 5 (the finger's y force and torque) are the guide's; row 3 and column 3 carry d x_f / d s */
    for (int a = 0; a < LOCAL; a++) {
      if (map[a] < 0) continue;
      F[map[a]] += sg[a] * Fl[a];
      if (J)
        for (int b = 0; b < LOCAL; b++)
          if (map[b] >= 0) J[(size_t)map[a] * n + map[b]] += sg[a] * sg[b] * Jl[a * LOCAL + b];
    }
  }
  /* the support points and the jaw motor (the header's last two lines) */
  const int ib = 4 + 5 * nc, is = g->nfree + 5 * nc;
  for (int i = 0; i < 3; i++) {
    const double *r = g->rho[i], *beta = x + ib + 2 * i, sig = x[is + i], B = g->B[i];
    const double v[2] = {x[0] - x[2] * r[1], x[1] + x[2] * r[0]};
    for (int k = 0; k < 2; k++) {
      const int row = ib + 2 * i + k;
      F[row] = B * v[k] + (sig + g->creep) * beta[k];
      add(J, n, row, k, B);
      add(J, n, row, 2, k == 0 ? -B * r[1] : B * r[0]);
      add(J, n, row, ib + 2 * i + k, sig + g->creep);
      add(J, n, row, is + i, beta[k]);
      F[k] += beta[k]; /* the impulse on the part, and its moment */
      add(J, n, k, ib + 2 * i + k, 1.0);
    }
    F[2] += r[0] * beta[1] - r[1] * beta[0];
    add(J, n, 2, ib + 2 * i, -r[1]);
    add(J, n, 2, ib + 2 * i + 1, r[0]);
    F[is + i] = B * B - beta[0] * beta[0] - beta[1] * beta[1];
    add(J, n, is + i, ib + 2 * i, -2.0 * beta[0]);
    add(J, n, is + i, ib + 2 * i + 1, -2.0 * beta[1]);
  }
  const int im = is + 3; /* the motor's impulse, a box-constrained unknown */
  F[im] = x[3] + 1.0;
  add(J, n, im, 3, 1.0);
  F[3] += x[im];
  add(J, n, 3, im, 1.0);
  for (int i = 0; i < n; i++)
    if (!isfinite(F[i])) return 1;
  return 0;
}

/* The guess: the last step's answers where there are some (warm), else the detected gap, points and normal
 * (l1 = gap / |grad f|, the finger's faces weighted so that sum l2_j grad g_j = -grad f). */
static void build_guess(struct grasp_implicit *g, const struct grasp_state *st, const struct grasp_contact *c,
                        int warm, const struct grasp_predictor *pred, double V, double P)
{
  double *x = g->guess;
  const double *u = pred ? pred->u : st->u;
  x[0] = u[0] / V, x[1] = u[1] / V, x[2] = u[2] * LEN / V, x[3] = u[3] / V;
  for (int k = 0; k < g->nc; k++) {
    const int fb = pair_free(k), cb = pair_comp(g, k), fi = finger_index(c[k].finger);
    const struct pair_answer *pa = &g->prev[fi][c[k].component];
    if (warm && pa->valid) {
      memcpy(x + fb, pa->v, 5 * sizeof *x);
      memcpy(x + cb, pa->v + 5, 5 * sizeof *x);
      continue;
    }
    /* the pair at the poses the guess's velocities reach at the end of the step (with a predictor; else
     * at the step's start): its closest points, normal and gap */
    struct grasp_contact cp = c[k];
    double q[4];
    memcpy(q, st->q, sizeof q);
    if (pred) {
      for (int j = 0; j < 4; j++)
        q[j] += g->h * LEN / V * u[j];
      grasp_finger_gap(q, c[k].finger, c[k].component, &cp);
    }
    double a1[2] = {(q[0] + cp.r[0]) / LEN, (q[1] + cp.r[1]) / LEN}, a2[2];
    const double gap = cp.gap / LEN;
    for (int j = 0; j < 2; j++)
      a2[j] = a1[j] + gap * cp.n[j];
    struct side_eval e;
    side_eval(&g->side[k][0], pred ? g->h : 0.0, x, a1, &e);
    const double g1 = hypot(e.G[0], e.G[1]);
    double l2top = g1 * fmax(0.0, -cp.n[1]), l2in = g1 * fmax(0.0, cp.finger * cp.n[0]);
    if (l2top < 1e-3 * g1) l2top = 0.0;
    if (l2in < 1e-3 * g1) l2in = 0.0;
    if (l2top > 0.0 && l2in > 0.0) a2[0] = cp.finger * q[3] / LEN, a2[1] = 0.0; /* the fingertip vertex */
    const double v[PAIR] = {a1[0], a1[1], a2[0],
                            a2[1], 0.0,   g1 > 0.0 ? fmax(gap, 0.0) / g1 : 0.0,
                            l2top, l2in,  pred ? pred->pn[k] / P : 0.0,
                            0.0};
    memcpy(x + fb, v, 5 * sizeof *x);
    if (pred) { /* sliding at the predicted velocities: p_t = -mu p_n sign(v_t), sigma = |v_t| (e_t = 1) */
      const double r1[2] = {a1[0] - q[0] / LEN, a1[1] - q[1] / LEN}, t[2] = {-cp.n[1], cp.n[0]};
      const double w[2] = {x[0] - x[2] * r1[1] - cp.finger * x[3], x[1] + x[2] * r1[0]};
      const double vt = t[0] * w[0] + t[1] * w[1], pn = v[8];
      if (fabs(vt) > 1e-6) {
        x[fb + 4] = -g->mu_grip * pn * (vt > 0 ? 1.0 : -1.0);
        x[cb + 4] = fabs(vt);
      }
    }
    memcpy(x + cb, v + 5, 5 * sizeof *x);
  }
  const int ib = 4 + 5 * g->nc, is = g->nfree + 5 * g->nc;
  for (int i = 0; i < 6; i++)
    x[ib + i] = warm && g->tail_valid ? g->tail[i] : 0.0;
  for (int i = 0; i < 4; i++)
    x[is + i] = warm && g->tail_valid ? g->tail[6 + i] : 0.0;
  if (pred) {
    x[is + 3] = fmax(-g->Bm, fmin(g->Bm, pred->pm / P));
    for (int i = 0; i < 3; i++) { /* a support point sliding at the predicted velocities: beta = -B v / |v| */
      const double v[2] = {x[0] - x[2] * g->rho[i][1], x[1] + x[2] * g->rho[i][0]}, sp = hypot(v[0], v[1]);
      if (sp > 1e-6) {
        x[ib + 2 * i] = -g->B[i] * v[0] / sp;
        x[ib + 2 * i + 1] = -g->B[i] * v[1] / sp;
        x[is + i] = sp;
      }
    }
  }
  for (int i = 0; i < g->n; i++) {
    g->p->lo[i] = i < g->nfree ? -INFINITY : -x[i];
    g->p->hi[i] = INFINITY;
  }
  g->p->lo[is + 3] = -g->Bm - x[is + 3];
  g->p->hi[is + 3] = g->Bm - x[is + 3];
}

static int solved(const struct solve_result *sr, int bad)
{
  return !bad && sr->status == SOLVE_CONVERGED && !sr->no_answer;
}

/* the step's data in the NCP's units: M, M nu^l, the support points, the motor's bound, the pairs' sides */
static void set_step(struct grasp_implicit *g, const struct grasp_params *pp,
                     const struct grasp_trial_opts *o, const struct grasp_state *st,
                     const struct grasp_contact *c, int nc, double vel[4])
{
  const double V = pp->close_speed, T = LEN / V, P = pp->mass * V, h = o->h;
  double rho2 = 0.0;
  for (int i = 0; i < 3; i++)
    rho2 += pp->tripod[i][0] * pp->tripod[i][0] + pp->tripod[i][1] * pp->tripod[i][1];
  const double mass[4] = {pp->mass, pp->mass, pp->inertia, 2.0 * pp->jaw_mass};
  const double damp[4] = {pp->support_damping, pp->support_damping, pp->support_damping * rho2 / 3.0, 0.0};
  const double unit[4] = {pp->mass, pp->mass, pp->mass * LEN * LEN, pp->mass}; /* M's unit per row */
  vel[0] = vel[1] = vel[3] = V;                                                /* nu's unit per row */
  vel[2] = V / LEN;
  g->h = h / T;
  for (int j = 0; j < 4; j++) {
    g->M[j] = (mass[j] + h * damp[j]) / unit[j];
    g->mom[j] = mass[j] * st->u[j] / (unit[j] * vel[j]);
  }
  const double cth = cos(st->q[2]), sth = sin(st->q[2]);
  for (int i = 0; i < 3; i++) {
    g->rho[i][0] = (cth * pp->tripod[i][0] - sth * pp->tripod[i][1]) / LEN;
    g->rho[i][1] = (sth * pp->tripod[i][0] + cth * pp->tripod[i][1]) / LEN;
    g->B[i] = pp->mu_support * pp->normal[i] * h / P;
  }
  g->Bm = 2.0 * pp->close_force * h / P;
  g->mu_grip = pp->mu_grip;
  g->creep = o->creep;
  g->nc = nc;
  g->nfree = 4 + 5 * nc + 6;
  g->n = g->nfree + 5 * nc + 4;
  for (int k = 0; k < nc; k++) {
    struct gi_side *sd = g->side[k];
    g->fsign[k] = c[k].finger;
    sd[0] = (struct gi_side){
        .dof = 0, .x0 = {st->q[0] / LEN, st->q[1] / LEN}, .th0 = st->q[2], .fn = g->comp[c[k].component]};
    sd[1] = (struct gi_side){.dof = 3,
                             .x0 = {c[k].finger * st->q[3] / LEN, 0.0},
                             .th0 = 0.0,
                             .fn = g->finger[finger_index(c[k].finger)][0]};
  }
  g->p->n = g->n;
  snprintf(g->p->name, sizeof g->p->name, "grasp step, geometrically implicit, %d pairs", nc);
}

struct cp_problem *grasp_implicit_assemble(struct grasp_implicit *g, const struct grasp_params *pp,
                                           const struct grasp_trial_opts *o, const struct grasp_state *st,
                                           const struct grasp_contact *c, int nc, int warm)
{
  double vel[4];
  set_step(g, pp, o, st, c, nc, vel);
  build_guess(g, st, c, warm, NULL, pp->close_speed, pp->mass * pp->close_speed);
  return g->p;
}

int grasp_implicit_fresh(const struct grasp_implicit *g, const struct grasp_contact *c, int nc)
{
  int fresh = !g->tail_valid;
  for (int k = 0; k < nc; k++)
    fresh |= !g->prev[finger_index(c[k].finger)][c[k].component].valid;
  return fresh;
}

int grasp_implicit_step(struct grasp_implicit *g, struct solver *s, const struct grasp_params *pp,
                        const struct grasp_trial_opts *o, const struct grasp_predictor *pred,
                        struct grasp_state *st, struct grasp_contact *c, int nc, struct solve_result *sr,
                        int *rows)
{
  const double V = pp->close_speed, P = pp->mass * V, h = o->h;
  double vel[4];
  set_step(g, pp, o, st, c, nc, vel);
  *rows = g->n;
  build_guess(g, st, c, o->warm_start && !pred, pred, V, P);
  memset(g->z, 0, (size_t)g->n * sizeof *g->z);
  const int bad = solver_solve(s, g->p, g->z, sr);
  if (!solved(sr, bad)) return bad == 2 ? 2 : 1;
  double x[NMAX] = {0};
  for (int i = 0; i < g->n; i++)
    x[i] = g->guess[i] + g->z[i];
  for (int j = 0; j < 4; j++) {
    st->u[j] = x[j] * vel[j];
    st->q[j] += h * st->u[j];
  }
  memset(g->prev, 0, sizeof g->prev);
  for (int k = 0; k < nc; k++) {
    struct pair_answer *pa = &g->prev[finger_index(c[k].finger)][c[k].component];
    pa->valid = 1;
    memcpy(pa->v, x + pair_free(k), 5 * sizeof *x);
    memcpy(pa->v + 5, x + pair_comp(g, k), 5 * sizeof *x);
    c[k].impulse = x[pair_comp(g, k) + 3] * P;
  }
  memcpy(g->tail, x + 4 + 5 * nc, 6 * sizeof *x);
  memcpy(g->tail + 6, x + g->nfree + 5 * nc, 4 * sizeof *x);
  g->tail_valid = 1;
  return 0;
}
