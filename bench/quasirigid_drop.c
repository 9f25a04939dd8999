/* NAME    bench_quasirigid_drop — a unit disc dropped on a quasi-rigid half-plane: Chakraborty, Berard,
 * Akella & Trinkle, "A geometrically implicit time-stepping method ...", Sec. 6.3, Figs. 7-8, eqs. (48)-(55).
 * PURPOSE for each (quasi_rigid_delta_max, h, solver) drop a rigid unit disc (m = 1, J = 0.5) from y = 1.5 at
 * rest onto the frictionless quasi-rigid ground (k = 1000, no damping) for -t_end seconds (formulation
 * quasi_rigid) and compare with the analytic answer: free fall to first contact at t_c = sqrt(2 * 0.5 / g)
 * with speed v_c = g t_c; then the undamped spring, deflection delta(tau) = (mg/k)(1 - cos w tau) + (v_c / w)
 * sin w tau (w = sqrt(k/m)), whose largest value is mg/k + sqrt((mg/k)^2 + (v_c/w)^2) = 0.1093 m; when
 * delta_max is below it the rigid core is hit at the first root of delta(tau) = delta_max (0.05 m: t = 0.336
 * s; the paper: ~0.34 s) and the normal velocity there, v_i, is lost (energy lost m v_i^2 / 2), after which
 * the disc bounces on the spring and never reaches the core again with speed. Columns: the measured and
 * analytic times of first contact and of the core impact, the largest deflection (measured from the disc's
 * height, delta = 1 - y), the total energy (kinetic + gravity + k delta^2 / 2) drift outside the core impact
 * (largest |E - E_ref|, E_ref the energy at the start, then just after the impact; the paper: within 1e-5 J
 * at h = 1e-4; backward Euler loses h (w^2 E_osc T_contact + m g^2 T_flight / 2), 0.056 J in 1 s at h =
 * 1e-4), the energy lost at the core impact (summed over the consecutive steps that end at the core), the
 * cost per step. Status ok: first contact and core impact within 2 h of the analytic times and the largest
 * deflection within 5 % (backward Euler damps the spring a little: its energy decays like exp(-w^2 h t));
 * else fail. -dim 3 drops a unit sphere (J = 2/5) on the compliant plane z <= 0 instead (quasi_rigid's 3D
 * form): the same vertical motion, so the same analytic answer. Per-step trace (-trace DIR): height, vertical
 * velocity, deflection, the layer's and the core's impulses p_ns and p_nr, kinetic, gravity, spring and total
 * energy, and the analytic height, velocity, deflection and total energy at the same t (after the core impact
 * the disc bounces: the spring throws it off the layer when k delta_max > 2 m g, it flies and lands back,
 * reaching delta_max again with zero speed, so no further loss); with plots unless -no_plots, the curves of
 * Figs. 7-8 against the analytic ones: DIR/quasirigid_drop_taskID_{position,velocity,impulses,energy}.png.
 * USAGE bench_quasirigid_drop [-options_file bench/experiments/quasirigid_drop.opts] [-dim 2,3]
 * [-quasi_rigid_delta_max 0.05,1]
 *         [-h 1e-3,1e-4] [-cp_solver fb_newton] [-t_end 1] [-trace DIR] [sweep options: see -help]
 * PAPER   Chakraborty et al. Sec. 5.1, eqs. (33)-(38) and (48)-(55) (formulation quasi_rigid).
 * Runs on the sweep engine: results/quasirigid_drop/<run>/tasks.csv, summary, plots. */
#include "engine/sweep_observers.h"
#include "plot_trace.h"
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
    {"quasi_rigid_delta_max", NULL, SWEEP_OPTION, "0.05,1", "maximum deflection of the compliant layer [m]",
     0, SWEEP_INSTANCE, "(0,inf)"},
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

/* The analytic answer (see the header), from its two kinds of phase. In the layer (delta = 1 - y >= 0, rate
 * u = -v) the undamped spring gives delta(tau) = de + R cos(w tau - th), de = mg/k the static deflection, R
 * and th from the phase's start; the phase ends where delta comes back to 0 (the disc leaves with the speed
 * it came in with) or, when de + R > delta_max, first where delta rises through delta_max: the core impact,
 * where u drops to 0 (energy m u^2 / 2 lost) and a new spring phase starts from (delta_max, 0). Above the
 * layer the disc flies freely until y = 1. */
static const double w_n = 31.622776601683793; /* sqrt(k_spring / m) */

/* The spring phase from deflection d0 and rate u0: its amplitude *R and phase *th. */
static void spring_phase(double d0, double u0, double *R, double *th)
{
  const double de = m * g / k_spring;
  *R = hypot(d0 - de, u0 / w_n);
  *th = atan2(u0 / w_n, d0 - de);
}

static void spring_at(double d0, double u0, double tau, double *d, double *u)
{
  double R, th, de = m * g / k_spring;
  spring_phase(d0, u0, &R, &th);
  *d = de + R * cos(w_n * tau - th);
  *u = -R * w_n * sin(w_n * tau - th);
}

/* The length of the spring phase from (d0, u0) (INFINITY: it never ends, the layer holds the disc); *core =
 * 1 when it ends at the rigid core, 0 when the disc leaves the layer. */
static double spring_end(double d0, double u0, double dmax, int *core)
{
  const double de = m * g / k_spring, period = 2 * M_PI / w_n;
  double R, th;
  spring_phase(d0, u0, &R, &th);
  *core = de + R > dmax * (1 + 1e-12);
  if (*core) { /* rising through delta_max: w tau - th = -acos((dmax - de) / R), the first such tau > 0 */
    double tau = (th - acos((dmax - de) / R)) / w_n;
    while (tau <= 0)
      tau += period;
    return tau;
  }
  if (R < de) return INFINITY;             /* delta stays > 0 */
  double tau = (acos(-de / R) + th) / w_n; /* falling through 0: w tau - th = acos(-de / R) */
  while (tau <= 1e-15)
    tau += period;
  return tau;
}

struct qd_answer {
  double tc, vc, dmax_free, t_core, v_core, e_core;
};

static void analytic(double dmax, struct qd_answer *a)
{
  a->tc = sqrt(2 * (y_start - 1.0) / g);
  a->vc = g * a->tc;
  double R, th, d, core;
  int hit;
  spring_phase(0.0, a->vc, &R, &th);
  a->dmax_free = m * g / k_spring + R;
  a->t_core = a->v_core = a->e_core = NAN;
  double tau = spring_end(0.0, a->vc, dmax, &hit);
  if (!hit) return;
  spring_at(0.0, a->vc, tau, &d, &core);
  a->t_core = a->tc + tau;
  a->v_core = core;
  a->e_core = 0.5 * m * core * core;
}

/* The analytic state at time t: height *y, vertical velocity *v, deflection *d and total energy *e, phase by
 * phase from the release at rest. */
static void analytic_at(double dmax, double t, double *y, double *v, double *d, double *e)
{
  double t0 = 0.0, y0 = y_start, v0 = 0.0, lost = 0.0; /* the phase's start */
  int in_layer = 0, resting = 0;
  for (int phase = 0; phase < 100000; phase++) {
    double s = t - t0;
    if (resting) { /* k delta_max <= m g: the core carries the disc after the impact */
      *y = 1.0 - dmax, *v = 0.0;
      break;
    }
    if (!in_layer) { /* flight down to y = 1 */
      double tau = (v0 + sqrt(v0 * v0 + 2 * g * (y0 - 1.0))) / g;
      if (s <= tau) {
        *y = y0 + v0 * s - 0.5 * g * s * s;
        *v = v0 - g * s;
        break;
      }
      t0 += tau, y0 = 1.0, v0 -= g * tau, in_layer = 1;
      continue;
    }
    int hit;
    double du, dd, tau = spring_end(1.0 - y0, -v0, dmax, &hit);
    spring_at(1.0 - y0, -v0, fmin(s, tau), &dd, &du);
    if (s <= tau) {
      *y = 1.0 - dd, *v = -du;
      break;
    }
    t0 += tau;
    if (hit) { /* the core stops the disc */
      lost += 0.5 * m * du * du;
      y0 = 1.0 - dmax, v0 = 0.0;
      resting = dmax <= m * g / k_spring;
    } else /* leaves the layer upwards with the speed it came in with */
      y0 = 1.0, v0 = fabs(du), in_layer = 0;
  }
  *d = fmax(0.0, 1.0 - *y);
  *e = m * g * y_start - lost;
}

/* Per-step measurements of the drop. */
struct drop_obs {
  double dmax, t_contact, t_core, e_ref, drift, e_before, e_lost;
  double core; /* delta_max: the impact threshold */
  int at_core; /* 1 while the disc rests on the core right after the impact */
  /* the trace's row (drop_values): the step's state, impulses, energies and the analytic state at its t */
  double y, v, delta, p_ns, p_nr, ke, pe, se, energy, y_an, v_an, d_an, e_an;
};

/* The trace's columns, in drop_values' order (impulses in N s, energies in J). */
#define DROP_TRACE_COLUMNS                                                                                   \
  "height,velocity,deflection,p_ns,p_nr,kinetic_energy,gravity_energy,spring_energy,total_energy,"           \
  "height_analytic,velocity_analytic,deflection_analytic,total_energy_analytic"
enum { DROP_TRACE_N = 13 };

/* the centre's height: y in 2D, z in 3D */
static double height(const struct world *w) { return w->bodies[1].x[w->dim - 1]; }

static double deflection(const struct world *w) { return fmax(0.0, 1.0 - height(w)); }

static double drop_energy(const struct world *w)
{
  double d = deflection(w);
  return world_kinetic_energy(w) + m * g * height(w) + 0.5 * k_spring * d * d;
}

static int drop_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  struct drop_obs *o = vctx;
  (void)k;
  const struct world *w = sim->w;
  double d = deflection(w), e = drop_energy(w), h = rec->t - rec->t_start;
  o->y = height(w);
  o->v = w->bodies[1].v[w->dim - 1];
  o->delta = d;
  o->ke = world_kinetic_energy(w);
  o->pe = m * g * o->y;
  o->se = 0.5 * k_spring * d * d;
  o->energy = e;
  /* The step's normal impulse p_n = p_ns + p_nr (the formulation's recovered one, summed over the contacts);
   * the layer's share is its row (49) with c = 0, p_ns = h k delta^(l+1) (delta^(l+1) = 1 - y^(l+1) to the
   * solver's tolerance), so the core's is the rest. */
  const struct contact_set *cs = stepper_contacts(sim->st);
  const double *pn = stepper_impulses(sim->st);
  double p_n = 0.0;
  for (int i = 0; rec->advanced && cs && pn && i < cs->n; i++)
    p_n += pn[i];
  o->p_ns = rec->advanced ? h * k_spring * d : NAN;
  o->p_nr = rec->advanced ? p_n - o->p_ns : NAN;
  analytic_at(o->core, w->t, &o->y_an, &o->v_an, &o->d_an, &o->e_an);
  if (d > 0 && isnan(o->t_contact)) o->t_contact = w->t;
  if (d > o->dmax) o->dmax = d;
  if (isnan(o->t_core) && d >= o->core - 1e-9) {
    o->t_core = w->t;
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
  const double row[DROP_TRACE_N] = {o->y,  o->v,      o->delta, o->p_ns, o->p_nr, o->ke,  o->pe,
                                    o->se, o->energy, o->y_an,  o->v_an, o->d_an, o->e_an};
  memcpy(v, row, sizeof row);
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  (void)vctx; /* its t_end is the engine's step count (task->steps) */
  /* the formulation reads delta_max from the task's options: the axis is its option's */
  const double dmax = sweep_task_real(task, "quasi_rigid_delta_max"), h = sweep_task_real(task, "h");
  const char *form = sweep_task_string(task, "formulation"), *solver = sweep_task_string(task, "solver");
  int rc = 1;
  struct simulation sim;
  /* the unit disc on the line y = 0 (2D), or a unit sphere (J = 2/5 m) on the plane z = 0 (3D), dropped
   * from the centre's height y_start */
  struct world *w0 =
      sweep_task_int(task, "dim") == 2
          ? sweep_task_world(task, "disc_on_line:radius=1:mass=%.17g:y0=%.17g:mu=0", m, y_start)
          : sweep_task_world(task, "sphere_roll3d:radius=1:mass=%.17g:mu=0:v0=0:gap=%.17g", m, y_start - 1.0);
  int sim_bad = simulation_open(&sim, w0, form, solver, task->options);
  struct drop_obs ob = {.t_contact = NAN, .t_core = NAN};
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
  const long steps = task->steps;
  obs[n_obs++] = (struct run_observer){.name = "drop",
                                       .ctx = &ob,
                                       .after_step = drop_after,
                                       .columns = DROP_TRACE_COLUMNS,
                                       .n_columns = DROP_TRACE_N,
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
  run_observers_destroy(obs, n_obs);
  simulation_close(&sim);
  return rc;
}

/* The curves of Figs. 7 (delta_max = 0.05: core impact) and 8 (delta_max = 1: none) from the trace, the
 * simulated ones solid, the analytic answer dashed. */
static const struct trace_plot trace_plots[] = {
    {.name = "position",
     .title = "Chakraborty et al. Figs. 7c and 8c: height of the disc's centre and deflection of the layer",
     .panel = {{.ylabel = "height of the centre y [m]",
                .curve = {{.column = "height", .title = "simulated"},
                          {.column = "height_analytic", .title = "analytic", .reference = 1}}},
               {.ylabel = "deflection delta [m]",
                .curve = {{.column = "deflection", .title = "simulated"},
                          {.column = "deflection_analytic", .title = "analytic", .reference = 1}}}}},
    {.name = "velocity",
     .title = "Chakraborty et al. Figs. 7d and 8d: vertical velocity of the disc",
     .panel = {{.ylabel = "velocity v_y [m/s]",
                .curve = {{.column = "velocity", .title = "simulated"},
                          {.column = "velocity_analytic", .title = "analytic", .reference = 1}}}}},
    {.name = "impulses",
     .title =
         "Chakraborty et al. Figs. 7a, 7b and 8b: normal impulses per step of the rigid core and the layer",
     .panel = {{.ylabel = "rigid-core impulse p_nr [N s]",
                .curve = {{.column = "p_nr", .title = "p_nr (eq. (55))"}},
                .yrange = "[-0.5:3.5]"}, /* 0 up to m v_c = 3.13 N s: the speed at first contact */
               {.ylabel = "compliant-layer impulse p_ns [N s]",
                .curve = {{.column = "p_ns", .title = "p_ns = h k delta (eq. (49))"}}}}},
    {.name = "energy",
     .title = "Chakraborty et al. Figs. 7e and 8a: energy of the disc and the spring, simulated and analytic",
     .panel = {{.ylabel = "energy [J]",
                .curve = {{.column = "total_energy", .title = "total (simulated)"},
                          {.column = "kinetic_energy", .title = "kinetic"},
                          {.column = "gravity_energy", .title = "gravity m g y"},
                          {.column = "spring_energy", .title = "spring k delta^2 / 2"},
                          {.column = "total_energy_analytic", .title = "total (analytic)", .reference = 1}}},
               {.ylabel = "total energy, simulated - analytic [J]",
                .curve = {{.column = "total_energy",
                           .title = "E - E_analytic",
                           .minus = "total_energy_analytic"}}}}},
};

static const struct option_decl options[] = {
    {"t_end", OPT_REAL, offsetof(struct qd_ctx, T), "1", "(0,inf)", "simulated seconds per run [s]"},
};

static double cost(const struct sweep_task *t, void *vctx)
{
  const struct qd_ctx *ctx = vctx;
  return ctx->T / sweep_task_real(t, "h");
}

static const struct sweep_driver driver = {
    .experiment = "quasirigid_drop",
    .title = "disc dropped on a quasi-rigid half-plane vs the undamped spring (Chakraborty et al. Sec. 6.3)",
    .help = "Status ok: first contact and core impact within 2 h of the analytic times, largest deflection\n"
            "within 5 %; else fail.\n",
    .options = options,
    .steps_observed = 1,
    .n_options = sizeof options / sizeof options[0],
    .settings_size = sizeof(struct qd_ctx),
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .cost = cost,
    .run = run,
    .trace_plots = trace_plots,
    .n_trace_plots = sizeof trace_plots / sizeof trace_plots[0],
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
