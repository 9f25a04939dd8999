/* test_grasp_world.c — the Brost–Christiansen lock piece of the grasp study (Chakraborty, Berard, Akella &
 * Trinkle Sec. 6.4, eqs. (56)–(61)) built as a world body — a disc and six p = 4 superellipse teeth — between
 * two fingertips as polygons, and the world's explicit detection (contact2d.c: disc against polygon;
 * contact2d_convex.c: superellipse against polygon by the separating-axis maximum) checked against the grasp
 * model's own signed distance (grasp_geometry.c: the part's support function against the finger's quadrant,
 * an independent implementation) at 300 random poses: the same contacts within 8 mm, the same gaps and
 * normals. A fingertip is the quadrant of eqs. (58)–(61) cut to a 0.2 m box, far larger than the
 * part, so the box's far edges never decide a distance. */
#include "check.h"
#include "grasp.h"
#include "world_detect.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <petscsys.h>

/* Bodies: 0 right finger, 1 left finger (static, at jaw half-opening s), 2 the part; returns the world. */
static struct world *lock_world(double s)
{
  const double L = 0.2;
  struct world *w = world_create(2);
  const double rv[8] = {s, -L, s + L, -L, s + L, 0.0, s, 0.0};
  const double lv[8] = {-s - L, -L, -s, -L, -s, 0.0, -s - L, 0.0};
  world_add_polygon(w, world_add_body(w, 1, 0, 0), 4, rv); /* a body's parts follow it */
  world_add_polygon(w, world_add_body(w, 1, 0, 0), 4, lv);
  int part = world_add_body(w, 0, 0.03, 1e-5);
  world_add_disc(w, part, 0.0, 0.0, GRASP_DISC_RADIUS);
  for (int i = 0; i < GRASP_TEETH; i++)
    world_add_superellipse(w, part, GRASP_DISC_RADIUS * cos(grasp_tooth_angle[i]),
                           GRASP_DISC_RADIUS * sin(grasp_tooth_angle[i]), 0.0, GRASP_TOOTH_A, GRASP_TOOTH_B,
                           4, NULL, 0);
  world_finalize(w);
  return w;
}

static void test_gaps(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 11);
  int compared = 0, teeth = 0, missing = 0;
  double worst_gap = 0.0, worst_n = 0.0;
  for (int trial = 0; trial < 300; trial++) {
    double s = 0.015 + 0.01 * gsl_rng_uniform(rng);
    double q[4] = {-0.01 + 0.02 * gsl_rng_uniform(rng), -0.035 + 0.03 * gsl_rng_uniform(rng),
                   2.0 * M_PI * gsl_rng_uniform(rng), s};
    struct world *w = lock_world(s);
    struct body *b = &w->bodies[2];
    b->x[0] = q[0], b->x[1] = q[1], b->theta = q[2];
    struct contact_set cs = {0, 0, NULL};
    int rc = world_detect(w, 0.008, &cs);
    int seen[2][GRASP_COMPONENTS] = {{0}};
    for (int k = 0; rc == 0 && k < cs.n; k++) {
      const struct contact *c = &cs.c[k];
      int part_is_a = c->a == 2, fbody = part_is_a ? c->b : c->a;
      int comp = (part_is_a ? c->sa : c->sb) - b->shape_begin, finger = fbody == 0 ? 1 : -1;
      struct grasp_contact g;
      grasp_finger_gap(q, finger, comp, &g);
      /* the world's normal points from b to a; the grasp model's from the part to the finger */
      double sgn = part_is_a ? -1.0 : 1.0;
      worst_gap = fmax(worst_gap, fabs(c->gap - g.gap));
      worst_n = fmax(worst_n, hypot(sgn * c->n[0] - g.n[0], sgn * c->n[1] - g.n[1]));
      seen[fbody][comp] = 1;
      compared++;
      teeth += comp > 0;
    }
    /* every contact the grasp model's detection keeps within 7.9 mm is a world contact too (it keeps the
     * GRASP_MAX_CONTACTS nearest: a full list is not checked) */
    struct grasp_contact gl[GRASP_MAX_CONTACTS];
    int ng = grasp_detect(q, 0.0079, gl);
    for (int k = 0; ng < GRASP_MAX_CONTACTS && k < ng; k++)
      missing += !seen[gl[k].finger == 1 ? 0 : 1][gl[k].component];
    contact_set_free(&cs);
    world_destroy(&w);
  }
  gsl_rng_free(rng);
  CHECK(
      compared > 300 && teeth > 100 && missing == 0 && worst_gap < 1e-9 && worst_n < 1e-6,
      "lock piece between two fingertips, 300 poses: %d contacts (%d on teeth), none missing (%d), gap = the "
      "grasp model's to %.1e m, normal to %.1e",
      compared, teeth, missing, worst_gap, worst_n);
}

int main(int argc, char **argv)
{
  PetscInitialize(&argc, &argv, NULL, NULL);
  test_gaps();
  int rc = check_finish();
  PetscFinalize();
  return rc;
}
