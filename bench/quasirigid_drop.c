/* NAME    bench_quasirigid_drop — a unit disc dropped on a quasi-rigid half-plane: Chakraborty, Berard,
 * Akella & Trinkle, "A geometrically implicit time-stepping method ...", Sec. 6.3, Figs. 7-8, eqs. (48)-(55).
 * PURPOSE for each (delta_max, h, solver) drop a rigid unit disc (m = 1, J = 0.5) from y = 1.5 at rest onto
 * the frictionless quasi-rigid ground (k = 1000, no damping) for -t_end seconds (formulation quasi_rigid) and
 * compare with the analytic answer: free fall to first contact at t_c = sqrt(2 * 0.5 / g) with speed v_c = g
 * t_c; then the undamped spring, deflection delta(tau) = (mg/k)(1 - cos w tau) + (v_c / w) sin w tau (w =
 * sqrt(k/m)), whose largest value is mg/k + sqrt((mg/k)^2 + (v_c/w)^2) = 0.1093 m; when delta_max is below it
 * the rigid core is hit at the first root of delta(tau) = delta_max (0.05 m: t = 0.336 s; the paper: ~0.34 s)
 * and the normal velocity there, v_i, is lost (energy lost m v_i^2 / 2), after which the disc bounces on the
 * spring and never reaches the core again with speed. Columns: the measured and analytic times of first
 * contact and of the core impact, the largest deflection (measured from the disc's height, delta = 1 - y),
 * the total energy (kinetic + gravity + k delta^2 / 2) drift outside the core impact (largest |E - E_ref|,
 * E_ref the energy at the start, then just after the impact; the paper: within 1e-5 J at h = 1e-4; backward
 * Euler loses h (w^2 E_osc T_contact + m g^2 T_flight / 2), 0.056 J in 1 s at h = 1e-4), the energy lost at
 * the core impact (summed over the consecutive steps that end at the core), the cost per step. Status ok:
 * first contact and core impact within 2 h of the analytic times and the largest deflection within 5 %
 * (backward Euler damps the spring a little: its energy decays like exp(-w^2 h t)); else fail. -dim 3 drops a
 * unit sphere (J = 2/5) on the compliant plane z <= 0 instead (quasi_rigid's 3D form): the same vertical
 * motion, so the same analytic answer. USAGE
 * bench_quasirigid_drop [-options_file bench/experiments/quasirigid_drop.opts] [-dim 2,3] [-delta_max 0.05,1]
 *         [-h 1e-3,1e-4] [-cp_solver fb_newton] [-t_end 1] [sweep options: see -help]
 * PAPER   Chakraborty et al. Sec. 5.1, eqs. (33)-(38) and (48)-(55) (formulation quasi_rigid).
 * Runs on the sweep engine: results/quasirigid_drop/<run>/tasks.csv, summary, plots. */
#include "engine/sweep_observers.h"
#include "scenes.h"
#include "simulation.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sweep_axis axes[] = {
    {"dim", NULL, SWEEP_INT, "2",
     "dimension: 2 (the paper's disc on a half-plane) or 3 (a sphere on a plane)", 0, SWEEP_INSTANCE,
     "[2,3]"},
    {"delta_max", NULL, SWEEP_REAL, "0.05,1", "maximum deflection of the compliant layer [m]", 0,
     SWEEP_INSTANCE, "(0,inf)"},
    {"h", NULL, SWEEP_REAL, "1e-3,1e-4", "time step [s]", 0, SWEEP_METHOD, "(0,inf)"},
    {"formulation", NULL, SWEEP_FORMULATION, "quasi_rigid", "formulations", 0, SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "fb_newton", "solvers", 0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"t_contact", SWEEP_INFO, "time of first contact (first step end with delta > 0) [s]", .floor = 0},
    {"t_contact_analytic", SWEEP_INFO, "free fall: sqrt(2 * 0.5 / g) [s]", .floor = 0},
    {"t_core", SWEEP_INFO, "time of the rigid-core impact (delta reaches delta_max) [s] (empty: none)",
     .floor = 0},
    {"t_core_analytic", SWEEP_INFO,
     "first root of the undamped spring's delta(tau) = delta_max [s] (empty: none)", .floor = 0},
    {"deflection_max", SWEEP_INFO, "largest deflection over the run [m]", .floor = 0},
    {"deflection_analytic", SWEEP_INFO, "min(delta_max, undamped spring's largest deflection) [m]",
     .floor = 0},
    {"deflection_rel_error", SWEEP_METRIC, "|measured - analytic| / analytic largest deflection",
     .floor = 1e-9},
    {"energy_drift", SWEEP_METRIC,
     "largest |E - E_ref| outside the core impact (E_ref: start, then after it) [J]", .floor = 1e-12},
    {"energy_lost_core", SWEEP_INFO, "energy lost over the core-impact step [J] (empty: no impact)",
     .floor = 0},
    {"energy_lost_core_analytic", SWEEP_INFO, "m v_i^2 / 2 at the analytic impact [J] (empty: none)",
     .floor = 0},
    {"step_seconds", SWEEP_COST,
     "wall time per step, whole step (detect + assemble + solve + recover), mean over the run [s]",
     .floor = 0},
    {"solve_seconds", SWEEP_COST, "wall time per step in the solver only, mean over the run [s]", .floor = 0},
    {"failed_at", SWEEP_INFO, "simulated time at the start of the first failed step [s] (empty: none)",
     .floor = 0},
};

struct qd_ctx {
  double T;
};

static const double g = 9.81, k_spring = 1000.0, m = 1.0, y_start = 1.5;

/* The analytic answer (see the header). */
struct qd_answer {
  double tc, vc, dmax_free, t_core, v_core, e_core;
};

static double spring_delta(double tau, double de, double vw, double w)
{
  return de * (1 - cos(w * tau)) + vw * sin(w * tau);
}

static void analytic(double dmax, struct qd_answer *a)
{
  double w = sqrt(k_spring / m), de = m * g / k_spring;
  a->tc = sqrt(2 * (y_start - 1.0) / g);
  a->vc = g * a->tc;
  double vw = a->vc / w, A = hypot(de, vw);
  a->dmax_free = de + A;
  a->t_core = a->v_core = a->e_core = NAN;
  if (dmax >= a->dmax_free) return;
  double lo = 0.0, hi = (M_PI / 2 + asin(de / A)) / w; /* delta rises monotonically up to its peak */
  for (int it = 0; it < 200; it++) {
    double mid = 0.5 * (lo + hi);
    if (spring_delta(mid, de, vw, w) < dmax)
      lo = mid;
    else
      hi = mid;
  }
  a->t_core = a->tc + lo;
  a->v_core = de * w * sin(w * lo) + a->vc * cos(w * lo);
  a->e_core = 0.5 * m * a->v_core * a->v_core;
}

/* Per-step measurements of the drop. */
struct drop_obs {
  double dmax, t_contact, t_core, e_ref, drift, e_before, e_lost, delta, energy;
  double core; /* delta_max: the impact threshold */
  int at_core; /* 1 while the disc rests on the core right after the impact */
};

/* the centre's height: y in 2D, z in 3D */
static double height(const struct world *w) { return w->bodies[1].x[w->dim - 1]; }

static double deflection(const struct world *w) { return fmax(0.0, 1.0 - height(w)); }

static double drop_energy(const struct world *w)
{
  double d = deflection(w);
  return world_kinetic_energy(w) + m * g * height(w) + 0.5 * k_spring * d * d;
}

/* The unit disc on the line y = 0 (2D), or a unit sphere (J = 2/5 m) on the plane z = 0 (3D), at height y0.
 */
static struct world *drop_world(int dim, double y0)
{
  if (dim == 2) return scene_disc_on_line(1.0, m, y0, 0.0);
  struct world *w = world_create(3);
  const double up[3] = {0, 0, 1}, c0[3] = {0, 0, 0};
  world_add_plane(w, world_add_body(w, 1, 0, 0), up, 0.0);
  world_add_sphere(w, world_add_body(w, 0, m, 0.4 * m), c0, 1.0);
  world_finalize(w);
  w->bodies[1].x[2] = y0;
  return w;
}

static int drop_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  struct drop_obs *o = vctx;
  (void)k;
  (void)rec;
  double d = deflection(sim->w), e = drop_energy(sim->w);
  o->delta = d;
  o->energy = e;
  if (d > 0 && isnan(o->t_contact)) o->t_contact = sim->w->t;
  if (d > o->dmax) o->dmax = d;
  if (isnan(o->t_core) && d >= o->core - 1e-9) {
    o->t_core = sim->w->t;
    o->e_lost = o->e_before - e;
    o->e_ref = e;
    o->at_core = 1;
  } else if (o->at_core && d >= o->core - 1e-6 && o->e_before - e > 0.01) {
    /* the core row 0 <= p_nr perp delta_max - delta^(l+1) stops the disc at delta_max, which takes a second
     * step when the step before ended closer to the core than h v_i: the impact is every following step that
     * ends at the core (to the solver's tolerance) and loses more than backward Euler's damping does in a
     * step (h^2 w^2 E_osc <= 5e-3 J for h <= 1e-3) */
    o->e_lost += o->e_before - e;
    o->e_ref = e;
  } else {
    o->at_core = 0;
    if (fabs(e - o->e_ref) > o->drift) o->drift = fabs(e - o->e_ref);
  }
  o->e_before = e;
  return RUN_CONTINUE;
}

static void drop_values(void *vctx, double *v)
{
  const struct drop_obs *o = vctx;
  v[0] = o->delta;
  v[1] = o->energy;
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct qd_ctx *ctx = vctx;
  const double dmax = sweep_task_real(task, "delta_max"), h = sweep_task_real(task, "h");
  const char *form = sweep_task_string(task, "formulation"), *solver = sweep_task_string(task, "solver");
  char text[32];
  snprintf(text, sizeof text, "%.17g", dmax);
  /* the formulation reads delta_max from the options database (its declared option) */
  if (strcmp(form, "quasi_rigid") == 0) PetscOptionsSetValue(NULL, "-quasi_rigid_delta_max", text);
  int rc = 1;
  struct simulation sim;
  int sim_bad = simulation_open(&sim, drop_world((int)sweep_task_int(task, "dim"), y_start), form, solver);
  struct drop_obs ob = {0, NAN, NAN, 0, 0, 0, 0, 0, 0, 0, 0};
  struct run_observer obs[3];
  int n_obs = 0;
  if (sim_bad) goto cleanup;
  rc = 0;
  struct world *w = sim.w;
  if (strcmp(form, "quasi_rigid") != 0 || !(sim.s->type->kinds & CP_NCP)) {
    sweep_row_status(row, "not_applicable"); /* the compliant layer is the quasi-rigid formulation's */
    goto cleanup;
  }
  w->threshold = 2.0; /* the falling disc's pair is in the problem from the start (p = 0 while apart) */
  struct qd_answer an;
  analytic(dmax, &an);
  ob.e_ref = ob.e_before = drop_energy(w);
  ob.core = dmax;
  const int steps = (int)floor(ctx->T / h + 1e-9);
  obs[n_obs++] = (struct run_observer){.name = "drop",
                                       .ctx = &ob,
                                       .after_step = drop_after,
                                       .columns = "deflection,total_energy",
                                       .n_columns = 2,
                                       .values = drop_values};
  struct run_summary sum;
  if (sweep_observers_standard(task, obs, &n_obs, 3) || simulation_run(&sim, h, steps, obs, n_obs, &sum)) {
    rc = 1;
    goto cleanup;
  }
  double d_an = fmin(dmax, an.dmax_free), derr = fabs(ob.dmax - d_an) / d_an;
  sweep_row_set(row, "t_contact", ob.t_contact);
  sweep_row_set(row, "t_contact_analytic", an.tc);
  if (!isnan(ob.t_core)) sweep_row_set(row, "t_core", ob.t_core); /* unset: an empty cell (no impact) */
  if (!isnan(an.t_core)) sweep_row_set(row, "t_core_analytic", an.t_core);
  sweep_row_set(row, "deflection_max", ob.dmax);
  sweep_row_set(row, "deflection_analytic", d_an);
  sweep_row_set(row, "deflection_rel_error", derr);
  sweep_row_set(row, "energy_drift", ob.drift);
  if (!isnan(ob.t_core)) sweep_row_set(row, "energy_lost_core", ob.e_lost);
  if (!isnan(an.e_core)) sweep_row_set(row, "energy_lost_core_analytic", an.e_core);
  sweep_row_set(row, "step_seconds", sum.step_seconds);
  sweep_row_set(row, "solve_seconds", sum.solve_seconds);
  if (sum.failed_steps) {
    sweep_row_status(row, "solve_failed");
    sweep_row_set(row, "failed_at", sum.failed_at);
    goto cleanup;
  }
  int ok = fabs(ob.t_contact - an.tc) <= 2 * h && derr <= 0.05;
  ok = ok && (isnan(an.t_core) ? isnan(ob.t_core) : fabs(ob.t_core - an.t_core) <= 2 * h);
  sweep_row_status(row, ok ? "ok" : "fail");
cleanup:
  if (strcmp(form, "quasi_rigid") == 0) PetscOptionsClearValue(NULL, "-quasi_rigid_delta_max");
  run_observers_destroy(obs, n_obs);
  simulation_close(&sim);
  return rc;
}

static const struct option_decl options[] = {
    {"t_end", OPT_REAL, offsetof(struct qd_ctx, T), "1", "(0,inf)", "simulated seconds per run [s]"},
};

static const struct sweep_driver driver;

static int setup(void **vctx)
{
  struct qd_ctx *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return 1;
  *vctx = ctx;
  return sweep_read_options(&driver, ctx);
}

static double cost(const struct sweep_task *t, void *vctx)
{
  const struct qd_ctx *ctx = vctx;
  return ctx->T / sweep_task_real(t, "h");
}

static void teardown(void *ctx) { free(ctx); }

static const struct sweep_driver driver = {
    .experiment = "quasirigid_drop",
    .title = "disc dropped on a quasi-rigid half-plane vs the undamped spring (Chakraborty et al. Sec. 6.3)",
    .help = "Status ok: first contact and core impact within 2 h of the analytic times, largest deflection\n"
            "within 5 %; else fail. -quasi_rigid_delta_max is set per task from the delta_max axis.\n",
    .options = options,
    .steps_observed = 1,
    .n_options = sizeof options / sizeof options[0],
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .setup = setup,
    .cost = cost,
    .run = run,
    .teardown = teardown,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
