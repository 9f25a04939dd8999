/* world_detect.c — contact detection shared by every formulation (design.md contract 5): a sort-and-sweep
 * broad phase over body bounding boxes (inflated by the proximity threshold) on the x axis, then the
 * narrow phase per pair of parts (contact2d.c in 2D; contact3d.h, the 3D geometry module, in 3D).
 * Bodies with an unbounded part (half-plane / plane) are paired with every other body. Cost: sorting
 * n log n plus the pairs whose x-intervals overlap, so a pile of n bodies is about linear in n. */
#include "world_detect.h"

#include "contact2d.h"
#include "contact3d.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int may_collide(const struct world *w, int i, int j)
{
  const struct body *a = &w->bodies[i], *b = &w->bodies[j];
  if (a->is_static && b->is_static) return 0;
  if (a->group != 0 && a->group == b->group) return 0;
  return 1;
}

/* Parts of two bodies: every pair whose bounding spheres come within the threshold. */
static int detect_bodies(const struct world *w, int i, int j, double thr, struct contact_set *out)
{
  const struct body *a = &w->bodies[i], *b = &w->bodies[j];
  for (int sa = a->shape_begin; sa < a->shape_begin + a->shape_count; sa++)
    for (int sb = b->shape_begin; sb < b->shape_begin + b->shape_count; sb++) {
      const struct shape *A = &w->shapes[sa], *B = &w->shapes[sb];
      int bounded_a = A->kind != SHAPE_HALFPLANE && A->kind != SHAPE_PLANE;
      int bounded_b = B->kind != SHAPE_HALFPLANE && B->kind != SHAPE_PLANE;
      if (!bounded_a && !bounded_b) continue;
      if (bounded_a && bounded_b) {
        double ca[3], cb[3], d2 = 0.0;
        world_point(w, a, A->c, ca);
        world_point(w, b, B->c, cb);
        for (int k = 0; k < w->dim; k++)
          d2 += (ca[k] - cb[k]) * (ca[k] - cb[k]);
        double reach = A->radius + B->radius + thr;
        if (d2 > reach * reach) continue;
      }
      int first = out->n, rc;
      rc = w->dim == 2 ? contact2d_shapes(w, sa, sb, thr, out) : contact3d_shapes(w, sa, sb, thr, out);
      if (rc) return rc;
      for (int k = first; k < out->n; k++)
        out->c[k].mu = w->mu;
    }
  return 0;
}

struct sweep_item {
  double lo, hi;
  int body;
};

static int cmp_sweep(const void *pa, const void *pb)
{
  const struct sweep_item *a = pa, *b = pb;
  return (a->lo > b->lo) - (a->lo < b->lo);
}

static int overlap_other_axes(const struct world *w, int i, int j, double thr)
{
  const struct body *a = &w->bodies[i], *b = &w->bodies[j];
  double reach = a->bound_radius + b->bound_radius + thr;
  for (int k = 1; k < w->dim; k++)
    if (fabs(a->x[k] - b->x[k]) > reach) return 0;
  return 1;
}

int world_detect(const struct world *w, double thr, struct contact_set *out)
{
  int nb = w->nb, rc = 0, m = 0;
  struct sweep_item *items = malloc(((size_t)nb + 1) * sizeof *items);
  if (!items) return 1;
  /* Unbounded bodies meet everyone; bounded ones go through the sweep. */
  for (int i = 0; i < nb && !rc; i++) {
    const struct body *b = &w->bodies[i];
    if (b->unbounded) {
      for (int j = 0; j < nb && !rc; j++)
        if (j != i && may_collide(w, i, j) && (!w->bodies[j].unbounded || j > i))
          rc = detect_bodies(w, i, j, thr, out);
      continue;
    }
    double r = b->bound_radius + 0.5 * thr;
    items[m].lo = b->x[0] - r;
    items[m].hi = b->x[0] + r;
    items[m].body = i;
    m++;
  }
  if (w->broad == BROAD_SWEEP) qsort(items, (size_t)m, sizeof *items, cmp_sweep);
  for (int p = 0; p < m && !rc; p++)
    for (int q = p + 1; q < m && !rc; q++) {
      if (w->broad == BROAD_SWEEP && items[q].lo > items[p].hi) break;
      int i = items[p].body, j = items[q].body;
      if (!may_collide(w, i, j) || !overlap_other_axes(w, i, j, thr)) continue;
      rc = i < j ? detect_bodies(w, i, j, thr, out) : detect_bodies(w, j, i, thr, out);
    }
  free(items);
  return rc;
}

int world_detect_explain(const struct world *w, char *msg, size_t len)
{
  for (int i = 0; i < w->nb; i++)
    for (int j = i + 1; j < w->nb; j++) {
      if (!may_collide(w, i, j)) continue;
      const struct body *a = &w->bodies[i], *b = &w->bodies[j];
      for (int sa = a->shape_begin; sa < a->shape_begin + a->shape_count; sa++)
        for (int sb = b->shape_begin; sb < b->shape_begin + b->shape_count; sb++) {
          enum shape_kind ka = w->shapes[sa].kind, kb = w->shapes[sb].kind;
          if (w->dim == 2 &&
              ((ka == SHAPE_HALFPLANE && kb == SHAPE_HALFPLANE) || contact2d_supported(ka, kb)))
            continue;
          if (w->dim == 3 && ((ka == SHAPE_PLANE && kb == SHAPE_PLANE) || contact3d_supported(ka, kb)))
            continue;
          snprintf(msg, len, "shapes %d (%s) and %d (%s): no explicit %dD narrow phase for this pair", sa,
                   world_shape_kind_name(ka), sb, world_shape_kind_name(kb), w->dim);
          return 1;
        }
    }
  return 0;
}
