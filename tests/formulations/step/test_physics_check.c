/* test_physics_check.c — the formulation-independent physics checks (physics_check.h) on hand-made steps
 * whose violations are known: a disc (2D) or a sphere (3D) on the ground, mu = 0.5, h = 0.01, the state
 * after the step made from chosen impulses (nu+ = nu_free + M^-1 (W_n p_n + W_t lambda_t)), so each check
 * has a closed-form answer: resting (all zero), friction outside the cone (Coulomb = |lambda_t| - mu p_n),
 * friction inside the cone pushing along the sliding (maximum dissipation = (|lambda_t| + mu p_n) |v_t|),
 * an impulse on a contact that opens (Signorini = p_n (gap / h + v_n)), a penetrating state with an energy
 * gain, and in 3D a circumscribed pyramid's corner (|lambda_t| = sqrt 2 mu p_n: Coulomb (sqrt 2 - 1) mu
 * p_n, which a pyramid's own residual does not see); and a drive's impulse told and not told. */
#include "check.h"
#include "formulation.h"
#include "jacobian.h"
#include "physics_check.h"
#include "world_detect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double h = 0.01, mu = 0.5, r = 0.5, m = 2.0;

/* A disc (2D) / sphere (3D) of radius r at height y above the ground, velocity vx along x. */
static struct world *make(int dim, double y, double vx)
{
  struct world *w = world_create(dim);
  if (!w) return NULL;
  int g = world_add_body(w, 1, 0.0, 0.0);
  if (dim == 2) {
    world_add_halfplane(w, g, 0.0, 1.0, 0.0);
  } else {
    const double n[3] = {0.0, 0.0, 1.0};
    world_add_plane(w, g, n, 0.0);
  }
  int b = world_add_body(w, 0, m, 0.5 * m * r * r);
  const double c[3] = {0.0, 0.0, 0.0};
  if (dim == 2)
    world_add_disc(w, b, 0.0, 0.0, r);
  else
    world_add_sphere(w, b, c, r);
  w->bodies[b].x[dim - 1] = y;
  w->bodies[b].v[0] = vx;
  w->mu = mu;
  if (world_finalize(w)) world_destroy(&w);
  return w;
}

struct step {
  struct world *w0, w1; /* w1: w0's shapes with its own bodies after the step */
  struct body after[2];
  struct contact_set cs;
  double pn[4], nu[12];
  double t[2][3]; /* the contact's tangents (as physics_check takes them) */
};

/* The step from impulse pn along the normal and lt[0..1] along the tangents. */
static int build(struct step *s, int dim, double y, double vx, double p, const double lt[2])
{
  memset(s, 0, sizeof *s);
  if (!(s->w0 = make(dim, y, vx)) || world_detect(s->w0, 0.2, &s->cs) || s->cs.n != 1) return 1;
  const struct contact *c = &s->cs.c[0];
  double work[12], dirs[12];
  jacobian_free_velocity(s->w0, h, s->nu, work);
  struct jcol col;
  jcol_contact(s->w0, c, c->n, &col);
  jcol_axpy_minv(&col, p, s->nu);
  formulation_tangents(dim, c->n, dim == 2 ? 2 : 4, dirs);
  memcpy(s->t[0], dirs, sizeof s->t[0]);
  memcpy(s->t[1], dirs + 3, sizeof s->t[1]);
  for (int k = 0; k < dim - 1; k++) {
    jcol_contact(s->w0, c, s->t[k], &col);
    jcol_axpy_minv(&col, lt[k], s->nu);
  }
  s->pn[0] = p;
  s->w1 = *s->w0;
  memcpy(s->after, s->w0->bodies, sizeof s->after);
  s->w1.bodies = s->after;
  world_set_velocity(&s->w1, s->nu);
  world_integrate_positions(&s->w1, h);
  return 0;
}

static void release(struct step *s)
{
  contact_set_free(&s->cs);
  world_destroy(&s->w0);
}

/* The relative tangential velocity after the step along tangent k. */
static double vt(const struct step *s, int k)
{
  struct jcol col;
  jcol_contact(s->w0, &s->cs.c[0], s->t[k], &col);
  return jcol_dot(&col, s->nu);
}

static double vn(const struct step *s)
{
  struct jcol col;
  jcol_contact(s->w0, &s->cs.c[0], s->cs.c[0].n, &col);
  return jcol_dot(&col, s->nu);
}

/* A drive (a support's friction, a motor) pushes the resting disc at its centre by g = 2 mu p_n along x;
 * the disc rolls, its contact's friction -g / 3 inside the cone (v_t+ = 0: m v = 2 g / 3, I omega = -r g /
 * 3). Told of g, every check is 0 and the fit exact (the drive's work g v = 2 g^2 / 3m exceeds the kinetic
 * energy gained, g^2 / 3m); not told, no friction of the one contact explains both the push and the spin
 * (the fit leaves a residual) and the energy gained g^2 / 3m has no work to explain it. */
static void check_drive(double p_rest)
{
  struct step s;
  struct physics_step told, untold;
  const double g_push = 2.0 * mu * p_rest;
  double lt[2] = {0.0, 0.0};
  if (build(&s, 2, r, 1.0, p_rest, lt)) {
    CHECK(0, "drive: world built");
    return;
  }
  lt[0] = -copysign(g_push / 3.0, vt(&s, 0)); /* along -x on the disc */
  release(&s);
  build(&s, 2, r, 0.0, p_rest, lt);
  double g[3] = {g_push, 0.0, 0.0}, dv[3];
  world_apply_inverse_mass(s.w0, g, dv);
  for (int k = 0; k < 3; k++)
    s.nu[k] += dv[k];
  memcpy(s.after, s.w0->bodies, sizeof s.after);
  world_set_velocity(&s.w1, s.nu);
  world_integrate_positions(&s.w1, h);
  CHECK(physics_check_step(s.w0, &s.w1, &s.cs, s.pn, g, s.nu, h, &told) == 0, "drive: checked");
  physics_check_step(s.w0, &s.w1, &s.cs, s.pn, NULL, s.nu, h, &untold);
  CHECK_CLOSE(s.nu[0], 2.0 * g_push / (3.0 * m), 1e-12, "drive: the disc rolls at 2 g / 3m = %g", s.nu[0]);
  CHECK_CLOSE(vt(&s, 0), 0.0, 1e-12, "drive: without slipping");
  CHECK(told.v[2] < 1e-12 && told.v[3] < 1e-12 && told.v[4] < 1e-12 && told.fit < 1e-10,
        "drive told: Coulomb %g, dissipation %g, energy gain %g all 0, fit %g", told.v[2], told.v[3],
        told.v[4], told.fit);
  CHECK(untold.fit > 0.1, "drive untold: the contact's friction cannot explain the motion (fit %g)",
        untold.fit);
  CHECK_CLOSE(untold.v[4], g_push * g_push / (3.0 * m), 1e-12, "drive untold: energy gain g^2 / 3m = %g",
              untold.v[4]);
  release(&s);
}

int main(void)
{
  const double p_rest = m * 9.81 * h, tol = 1e-12;
  struct step s;
  struct physics_step out;

  /* resting: p_n = m g h, no friction, nothing moves */
  const double zero[2] = {0.0, 0.0};
  if (build(&s, 2, r, 0.0, p_rest, zero)) return CHECK(0, "2D world built"), check_finish();
  CHECK(physics_check_step(s.w0, &s.w1, &s.cs, s.pn, NULL, s.nu, h, &out) == 0, "resting: checked");
  for (int j = 0; j < PHYSICS_N_CHECKS; j++)
    CHECK_CLOSE(out.v[j], 0.0, tol, "resting: %s is 0", physics_check_names[j]);
  CHECK_CLOSE(vn(&s), 0.0, tol, "resting: the disc stays (v_n+ = 0)");
  release(&s);

  /* sliding at 1 m/s with friction 1.6 mu p_n opposing it: outside the cone by 0.6 mu p_n, dissipative */
  double lt[2] = {0.0, 0.0};
  build(&s, 2, r, 1.0, p_rest, zero);
  const double slide = vt(&s, 0); /* sign of the sliding along t */
  release(&s);
  lt[0] = -copysign(1.6 * mu * p_rest, slide);
  build(&s, 2, r, 1.0, p_rest, lt);
  physics_check_step(s.w0, &s.w1, &s.cs, s.pn, NULL, s.nu, h, &out);
  CHECK_CLOSE(out.v[2], 0.6 * mu * p_rest, 1e-10, "outside the cone: Coulomb = |lambda_t| - mu p_n");
  CHECK_CLOSE(out.v[3], 0.0, tol, "opposing the sliding: no dissipation violation");
  CHECK_CLOSE(out.v[1], 0.0, tol, "closed contact: no Signorini violation");
  CHECK(out.fit < 1e-10, "the tangential impulse is recovered exactly (fit %g)", out.fit);
  release(&s);

  /* friction inside the cone (0.4 mu p_n) pushing along the sliding: power (|lambda_t| + mu p_n) |v_t| */
  lt[0] = copysign(0.4 * mu * p_rest, slide);
  build(&s, 2, r, 1.0, p_rest, lt);
  physics_check_step(s.w0, &s.w1, &s.cs, s.pn, NULL, s.nu, h, &out);
  CHECK_CLOSE(out.v[2], 0.0, tol, "inside the cone: no Coulomb violation");
  CHECK_CLOSE(out.v[3], 1.4 * mu * p_rest * fabs(vt(&s, 0)), 1e-10,
              "along the sliding: maximum-dissipation violation (|lambda_t| + mu p_n) |v_t+|");
  release(&s);

  /* at the cone's edge opposing the sliding: the maximum-dissipation answer, every check 0 */
  lt[0] = -copysign(mu * p_rest, slide);
  build(&s, 2, r, 1.0, p_rest, lt);
  physics_check_step(s.w0, &s.w1, &s.cs, s.pn, NULL, s.nu, h, &out);
  CHECK(out.v[2] < 1e-12 && out.v[3] < 1e-12, "Coulomb sliding: Coulomb %g, dissipation %g both 0", out.v[2],
        out.v[3]);
  release(&s);

  /* 0.1 m above the ground with an impulse p_n: the contact opens, Signorini = p_n (gap / h + v_n+) */
  const double p_open = 0.05;
  build(&s, 2, r + 0.1, 0.0, p_open, zero);
  physics_check_step(s.w0, &s.w1, &s.cs, s.pn, NULL, s.nu, h, &out);
  CHECK_CLOSE(out.v[1], p_open * (0.1 / h + vn(&s)), 1e-10, "opening contact: Signorini = %g",
              p_open * (0.1 / h + vn(&s)));
  CHECK_CLOSE(out.v[4], 0.0, tol, "a push from above gains no energy here (%g)", out.v[4]);
  release(&s);

  /* after a step that ends 0.05 deep at 2 m/s: penetration 0.05, the energy gained */
  build(&s, 2, r, 0.0, p_rest, zero);
  s.after[1].x[1] = r - 0.05;
  s.after[1].v[0] = 2.0;
  physics_check_step(s.w0, &s.w1, &s.cs, s.pn, NULL, s.nu, h, &out);
  CHECK_CLOSE(out.v[0], 0.05, 1e-12, "penetration after the step = 0.05");
  CHECK_CLOSE(out.v[4], world_energy(&s.w1) - world_energy(s.w0), 1e-12, "energy gain = E+ - E = %g",
              world_energy(&s.w1) - world_energy(s.w0));
  CHECK_CLOSE(out.v[4], 0.5 * m * 4.0 - m * 9.81 * 0.05, 1e-9,
              "the gain is the kinetic energy less the drop");
  release(&s);

  /* 3D: a circumscribed pyramid's corner, lambda_t = mu p_n (t1 + t2): the true cone is exceeded by
   * (sqrt 2 - 1) mu p_n */
  lt[0] = lt[1] = mu * p_rest;
  if (build(&s, 3, r, 0.0, p_rest, lt)) return CHECK(0, "3D world built"), check_finish();
  physics_check_step(s.w0, &s.w1, &s.cs, s.pn, NULL, s.nu, h, &out);
  CHECK_CLOSE(out.v[2], (sqrt(2.0) - 1.0) * mu * p_rest, 1e-10,
              "pyramid corner: Coulomb (sqrt 2 - 1) mu p_n");
  CHECK(out.fit < 1e-10, "3D tangential impulse recovered exactly (fit %g)", out.fit);
  release(&s);
  lt[0] = 0.6 * mu * p_rest, lt[1] = 0.0;
  build(&s, 3, r, 0.0, p_rest, lt);
  physics_check_step(s.w0, &s.w1, &s.cs, s.pn, NULL, s.nu, h, &out);
  CHECK_CLOSE(out.v[2], 0.0, tol, "3D inside the cone: no Coulomb violation");
  release(&s);
  check_drive(p_rest);
  return check_finish();
}
