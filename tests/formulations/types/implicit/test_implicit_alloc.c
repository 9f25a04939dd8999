/* test_implicit_alloc.c — the geometrically implicit formulations' F and J callbacks (Chakraborty, Berard,
 * Akella & Trinkle; formulations/types/implicit/implicit_step.c) allocate nothing: their workspaces are sized
 * at assemble. This test counts malloc, calloc and realloc (its own definitions, which forward to the next
 * ones, dlsym RTLD_NEXT, so the sanitizers' allocators still serve them) while a semismooth Newton would call
 * F and J, for geometric_implicit and quasi_rigid in 2D and 3D, each with friction and with body 2 a polygon
 * (polyhedron), and geometric_implicit in 2D with joints, a motor and support friction (implicit_drives.h);
 * assemble allocates (the counter works). */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "check.h"
#include "formulation.h"
#include "hull3d.h"
#include "solver_fixture.h"
#include "world.h"

#include <dlfcn.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

/* volatile: the compiler may not move the counter's updates across the allocators it knows as builtins */
static volatile long counting, allocations;

/* dlsym's object pointer as a function pointer (POSIX allows it; ISO C only through a union) */
union next_fn {
  void *p;
  void *(*alloc)(size_t);
  void *(*alloc2)(size_t, size_t);
  void *(*grow)(void *, size_t);
};

static union next_fn next(union next_fn *fn, const char *name)
{
  if (!fn->p) fn->p = dlsym(RTLD_NEXT, name);
  return *fn;
}

void *malloc(size_t size)
{
  static union next_fn fn;
  allocations += counting;
  return next(&fn, "malloc").alloc(size);
}

void *calloc(size_t count, size_t size)
{
  static union next_fn fn;
  allocations += counting;
  return next(&fn, "calloc").alloc2(count, size);
}

void *realloc(void *p, size_t size)
{
  static union next_fn fn;
  allocations += counting;
  return next(&fn, "realloc").grow(p, size);
}

static const double UP[3] = {0, 0, 1};

/* 2D: a disc and a 1 x 0.5 box resting on a tilted half-plane, both touching it */
static struct world *world_2d(void)
{
  static const double box_xy[8] = {-0.5, -0.25, 0.5, -0.25, 0.5, 0.25, -0.5, 0.25};
  struct world *w = world_create(2);
  w->mu = 0.4;
  world_add_halfplane(w, world_add_body(w, 1, 0, 0), -sin(0.1), cos(0.1), 0.0);
  int d = world_add_body(w, 0, 1.0, 0.5);
  world_add_disc(w, d, 0.0, 0.0, 0.5);
  int b = world_add_body(w, 0, 1.0, (1.0 + 0.25) / 12.0);
  world_add_polygon(w, b, 4, box_xy);
  world_finalize(w);
  w->threshold = 1.0;
  w->bodies[d].x[0] = -2.0, w->bodies[d].x[1] = 0.3, w->bodies[d].v[0] = 0.7;
  w->bodies[b].x[0] = 2.0, w->bodies[b].x[1] = 0.45, w->bodies[b].theta = 0.05, w->bodies[b].w[2] = -0.3;
  return w;
}

/* 2D with the world's joints, a motor and support friction (implicit_drives.h): world_2d's disc on a
 * slider along the slope, driven by a motor, the box on three support points and pinned to the disc */
static struct world *world_2d_drives(void)
{
  struct world *w = world_2d();
  const double ax[3] = {cos(0.1), sin(0.1), 0.0}, zero[3] = {0, 0, 0}, pin[3] = {4.0, 0.15, 0.0};
  const double p[6] = {0.3, 0.0, -0.2, 0.2, -0.2, -0.2}, N[3] = {3.0, 3.0, 3.0};
  world_add_slider(w, 1, -1, zero, w->bodies[1].x, ax);
  world_add_motor(w, 1, ax, 0.5, 10.0);
  world_add_support(w, 2, 3, p, N, 0.5, 8, 0.1);
  world_add_joint(w, JOINT_REVOLUTE_2D, 2, 1, zero, pin);
  world_finalize(w);
  return w;
}

/* 3D: a sphere and a box on the plane z <= 0 */
static struct world *world_3d(void)
{
  static const double c0[3] = {0, 0, 0};
  struct world *w = world_create(3);
  w->mu = 0.4;
  world_add_plane(w, world_add_body(w, 1, 0, 0), UP, 0.0);
  int s = world_add_body(w, 0, 1.0, 0.4);
  world_add_sphere(w, s, c0, 0.5);
  int b = world_add_body(w, 0, 1.0, 1.0);
  struct polyhedron *box = hull3d_box(0.3, 0.2, 0.1);
  hull3d_central_inertia(box, 1.0, w->bodies[b].inertia3);
  world_add_polyhedron(w, b, box);
  world_finalize(w);
  w->threshold = 0.5;
  w->bodies[s].x[0] = -2.0, w->bodies[s].x[2] = 0.52, w->bodies[s].v[1] = 0.6;
  w->bodies[b].x[0] = 2.0, w->bodies[b].x[2] = 0.11, w->bodies[b].w[2] = 0.4;
  return w;
}

/* The formulation's step problem for w; F and J at z = 0 and at a point off it, ten times each, counted. */
static void check_callbacks(struct world *w, const char *name, const char *what)
{
  struct formulation *f = test_formulation(name, NULL);
  struct contact_set cs = {0, 0, NULL};
  struct cp_problem *p = NULL;
  long at_assemble = -1, in_callbacks = -1;
  int rc = 1, nc = 0;
  if (f && f->type->detect(f, w, 0.01, &cs) == 0) {
    nc = cs.n;
    allocations = 0, counting = 1;
    rc = f->type->assemble(f, w, &cs, 0.01, &p);
    counting = 0, at_assemble = allocations;
  }
  double *z = p ? calloc((size_t)p->n, sizeof *z) : NULL, *F = p ? calloc((size_t)p->n, sizeof *F) : NULL;
  double *J = p ? calloc((size_t)p->n * p->n, sizeof *J) : NULL;
  if (!rc && z && F && J) {
    allocations = 0, counting = 1;
    for (int k = 0; k < 20 && !rc; k++) {
      for (int i = 0; i < p->n; i++)
        z[i] = k % 2 ? 0.01 * (i % 7) : 0.0; /* above the lower bounds -guess of the complementarity part */
      rc = p->F(p->ctx, z, F) || p->J(p->ctx, z, J);
    }
    counting = 0, in_callbacks = allocations;
  }
  CHECK(!rc && nc == 2 && at_assemble > 0 && in_callbacks == 0,
        "%s %dD, %d contacts (friction, a %s%s): %ld allocations at assemble, %ld in 20 F and 20 J calls",
        name, w->dim, nc, w->dim == 2 ? "polygon" : "polyhedron", what, at_assemble, in_callbacks);
  free(z), free(F), free(J);
  cp_destroy(&p);
  contact_set_free(&cs);
  formulation_destroy(&f);
}

int main(int argc, char **argv)
{
  PetscInitialize(&argc, &argv, NULL, NULL);
  const char *names[2] = {"geometric_implicit", "quasi_rigid"};
  for (int dim = 2; dim <= 3; dim++)
    for (int k = 0; k < 2; k++) {
      struct world *w = dim == 2 ? world_2d() : world_3d();
      check_callbacks(w, names[k], "");
      world_destroy(&w);
    }
  struct world *w = world_2d_drives();
  check_callbacks(w, "geometric_implicit", ", 4 joint rows, a motor, 3 support points");
  world_destroy(&w);
  int rc = check_finish();
  PetscFinalize();
  return rc;
}
