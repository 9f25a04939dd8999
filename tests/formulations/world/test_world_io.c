/* test_world_io.c — a world as text and back (world_io.h), bit for bit: scenes in 2D and 3D (polygons,
 * joints, polyhedra, spheres, planes) after a few steps (nonzero velocities, non-trivial poses) are written,
 * read back and compared field by field, doubles bit for bit (they travel as their IEEE bits) (so -0.0, and
 * every last bit, count); the text of the copy is the text of the original; damaged or truncated texts are
 * refused with a message. */
#include "check.h"
#include "formulation.h"
#include "scenes.h"
#include "simulation.h"
#include "solver_fixture.h"
#include "world_io.h"

#include <petscsys.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bit for bit (so -0.0 differs from 0.0), not by value. */
static int same_d(const double *a, const double *b, int n)
{
  for (int i = 0; i < n; i++) {
    uint64_t x, y;
    memcpy(&x, &a[i], sizeof x);
    memcpy(&y, &b[i], sizeof y);
    if (x != y) return 0;
  }
  return 1;
}

static int same_i(const int *a, const int *b, int n)
{
  for (int i = 0; i < n; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

static int same_polygon(const struct polygon *a, const struct polygon *b)
{
  if (!a || !b) return a == b;
  return a->n == b->n && same_d(a->v, b->v, 2 * a->n) && same_d(a->en, b->en, 2 * a->n) &&
         same_d(a->ed, b->ed, a->n) && same_d(&a->area, &b->area, 1) && same_d(a->centroid, b->centroid, 2) &&
         same_d(&a->second_moment, &b->second_moment, 1);
}

static int same_polyhedron(const struct polyhedron *a, const struct polyhedron *b)
{
  if (!a || !b) return a == b;
  return a->nv == b->nv && a->nf == b->nf && a->ne == b->ne && same_d(a->v, b->v, 3 * a->nv) &&
         same_i(a->face_start, b->face_start, a->nf + 1) &&
         same_i(a->face_vert, b->face_vert, a->face_start[a->nf]) && same_d(a->fn, b->fn, 3 * a->nf) &&
         same_d(a->fd, b->fd, a->nf) && same_i(a->edge_vert, b->edge_vert, 2 * a->ne) &&
         same_i(a->edge_face, b->edge_face, 2 * a->ne) && same_d(&a->volume, &b->volume, 1) &&
         same_d(a->centroid, b->centroid, 3) && same_d(a->inertia, b->inertia, 9);
}

static int same_body(const struct body *a, const struct body *b)
{
  return a->is_static == b->is_static && a->dof == b->dof && a->group == b->group &&
         same_d(&a->mass, &b->mass, 1) && same_d(&a->inertia, &b->inertia, 1) &&
         same_d(a->inertia3, b->inertia3, 9) && same_d(a->x, b->x, 3) && same_d(&a->theta, &b->theta, 1) &&
         same_d(a->q, b->q, 4) && same_d(a->v, b->v, 3) && same_d(a->w, b->w, 3) && same_d(a->f, b->f, 3) &&
         same_d(a->tau, b->tau, 3) && a->shape_begin == b->shape_begin && a->shape_count == b->shape_count &&
         same_d(&a->bound_radius, &b->bound_radius, 1) && a->unbounded == b->unbounded;
}

static int same_shape(const struct shape *a, const struct shape *b)
{
  return a->kind == b->kind && a->body == b->body && same_d(a->c, b->c, 3) &&
         same_d(&a->radius, &b->radius, 1) && same_d(a->n, b->n, 3) && same_d(&a->d, &b->d, 1) &&
         same_polygon(a->polygon, b->polygon) && same_polyhedron(a->polyhedron, b->polyhedron);
}

static int same_world(const struct world *a, const struct world *b, char *what, size_t len)
{
  if (a->dim != b->dim || a->nb != b->nb || a->ns != b->ns || a->nj != b->nj || a->ndof != b->ndof ||
      a->broad != b->broad)
    return snprintf(what, len, "header"), 0;
  if (!same_d(a->gravity, b->gravity, 3) || !same_d(&a->mu, &b->mu, 1) ||
      !same_d(&a->threshold, &b->threshold, 1) || !same_d(&a->t, &b->t, 1))
    return snprintf(what, len, "gravity / mu / threshold / t"), 0;
  for (int i = 0; i < a->nb; i++)
    if (!same_body(&a->bodies[i], &b->bodies[i])) return snprintf(what, len, "body %d", i), 0;
  for (int i = 0; i < a->ns; i++)
    if (!same_shape(&a->shapes[i], &b->shapes[i])) return snprintf(what, len, "shape %d", i), 0;
  for (int i = 0; i < a->nj; i++) {
    const struct joint *x = &a->joints[i], *y = &b->joints[i];
    if (x->kind != y->kind || x->a != y->a || x->b != y->b || !same_d(x->pa, y->pa, 3) ||
        !same_d(x->pb, y->pb, 3))
      return snprintf(what, len, "joint %d", i), 0;
  }
  return 1;
}

/* Steps w (taken over) a few times with a formulation that handles it, so that poses and velocities are
 * not the scene's round numbers, then round-trips it. */
static void round_trip(const char *label, struct world *w, const char *formulation, int steps)
{
  struct simulation sim;
  PetscOptions none = test_options_object(NULL); /* the run's options: none */
  if (!w || simulation_open(&sim, w, formulation, "lemke", none)) {
    CHECK(0, "%s: the scene opens with %s", label, formulation);
    simulation_close(&sim);
    PetscOptionsDestroy(&none);
    return;
  }
  struct step_record rec;
  for (int k = 0; k < steps; k++)
    stepper_step(sim.st, sim.w, sim.f, sim.s, 1e-3, &rec);
  sim.w->bodies[sim.w->nb - 1].f[0] = -0.0; /* a signed zero must survive too */
  char *text = NULL, *again = NULL, err[256] = "", what[64] = "";
  size_t len = 0, len2 = 0;
  struct world *copy = NULL;
  int rc = world_to_text(sim.w, &text, &len) || world_from_text(text, len, &copy, err, sizeof err);
  CHECK(!rc, "%s: written and read back (%zu bytes) %s", label, len, err);
  if (!rc) {
    CHECK(same_world(sim.w, copy, what, sizeof what),
          "%s: every field equal, bit for bit (first differing: %s)", label, what[0] ? what : "none");
    CHECK(!world_to_text(copy, &again, &len2) && len2 == len && memcmp(text, again, len) == 0,
          "%s: the copy's text is the original's", label);
    CHECK(world_energy(copy) == world_energy(sim.w), "%s: same energy", label);
  }
  /* damage: truncated at several places, a count changed, a number replaced by a word */
  int refused = 0, tried = 0;
  for (size_t cut = 1; text && cut < len - 1; cut += len / 7 + 1) {
    struct world *bad = NULL;
    tried++;
    if (world_from_text(text, cut, &bad, err, sizeof err) && strstr(err, "bad or truncated")) refused++;
    world_destroy(&bad);
  }
  CHECK(tried > 3 && refused == tried, "%s: %d of %d truncations refused with a message", label, refused,
        tried);
  if (text) {
    char *bad_text = strdup(text);
    char *num = bad_text ? strstr(bad_text, "\nbody ") : NULL;
    struct world *bad = NULL;
    if (num) num[6] = 'x';
    CHECK(num && world_from_text(bad_text, len, &bad, err, sizeof err) && strstr(err, "body static flag"),
          "%s: a word for a number is refused (%s)", label, err);
    world_destroy(&bad);
    free(bad_text);
  }
  free(text);
  free(again);
  world_destroy(&copy);
  simulation_close(&sim);
  PetscOptionsDestroy(&none);
}

static void test_bad_header(void)
{
  struct world *w = NULL;
  char err[256] = "";
  const char *v9 = "world 9 2 0 0 0 0 0\nenv 0 0 0 0 0 0\nend\n";
  CHECK(world_from_text(v9, strlen(v9), &w, err, sizeof err) && strstr(err, "version"),
        "another format version is refused (%s)", err);
  const char *big = "world 1 2 3 0 0 0 0\nenv 0 -9.81 0 0 0.01 0\nend\n";
  CHECK(world_from_text(big, strlen(big), &w, err, sizeof err) && !w,
        "fewer bodies than counted: refused (%s)", err);
  CHECK(world_from_text("", 0, &w, err, sizeof err) && !w, "empty text: refused (%s)", err);
  const char *hand = "world 1 2 0 0 0 0 0\nenv 0 -9.81 0 0.3 0.01 0\nend\n";
  CHECK(!world_from_text(hand, strlen(hand), &w, err, sizeof err) && w && w->mu == 0.3 &&
            w->gravity[1] == -9.81,
        "a text written by hand with decimal numbers reads (%s)", err);
  world_destroy(&w);
  const char *cut = "world 1 2 0 0 0 0 0\nenv #0000 0 0 0 0.01 0\nend\n";
  CHECK(world_from_text(cut, strlen(cut), &w, err, sizeof err) && !w, "a short hex number is refused (%s)",
        err);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  const double nu0[3] = {0.3, -0.2, 1.5};
  round_trip("2D disc on a line", scene_disc_on_line(1.0, 1.0, 1.01, 0.3), "stewart_trinkle", 3);
  round_trip("2D polygons in a box", scene_polygon_box(6, 1.0, 7, 0.3), "stewart_trinkle", 5);
  round_trip("2D n-gon", scene_ngon(7, 0.5, 1.0, 0.2, nu0), "stewart_trinkle", 3);
  round_trip("2D chain (revolute joints)", scene_chain_2d(4, 0.5, 1.0, 0.3), "stewart_trinkle", 3);
  round_trip("3D incline (polyhedron)", scene_incline_3d(0.3, 0.5, 0.1, 0.1, 0.1, 1.0), "stewart_trinkle", 3);
  round_trip("3D pendulum (ball joint)", scene_pendulum_3d(1.0, 1.0, 0.4), "stewart_trinkle", 3);
  round_trip("3D cannonball (spheres)", scene_cannonball(2, 1.0, 0.3, 1), "stewart_trinkle", 3);
  round_trip("3D hex pyramid", scene_hex_pyramid(0.5, 0.5, 1.0, 0.3), "stewart_trinkle", 2);
  test_bad_header();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
