/* sweep_perturb.c — -perturb_initial EPS and -perturb_seed K: a change of the initial state that changes
 * nothing physical, so that a baseline can measure how far its own trajectory outcomes move under it
 * (bench/regress -baseline runs each quick preset again under it; bench_compare reads the spread). Every
 * dynamic body of a world the engine builds (sweep_task_world) gets each coordinate of its position, its
 * orientation and its velocities moved by EPS * max(|value|, 1) * u, u uniform in [-1, 1]: relative for
 * values above 1, absolute EPS below, so that a body at rest at the origin is perturbed too. The draws come
 * from their own mt19937 seeded from the task's instance seed and K, never from the task's stream: the
 * scene's own draws, and every method of one instance, see the same perturbation. 3D orientations are
 * renormalised after the move. The options are declared here, read by the engine before any task (range
 * checks, "unused" accounting) and again by each task from its own options object. */
#include "sweep_impl.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stddef.h>

const struct option_decl sweep_perturb_options[] = {
    {"perturb_initial", OPT_REAL, offsetof(struct sweep_perturb_settings, eps), "0", "[0,1e-3]",
     "move every dynamic body's initial position, orientation and velocity by EPS * max(|value|, 1) * u, u "
     "uniform in [-1, 1] (0 = off): a change that alters nothing physical, to measure how chaotic a "
     "trajectory's outcomes are (bench/regress -baseline)"},
    {"perturb_seed", OPT_INT, offsetof(struct sweep_perturb_settings, seed), "1", "[0,2147483647]",
     "-perturb_initial: which perturbation (its draws come from the task's instance seed and this)"},
};
const int sweep_n_perturb_options = (int)(sizeof sweep_perturb_options / sizeof sweep_perturb_options[0]);

static void nudge(gsl_rng *r, double eps, double *v, int n)
{
  for (int i = 0; i < n; i++)
    v[i] += eps * fmax(fabs(v[i]), 1.0) * (2.0 * gsl_rng_uniform(r) - 1.0);
}

/* Moves the initial state of w's dynamic bodies (see above). 0, or 1 with a message in msg. */
int sweep_perturb_world(const struct sweep_task *t, struct world *w, char *msg, size_t len)
{
  struct sweep_perturb_settings p;
  if (option_read(sweep_perturb_options, sweep_n_perturb_options, t->options, NULL, &p, msg, len)) return 1;
  if (!(p.eps > 0.0)) return 0;
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  if (!r) {
    snprintf(msg, len, "out of memory (-perturb_initial)");
    return 1;
  }
  gsl_rng_set(r, t->instance_seed ^ ((unsigned long)p.seed * 0x9E3779B97F4A7C15ul));
  for (int b = 0; b < w->nb; b++) {
    struct body *body = &w->bodies[b];
    if (body->is_static) continue;
    nudge(r, p.eps, body->x, w->dim);
    nudge(r, p.eps, body->v, w->dim);
    if (w->dim == 2) {
      nudge(r, p.eps, &body->theta, 1);
      nudge(r, p.eps, &body->w[2], 1);
    } else {
      nudge(r, p.eps, body->q, 4);
      nudge(r, p.eps, body->w, 3);
      double norm = sqrt(body->q[0] * body->q[0] + body->q[1] * body->q[1] + body->q[2] * body->q[2] +
                         body->q[3] * body->q[3]);
      for (int k = 0; k < 4; k++)
        body->q[k] /= norm;
    }
  }
  gsl_rng_free(r);
  return 0;
}
