/* NAME    bench_sphere_two_spheres — a small sphere in contact with two large fixed spheres, Chakraborty,
 * Berard, Akella & Trinkle, "A geometrically implicit time-stepping method for multibody systems with
 * intermittent contact", Sec. 6.2, Figs. 4-5 (after Trinkle et al. 2001). PURPOSE for each (h, formulation,
 * solver) simulate the unit sphere (m = 1, J = 2/5 I) from q = (0, 6.62105263157895, 8.78417110772903,
 * 1, 0, 0, 0), nu = 0 touching the fixed sphere of radius 10 at the origin (contact 1) and the fixed sphere
 * of radius 9 at (0, 11.4, 0) (contact 2), under the constant applied force (1.0, 2.6, -9.81) (no other
 * gravity), friction mu = 0.2 with the ellipsoid e_t = e_o = 1, e_r = 0.3 (eq. (5)), for -t_end seconds.
 * Columns: the time contact 2 turns from rolling to sliding, the times contacts 1 and 2 separate (the paper:
 * about 3.0, 3.2 and 3.6 s), each of them against the exact answer (the continuous-time DAE of the
 * scene's world with the paper's ellipsoid, two_spheres_exact.h, solved once per rank at setup: 2.9448067577,
 * 3.2132058170 and 3.7016004172 s; contact 2's slide by the same measure as ours, its slip speed past
 * -slip_tol: 2.9768799758 s, its slip starting at 2.9448067577 s) as |ours - exact|, the friction-law
 * residual (|friction| = mu lambda_n while sliding, <= while rolling; the implicit NCPs only, whose impulses
 * p_t, p_o, p_r are read from their solutions), the velocity smoothness (largest second difference |nu^{l+1}
 * - 2 nu^l + nu^{l-1}|: a jump shows, a steady acceleration does not), the problem size (unknowns per step)
 * and the cost per step. Every formulation is measured alike: a contact separates at the end of the last step
 * whose normal impulse (the stepper's, summed over the pair's contacts) exceeds -load_tol h; contact 2 slides
 * from the first step whose slip speed (the velocity of the sphere's point nearest the fixed sphere,
 * tangential part) exceeds -slip_tol. Per-step trace
 * (-trace DIR): the sphere's velocity (Fig. 4b) and, per contact, the normal force, the friction force
 * magnitude and ellipsoidal norm, mu times the normal force and the slip speed, drawn as Figs. 4b and 5 after
 * the sweep. USAGE
 * bench_sphere_two_spheres [-options_file bench/experiments/sphere_two_spheres.opts] [-h 0.01]
 *         [-formulation geometric_implicit,tzitzouris_pang,stewart_trinkle,anitescu_potra] [-cp_solver
 * fb_newton,lemke]
 *         [-t_end 4] [sweep options: -out, -resume, ... see -help]
 * PAPER   Chakraborty et al. eqs. (5), (21), (22) (geometric_implicit), Trinkle, Tzitzouris & Pang 2001 (the
 *         closed-form sphere-sphere distance, tzitzouris_pang, fixed step), Stewart & Trinkle 1996,
 * Anitescu-Potra. Runs on the sweep engine: results/sphere_two_spheres/<run>/tasks.csv, summary, plots. */
#include "engine/sweep_observers.h"
#include "geometric_implicit3d.h"
#include "plot_trace.h"
#include "scene.h"
#include "simulation.h"
#include "two_spheres_exact.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sweep_axis axes[] = {
    {"h", NULL, SWEEP_REAL, "0.01", "time step [s]", 0, SWEEP_METHOD, "(0,inf)"},
    {"formulation", NULL, SWEEP_FORMULATION,
     "geometric_implicit,tzitzouris_pang,stewart_trinkle,anitescu_potra", "formulations", 0, SWEEP_METHOD,
     NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "fb_newton", "solvers", 0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"c2_slide_time", SWEEP_METRIC, "time contact 2 turns from rolling to sliding (paper: ~3.0 s) [s]",
     .floor = 0},
    {"c1_sep_time", SWEEP_METRIC, "time contact 1 (radius-10 sphere) separates (paper: ~3.2 s) [s]",
     .floor = 0},
    {"c2_sep_time", SWEEP_METRIC, "time contact 2 (radius-9 sphere) separates (paper: ~3.6 s) [s]",
     .floor = 0},
    {"c2_slide_error", SWEEP_METRIC,
     "|c2_slide_time - c2_slide_exact|: contact 2's slide against the exact DAE [s]", .floor = 1e-9},
    {"c1_sep_error", SWEEP_METRIC,
     "|c1_sep_time - c1_sep_exact|: contact 1's separation against the exact DAE [s]", .floor = 1e-9},
    {"c2_sep_error", SWEEP_METRIC,
     "|c2_sep_time - c2_sep_exact|: contact 2's separation against the exact DAE [s]", .floor = 1e-9},
    {"c2_slide_exact", SWEEP_INFO,
     "exact time contact 2's slip speed first exceeds -slip_tol: the measure of c2_slide_time applied to the "
     "continuous-time DAE (two_spheres_exact.h) [s]",
     .floor = 0},
    {"c2_slip_onset_exact", SWEEP_INFO,
     "exact time contact 2's slip starts (friction at the cone's edge; the slip grows from 0 as (t - t0)^2) "
     "[s]",
     .floor = 0},
    {"c1_sep_exact", SWEEP_INFO, "exact time contact 1 separates: the continuous-time DAE [s]", .floor = 0},
    {"c2_sep_exact", SWEEP_INFO, "exact time contact 2 separates: the continuous-time DAE [s]", .floor = 0},
    {"friction_residual", SWEEP_METRIC,
     "largest friction-law violation over steps and contacts: | |p_f|_e - mu p_n | sliding, max(0, |p_f|_e - "
     "mu "
     "p_n) rolling, |p_f|_e the ellipsoid norm (geometric_implicit and tzitzouris_pang only) [N s]",
     .floor = 1e-12},
    {"velocity_jump", SWEEP_METRIC,
     "velocity smoothness: largest max_k |(nu^{l+1} - nu^l) - (nu^l - nu^{l-1})|_k over the steps, the jump "
     "of "
     "the velocity beyond its steady change (O(h^2) when smooth) [m/s, rad/s]",
     .floor = 1e-12},
    {"unknowns", SWEEP_INFO,
     "problem size: unknowns of a step's complementarity problem, mean over the steps (geometric_implicit 6 "
     "+ 13 "
     "per contact, tzitzouris_pang 6 + 5) [1]",
     .floor = 0},
    {"step_seconds", SWEEP_COST,
     "wall time per step, whole step (detect + assemble + solve + recover), mean over the run [s]",
     .floor = 0},
    {"solve_seconds", SWEEP_COST, "wall time per step in the solver only, mean over the run [s]", .floor = 0},
    {"iterations", SWEEP_INFO, "solver iterations over the run", .floor = 0},
    {"failed_at", SWEEP_INFO, "simulated time at the start of the first failed step [s] (empty: none)",
     .floor = 0},
};

struct s2_ctx {
  double T, load_tol, slip_tol;
  double exact[3]; /* the exact DAE's c2 slide (slip speed past slip_tol), c1 and c2 separation times [s]
                      (-1: none by t_end) */
  double onset2;   /* the exact start of contact 2's slip [s] */
};

/* The task's world: the paper's scene with its friction coefficient. */
#define S2_SCENE "sphere_two_spheres:mu=%.17g"

/* The paper's friction ellipsoid: the geometric_implicit formulation gets it through option_fixed (the
 * text there must say the same), the observer's ellipsoidal friction column uses it. The scene's geometry
 * (scenes_two_spheres.c) the observer reads from the world. */
static const double e_ell[3] = {1.0, 1.0, 0.3}, mu_paper = 0.2;

/* Per-step state of the two contacts, and the run's events. */
struct s2_obs {
  const struct s2_ctx *ctx;
  int shape_big[2]; /* world shapes of the radius-10 and radius-9 spheres */
  double mu;        /* the world's friction coefficient (Fig. 5's bound mu p_n) */
  double nu_prev[6], dnu_prev[6], jump;
  long steps_seen;
  double gap[2], slip[2], fn[2], ff[2], fe[2]; /* fe: the friction's ellipsoidal norm (eq. (5)) / h */
  int slid2;
  double t_sep[2], t_slide2, fres;
};

static int s2_begin(void *vctx, struct simulation *sim, double h, long steps)
{
  struct s2_obs *o = vctx;
  (void)h;
  (void)steps;
  world_get_velocity(sim->w, o->nu_prev);
  o->mu = sim->w->mu;
  return RUN_CONTINUE;
}

static int s2_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  struct s2_obs *o = vctx;
  (void)k;
  const struct world *w = sim->w;
  const struct body *b = &w->bodies[2];
  double nu[6];
  world_get_velocity(w, nu);
  for (int i = 0; i < 6; i++) {
    double dnu = nu[i] - o->nu_prev[i];
    if (o->steps_seen > 0) o->jump = fmax(o->jump, fabs(dnu - o->dnu_prev[i]));
    o->dnu_prev[i] = dnu;
    o->nu_prev[i] = nu[i];
  }
  o->steps_seen++;
  const double rad = w->shapes[b->shape_begin].radius;
  for (int c = 0; c < 2; c++) {
    const struct shape *big = &w->shapes[o->shape_big[c]]; /* a static body's frame is the world's */
    double d[3], len = 0.0;
    for (int i = 0; i < 3; i++)
      d[i] = b->x[i] - (w->bodies[big->body].x[i] + big->c[i]), len += d[i] * d[i];
    len = sqrt(len);
    o->gap[c] = len - big->radius - rad;
    /* velocity of the sphere's point nearest the fixed sphere, tangential part */
    double nrm[3] = {d[0] / len, d[1] / len, d[2] / len}, p[3], vp[3];
    for (int i = 0; i < 3; i++)
      p[i] = b->x[i] - rad * nrm[i];
    world_point_velocity(w, b, p, vp);
    double vn = vp[0] * nrm[0] + vp[1] * nrm[1] + vp[2] * nrm[2], s2 = 0.0;
    for (int i = 0; i < 3; i++)
      s2 += (vp[i] - vn * nrm[i]) * (vp[i] - vn * nrm[i]);
    o->slip[c] = sqrt(s2);
    o->fn[c] = o->ff[c] = o->fe[c] = 0.0;
  }
  /* normal impulses of the step per fixed sphere (any formulation) */
  const struct contact_set *cs = stepper_contacts(sim->st);
  const double *pn = stepper_impulses(sim->st);
  double load[2] = {0, 0}, h = rec->t - rec->t_start;
  for (int i = 0; cs && pn && i < cs->n; i++)
    for (int c = 0; c < 2; c++)
      if (cs->c[i].sa == o->shape_big[c] || cs->c[i].sb == o->shape_big[c]) load[c] += pn[i];
  for (int c = 0; c < 2; c++)
    if (load[c] > o->ctx->load_tol * h) o->t_sep[c] = rec->t;
  if (!o->slid2 && load[1] > o->ctx->load_tol * h && o->slip[1] > o->ctx->slip_tol) {
    o->slid2 = 1;
    o->t_slide2 = rec->t;
  }
  /* the implicit formulation's own impulses (forces = impulses / h for the trace) */
  struct gi3_contact_result r;
  int nc = geometric_implicit_results(sim->f, 0, NULL);
  for (int i = 0; i < nc && h > 0; i++) {
    geometric_implicit_results(sim->f, i, &r);
    int c = r.sa == o->shape_big[0] || r.sb == o->shape_big[0] ? 0 : 1;
    double pf = sqrt(r.pt * r.pt / (e_ell[0] * e_ell[0]) + r.po * r.po / (e_ell[1] * e_ell[1]) +
                     r.pr * r.pr / (e_ell[2] * e_ell[2]));
    o->fn[c] = r.pn / h;
    o->ff[c] = sqrt(r.pt * r.pt + r.po * r.po) / h;
    o->fe[c] = pf / h;
    double lim = w->mu * r.pn;
    double v = r.sigma > 1e-9 ? fabs(pf - lim) : fmax(0.0, pf - lim);
    o->fres = fmax(o->fres, v);
  }
  return RUN_CONTINUE;
}

static void s2_values(void *vctx, double *v)
{
  const struct s2_obs *o = vctx;
  for (int i = 0; i < 6; i++)
    v[i] = o->nu_prev[i];
  for (int c = 0; c < 2; c++) {
    v[6 + 3 * c] = o->fn[c];
    v[7 + 3 * c] = o->ff[c];
    v[8 + 3 * c] = o->slip[c];
    v[12 + c] = o->mu * o->fn[c]; /* Fig. 5: the bound the friction's ellipsoidal norm meets while sliding */
    v[14 + c] = o->fe[c];
  }
}

/* The transition times (c2 slide, c1 and c2 separation; -1: none), the exact ones and their errors. */
static void report_times(const struct s2_ctx *ctx, const double *ours, struct sweep_row *row)
{
  static const char *const name[3] = {"c2_slide", "c1_sep", "c2_sep"};
  char col[32];
  if (ctx->onset2 >= 0) sweep_row_set(row, "c2_slip_onset_exact", ctx->onset2);
  for (int i = 0; i < 3; i++) {
    if (ctx->exact[i] >= 0) {
      snprintf(col, sizeof col, "%s_exact", name[i]);
      sweep_row_set(row, col, ctx->exact[i]);
    }
    if (ours[i] < 0) continue;
    snprintf(col, sizeof col, "%s_time", name[i]);
    sweep_row_set(row, col, ours[i]);
    snprintf(col, sizeof col, "%s_error", name[i]);
    if (ctx->exact[i] >= 0) sweep_row_set(row, col, fabs(ours[i] - ctx->exact[i]));
  }
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct s2_ctx *ctx = vctx;
  const double h = sweep_task_real(task, "h");
  const char *form = sweep_task_string(task, "formulation"), *solver = sweep_task_string(task, "solver");
  int rc = 1;
  struct simulation sim;
  int sim_bad =
      simulation_open(&sim, sweep_task_world(task, S2_SCENE, mu_paper), form, solver, task->options);
  struct s2_obs so = {.ctx = ctx, .shape_big = {0, 1}};
  struct run_observer obs[3];
  int n_obs = 0;
  if (sim_bad) goto cleanup;
  rc = 0;
  /* the two geometrically implicit NCPs (the closest points as unknowns; the closed-form distance) */
  int ncp = strcmp(form, "geometric_implicit") == 0 || strcmp(form, "tzitzouris_pang") == 0;
  if (!formulation_supports(sim.f, sim.w) || (ncp && !(sim.s->type->kinds & CP_NCP))) {
    sweep_row_status(row, "not_applicable");
    goto cleanup;
  }
  const long steps = task->steps;
  obs[n_obs++] =
      (struct run_observer){.name = "sphere_two_spheres",
                            .ctx = &so,
                            .begin = s2_begin,
                            .after_step = s2_after,
                            .columns = "vx,vy,vz,wx,wy,wz,c1_normal_force,c1_friction_force,"
                                       "c1_slip_speed,c2_normal_force,c2_friction_force,c2_slip_speed,"
                                       "c1_mu_normal_force,c2_mu_normal_force,c1_friction_ellipsoidal,"
                                       "c2_friction_ellipsoidal",
                            .n_columns = 16,
                            .values = s2_values};
  struct run_summary sum;
  if (sweep_observers_standard(task, obs, &n_obs, 3) || simulation_run(&sim, h, steps, obs, n_obs, &sum)) {
    rc = 1;
    goto cleanup;
  }
  double ours[3] = {so.slid2 ? so.t_slide2 : -1.0, -1.0, -1.0};
  for (int c = 0; c < 2; c++) /* still loaded at the end: no separation */
    if (so.t_sep[c] > 0 && so.t_sep[c] < ctx->T - 0.5 * h) ours[1 + c] = so.t_sep[c];
  report_times(ctx, ours, row);
  if (ncp) sweep_row_set(row, "friction_residual", so.fres);
  sweep_row_set(row, "velocity_jump", so.jump);
  sweep_row_set(row, "unknowns", sum.rows_mean);
  sweep_row_set(row, "step_seconds", sum.step_seconds);
  sweep_row_set(row, "solve_seconds", sum.solve_seconds);
  sweep_row_set(row, "iterations", (double)sum.iterations);
  if (sum.failed_steps) {
    sweep_row_status(row, run_failed_status(&sum));
    sweep_row_set(row, "failed_at", sum.failed_at);
    goto cleanup;
  }
  sweep_row_status(row, "ok");
cleanup:
  run_observers_destroy(obs, n_obs);
  simulation_close(&sim);
  return rc;
}

static const struct option_decl options[] = {
    {"t_end", OPT_REAL, offsetof(struct s2_ctx, T), "4", "(0,inf)", "simulated seconds per run [s]"},
    {"load_tol", OPT_REAL, offsetof(struct s2_ctx, load_tol), "1e-6", "(0,inf)",
     "a contact carries load while its normal impulse exceeds this times h [N]"},
    {"slip_tol", OPT_REAL, offsetof(struct s2_ctx, slip_tol), "1e-3", "(0,inf)",
     "contact 2 slides once its slip speed exceeds this [m/s]"},
};

/* The exact answer, once per rank: the scene's world (geometry, mass, load, mu) with the paper's ellipsoid.
 */
static int setup(void *vctx, PetscOptions opts)
{
  struct s2_ctx *ctx = vctx;
  struct world *w = NULL;
  struct two_spheres_problem p;
  struct two_spheres_answer a;
  char spec[128], msg[256];
  (void)opts;
  snprintf(spec, sizeof spec, S2_SCENE, mu_paper);
  if (scene_create_from_spec(spec, NULL, &w, msg, sizeof msg)) {
    PetscPrintf(PETSC_COMM_WORLD, "bench_sphere_two_spheres: %s\n", msg);
    return 1;
  }
  const struct body *b = &w->bodies[2];
  two_spheres_exact_paper(&p);
  for (int c = 0; c < 2; c++) {
    const struct shape *big = &w->shapes[c];
    for (int i = 0; i < 3; i++)
      p.centre[c][i] = w->bodies[big->body].x[i] + big->c[i];
    p.radius[c] = big->radius;
  }
  p.r = w->shapes[b->shape_begin].radius, p.m = b->mass, p.J = b->inertia3[0], p.mu = w->mu;
  for (int i = 0; i < 3; i++)
    p.x0[i] = b->x[i], p.force[i] = b->f[i] + b->mass * w->gravity[i];
  p.e_t = e_ell[0], p.e_r = e_ell[2], p.t_end = ctx->T;
  p.slip_speed = ctx->slip_tol; /* c2_slide_time's own measure */
  world_destroy(&w);
  if (two_spheres_exact(&p, &a, msg, sizeof msg)) {
    PetscPrintf(PETSC_COMM_WORLD, "bench_sphere_two_spheres: the exact answer: %s\n", msg);
    return 1;
  }
  if (a.energy_residual > 1e-8 || a.gap_drift > 1e-9 || a.vn_drift > 1e-9) { /* its own checks */
    PetscPrintf(
        PETSC_COMM_WORLD,
        "bench_sphere_two_spheres: the exact answer fails its checks: energy balance %.3g J, drift %.3g m, "
        "%.3g m/s\n",
        a.energy_residual, a.gap_drift, a.vn_drift);
    return 1;
  }
  ctx->exact[0] = a.t_slip_speed[1], ctx->exact[1] = a.t_sep[0], ctx->exact[2] = a.t_sep[1];
  ctx->onset2 = a.t_slide[1];
  return 0;
}

static double cost(const struct sweep_task *t, void *vctx)
{
  const struct s2_ctx *ctx = vctx;
  return ctx->T / sweep_task_real(t, "h");
}

/* Figs. 4b and 5 of Chakraborty et al. from the trace: the sphere's velocity, and per contact the friction's
 * ellipsoidal norm sqrt((p_t/e_t)^2 + (p_o/e_o)^2 + (p_r/e_r)^2) / h against mu times the normal force (they
 * coincide while the contact slides, eq. (5)) and the tangential force alone (below it when the contact also
 * twists: e_r = 0.3). */
static const struct trace_plot trace_plots[] = {
    {.name = "velocity",
     .title = "Chakraborty et al. Fig. 4b: generalized velocity of the small sphere",
     .panel = {{.ylabel = "velocity [m/s]",
                .curve = {{.column = "vx", .title = "v_x"},
                          {.column = "vy", .title = "v_y"},
                          {.column = "vz", .title = "v_z"}}},
               {.ylabel = "angular velocity [rad/s]",
                .curve = {{.column = "wx", .title = "w_x"},
                          {.column = "wy", .title = "w_y"},
                          {.column = "wz", .title = "w_z"}}}}},
    {.name = "forces",
     .title = "Chakraborty et al. Fig. 5: friction force and mu times normal force at contacts 1 and 2",
     .panel = {{.ylabel = "contact 1 force [N]",
                .curve = {{.column = "c1_friction_ellipsoidal", .title = "friction, ellipsoidal norm"},
                          {.column = "c1_friction_force", .title = "tangential force |(f_t, f_o)|"},
                          {.column = "c1_mu_normal_force", .title = "mu x normal force", .reference = 1}}},
               {.ylabel = "contact 2 force [N]",
                .curve = {{.column = "c2_friction_ellipsoidal", .title = "friction, ellipsoidal norm"},
                          {.column = "c2_friction_force", .title = "tangential force |(f_t, f_o)|"},
                          {.column = "c2_mu_normal_force", .title = "mu x normal force", .reference = 1}}},
               {.ylabel = "slip speed [m/s]",
                .curve = {{.column = "c1_slip_speed", .title = "contact 1"},
                          {.column = "c2_slip_speed", .title = "contact 2"}}}}},
};

static const struct sweep_driver driver = {
    .experiment = "sphere_two_spheres",
    .title = "sphere on two spheres: contact transitions (Chakraborty et al. Sec. 6.2, Figs. 4-5)",
    .help =
        "Status ok when every step solved; the transition times are the measurement (the paper: contact 2\n"
        "rolls until ~3.0 s then slides, contact 1 separates at ~3.2 s, contact 2 at ~3.6 s); each is "
        "compared\n"
        "with the exact answer of the continuous-time DAE (columns *_exact, *_error).\n",
    .options = options,
    .steps_observed = 1,
    .n_options = sizeof options / sizeof options[0],
    .settings_size = sizeof(struct s2_ctx),
    .setup = setup,
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .trace_plots = trace_plots,
    .n_trace_plots = sizeof trace_plots / sizeof trace_plots[0],
    .option_fixed = "-geometric_implicit_et 1 -geometric_implicit_eo 1 -geometric_implicit_er 0.3 "
                    "-tzitzouris_pang_et 1 -tzitzouris_pang_eo 1 -tzitzouris_pang_er 0.3",
    .cost = cost,
    .run = run,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
