/* test_world.c — the world layer against hand-computed answers: polygon hull, area, centroid and second
 * moment; exact intersection areas; 2D contact features and gaps (vertex-edge, vertex-vertex, disc pairs,
 * half-planes); sort-and-sweep finds exactly the all-pairs contacts; energy; the formulation registry
 * (unknown names fail) and friction directions. */
#include "check.h"
#include "formulation.h"
#include "geom2d.h"
#include "scenes.h"
#include "world_detect.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <string.h>

static void test_polygon(void)
{
  /* clockwise square with an interior point: the hull drops it and turns counter-clockwise */
  const double xy[10] = {-1, -1, -1, 1, 0.2, 0.1, 1, 1, 1, -1};
  struct polygon *p = polygon_create(5, xy);
  CHECK(p && p->n == 4, "polygon: hull of a square plus an interior point has 4 vertices");
  if (!p) return;
  CHECK_CLOSE(p->area, 4.0, 1e-14, "polygon: area 4");
  CHECK_CLOSE(p->centroid[0], 0.0, 1e-14, "polygon: centroid x");
  CHECK_CLOSE(p->second_moment, 8.0 / 3.0, 1e-13, "polygon: second moment 8/3 (side 2 square)");
  CHECK_CLOSE(polygon_inertia(p, 3.0), 3.0 * 4.0 / 12.0 * 2.0, 1e-13, "polygon: inertia m (a^2+b^2)/12");
  CHECK_CLOSE(p->en[0] * p->en[0] + p->en[1] * p->en[1], 1.0, 1e-15, "polygon: unit edge normals");
  polygon_free(p);
}

static void test_overlap(void)
{
  const double a[8] = {0, 0, 1, 0, 1, 1, 0, 1}, b[8] = {0.5, 0.5, 1.5, 0.5, 1.5, 1.5, 0.5, 1.5};
  const double far[8] = {3, 3, 4, 3, 4, 4, 3, 4}, tri[6] = {0, 0, 2, 0, 0, 2};
  const double inner[8] = {0.25, 0.25, 0.75, 0.25, 0.75, 0.75, 0.25, 0.75};
  CHECK_CLOSE(geom2d_overlap_area(4, a, 4, b), 0.25, 1e-15, "overlap: offset unit squares 0.25");
  CHECK_CLOSE(geom2d_overlap_area(4, a, 4, far), 0.0, 0.0, "overlap: disjoint squares 0");
  CHECK_CLOSE(geom2d_overlap_area(4, a, 4, inner), 0.25, 1e-15, "overlap: contained square is its own area");
  /* unit square inside the triangle x + y <= 2: the whole square */
  CHECK_CLOSE(geom2d_overlap_area(4, a, 3, tri), 1.0, 1e-15, "overlap: square in triangle 1");
  CHECK_CLOSE(geom2d_overlap_area(3, tri, 4, b), 0.5, 1e-15,
              "overlap: triangle x + y <= 2 cuts half of the offset square");
}

static struct world *two_boxes(double x2, double y2, double th2)
{
  struct world *w = world_create(2);
  const double sq[8] = {-0.5, -0.5, 0.5, -0.5, 0.5, 0.5, -0.5, 0.5};
  int a = world_add_body(w, 0, 1.0, 1.0);
  world_add_polygon(w, a, 4, sq);
  int b = world_add_body(w, 0, 1.0, 1.0);
  world_add_polygon(w, b, 4, sq);
  w->bodies[b].x[0] = x2;
  w->bodies[b].x[1] = y2;
  w->bodies[b].theta = th2;
  world_finalize(w);
  return w;
}

static void test_contacts(void)
{
  struct contact_set cs = {0};
  /* box b resting on box a, shifted by 0.3, 0.02 above: a's two top vertices... b's bottom vertices over a */
  struct world *w = two_boxes(0.3, 1.02, 0.0);
  world_detect(w, 0.05, &cs);
  int ve = 0;
  for (int i = 0; i < cs.n; i++)
    if (strcmp(contact_feature_name(&cs.c[i]), "vertex-edge") == 0 ||
        strcmp(contact_feature_name(&cs.c[i]), "edge-vertex") == 0) {
      ve++;
      CHECK_CLOSE(cs.c[i].gap, 0.02, 1e-12, "contacts: stacked boxes gap 0.02");
      CHECK_CLOSE(fabs(cs.c[i].n[1]), 1.0, 1e-12, "contacts: vertical normal");
    }
  CHECK(cs.n == 2 && ve == 2, "contacts: stacked offset boxes give 2 vertex-edge contacts (%d, %d)", cs.n,
        ve);
  world_destroy(&w);
  /* corner to corner along the diagonal: a vertex-vertex contact with a diagonal normal */
  contact_set_clear(&cs);
  w = two_boxes(1.01, 1.01, 0.0);
  world_detect(w, 0.05, &cs);
  CHECK(cs.n == 1 && strcmp(contact_feature_name(&cs.c[0]), "vertex-vertex") == 0,
        "contacts: diagonal corners give one vertex-vertex contact (%d)", cs.n);
  if (cs.n == 1) {
    CHECK_CLOSE(cs.c[0].gap, 0.01 * sqrt(2.0), 1e-12, "contacts: vertex-vertex gap");
    CHECK_CLOSE(cs.c[0].n[0], -sqrt(0.5), 1e-12, "contacts: normal from b towards a");
  }
  world_destroy(&w);
  /* penetration: b sunk 0.01 into a, offset by 0.2 */
  contact_set_clear(&cs);
  w = two_boxes(0.2, 0.99, 0.0);
  world_detect(w, 0.0, &cs);
  CHECK(cs.n == 2 && cs.c[0].gap < 0.0, "contacts: sunk offset boxes give 2 contacts (%d)", cs.n);
  CHECK_CLOSE(contact_set_max_penetration(&cs), 0.01, 1e-12, "contacts: max penetration 0.01");
  world_destroy(&w);
  /* aligned boxes sunk 0.01 along common side lines: vertical normals, depth 0.01 (not side contacts) */
  contact_set_clear(&cs);
  w = two_boxes(0.0, 0.99, 0.0);
  world_detect(w, 0.02, &cs);
  int vertical = 0;
  for (int i = 0; i < cs.n; i++)
    vertical += fabs(fabs(cs.c[i].n[1]) - 1.0) < 1e-12;
  CHECK(cs.n == 2 && vertical == 2, "contacts: aligned sunk boxes, 2 vertical contacts (%d, %d vertical)",
        cs.n, vertical);
  CHECK_CLOSE(contact_set_max_penetration(&cs), 0.01, 1e-12,
              "contacts: aligned sunk boxes, penetration 0.01");
  world_destroy(&w);
  /* disc on the ground, 0.1 above, and outside the threshold */
  contact_set_clear(&cs);
  w = scene_disc_on_line(0.5, 1.0, 0.6, 0.0);
  world_detect(w, 0.2, &cs);
  CHECK(cs.n == 1 && fabs(cs.c[0].gap - 0.1) < 1e-12, "contacts: disc 0.1 above the line");
  contact_set_clear(&cs);
  world_detect(w, 0.05, &cs);
  CHECK(cs.n == 0, "contacts: beyond the threshold no contact");
  CHECK_CLOSE(world_potential_energy(w), 9.81 * 0.6, 1e-12, "energy: m g y");
  world_destroy(&w);
  contact_set_free(&cs);
}

/* A static open box as a union of three convex parts; a disc resting on its floor touches only the floor
 * part, and a disc pressed into a wall reports that wall part. */
static void test_union(void)
{
  struct world *w = world_create(2);
  const double floor_xy[8] = {-1, -0.2, 1, -0.2, 1, 0, -1, 0},
               left[8] = {-1.2, -0.2, -1, -0.2, -1, 1, -1.2, 1},
               right[8] = {1, -0.2, 1.2, -0.2, 1.2, 1, 1, 1};
  int box = world_add_body(w, 1, 0.0, 0.0);
  int parts[3] = {world_add_polygon(w, box, 4, floor_xy), world_add_polygon(w, box, 4, left),
                  world_add_polygon(w, box, 4, right)};
  int d1 = world_add_body(w, 0, 1.0, 0.1);
  world_add_disc(w, d1, 0.0, 0.0, 0.2);
  int d2 = world_add_body(w, 0, 1.0, 0.1);
  world_add_disc(w, d2, 0.0, 0.0, 0.2);
  w->bodies[d1].x[1] = 0.2;
  w->bodies[d2].x[0] = 0.81;
  w->bodies[d2].x[1] = 0.6;
  CHECK(parts[0] >= 0 && parts[2] >= 0 && world_finalize(w) == 0, "union: three parts on one static body");
  struct contact_set cs = {0};
  world_detect(w, 0.01, &cs);
  int floor_hits = 0, wall_hits = 0;
  for (int i = 0; i < cs.n; i++) {
    const struct contact *c = &cs.c[i];
    int part = c->a == box ? c->sa : c->sb, disc = c->a == box ? c->b : c->a;
    if (disc == d1 && part == parts[0] && fabs(c->gap) < 1e-12) floor_hits++;
    if (disc == d2 && part == parts[2] && fabs(c->gap + 0.01) < 1e-12) wall_hits++;
  }
  CHECK(cs.n == 2 && floor_hits == 1 && wall_hits == 1,
        "union: disc on the floor part, disc 0.01 into the right wall part (%d contacts)", cs.n);
  contact_set_free(&cs);
  world_destroy(&w);
}

static void test_broad_phase(void)
{
  struct contact_set s1 = {0}, s2 = {0};
  struct world *w = scene_cannonball(8, 1.0, 0.1, 1);
  world_detect(w, 0.01, &s1);
  w->broad = BROAD_ALL_PAIRS;
  world_detect(w, 0.01, &s2);
  /* 8 rows: 28 ground/wall... count: ground 8, walls 2, bottom row 7, and each disc above touches 4
   * below/beside */
  CHECK(s1.n == s2.n && s1.n > 0, "broad phase: sweep finds the all-pairs contacts (%d vs %d)", s1.n, s2.n);
  world_destroy(&w);
  contact_set_clear(&s1);
  contact_set_clear(&s2);
  w = scene_polygon_box(60, 0.25, 3, 0.0);
  for (int i = 0; i < w->nb; i++)
    w->bodies[i].x[1] *= 0.7; /* squeeze the grid so neighbours overlap */
  world_detect(w, 0.05, &s1);
  w->broad = BROAD_ALL_PAIRS;
  world_detect(w, 0.05, &s2);
  CHECK(s1.n == s2.n && s1.n > 0, "broad phase: polygons, sweep = all pairs (%d vs %d)", s1.n, s2.n);
  world_destroy(&w);
  contact_set_free(&s1);
  contact_set_free(&s2);
}

static void test_registry(void)
{
  struct formulation *f = NULL;
  CHECK(formulation_create("no_such_formulation", &f, NULL, 0) != 0 && f == NULL,
        "registry: unknown name fails");
  const char *names[] = {"stewart_trinkle", "anitescu_potra", "acceleration_lcp", "impulse_lcp"};
  for (int i = 0; i < 4; i++)
    CHECK(formulation_find(names[i]) != NULL, "registry: %s registered", names[i]);
  const double n[3] = {-sin(0.3), 0.0, cos(0.3)};
  double d[3 * 6];
  formulation_tangents(3, n, 6, d);
  double worst = 0.0;
  for (int l = 0; l < 6; l++) {
    double dn = d[3 * l] * n[0] + d[3 * l + 1] * n[1] + d[3 * l + 2] * n[2];
    double len = sqrt(d[3 * l] * d[3 * l] + d[3 * l + 1] * d[3 * l + 1] + d[3 * l + 2] * d[3 * l + 2]);
    worst = fmax(worst, fmax(fabs(dn), fabs(len - 1.0)));
  }
  CHECK(worst < 1e-14, "tangents: unit and orthogonal to n (%g)", worst);
  CHECK_CLOSE(d[3 * 1] * -cos(0.3) + d[3 * 1 + 2] * -sin(0.3), 0.5 * sqrt(3.0), 1e-14,
              "tangents: a direction 60 degrees from downhill for k = 6 (downhill is t2)");
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_polygon();
  test_overlap();
  test_contacts();
  test_union();
  test_broad_phase();
  test_registry();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
