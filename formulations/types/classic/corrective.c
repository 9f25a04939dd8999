/* corrective.c — the "corrective" contact model the PEG paper's experiments compare against (Williams, Lu &
 * Trinkle 2016, Sec. 6; ../shared/notes/peg-experiments.md): no potential contacts — ONE contact per
 * overlapping pair of parts, between their deepest features, enforced by the standard model
 * (Stewart-Trinkle LCP, Egan et al. eqs. 5-7, assembled and recovered by formulation_type_stewart_trinkle,
 * whose options apply). 2D (sat2d.c): separating-axis test over both polygons' edges, normal = the axis of
 * least overlap (from b towards a), psi = -(least overlap), point = the vertex average of the clipped
 * overlap polygon, pa / pb = point -/+ psi/2 n. 3D: contact3d_corrective (the overlap's vertex mean, the
 * least-penetrated face plane, psi doubled). Bodies must overlap before they push: the model corrects. */
#include "classic.h"
#include "contact3d.h"
#include "formulation.h"
#include "geom2d.h"
#include "overlap2d.h"
#include "sat2d.h"
#include "stewart_trinkle.h"

#include <math.h>
#include <stdlib.h>

extern const struct formulation_type formulation_type_stewart_trinkle;

static int corrective_pair_2d(const struct world *w, int sa, int sb, double *buf, struct contact_set *out)
{
  const struct shape *A = &w->shapes[sa], *B = &w->shapes[sb];
  int na = A->polygon->n, nb = B->polygon->n;
  geom2d_world_polygon(w, A, buf);
  geom2d_world_polygon(w, B, buf + 2 * na);
  struct sat2d_result r;
  int rc = sat2d_polygons(na, buf, nb, buf + 2 * na, &r);
  if (rc <= 0) return rc < 0;
  struct contact c = {.a = A->body, .b = B->body, .sa = sa, .sb = sb, .gap = -r.depth, .mu = w->mu};
  c.n[0] = r.n[0];
  c.n[1] = r.n[1];
  for (int k = 0; k < 2; k++) {
    c.pa[k] = r.point[k] - 0.5 * r.depth * r.n[k];
    c.pb[k] = r.point[k] + 0.5 * r.depth * r.n[k];
  }
  if (r.edge_of_a)
    c.fa = FEATURE_EDGE, c.ida = r.edge, c.fb = FEATURE_NONE;
  else
    c.fb = FEATURE_EDGE, c.idb = r.edge, c.fa = FEATURE_NONE;
  return contact_set_push(out, &c);
}

static int corrective_detect(struct formulation *f, const struct world *w, double h, struct contact_set *cs)
{
  (void)h;
  int maxn = 0, rc = 0;
  for (int i = 0; i < w->ns; i++)
    if (w->shapes[i].kind == SHAPE_POLYGON && w->shapes[i].polygon->n > maxn) maxn = w->shapes[i].polygon->n;
  double *buf = malloc((4 * (size_t)maxn + 1) * sizeof *buf);
  if (!buf) return formulation_fail(f, "out of memory detecting contacts");
  for (int i = 0; i < w->ns && !rc; i++)
    for (int j = i + 1; j < w->ns && !rc; j++) {
      const struct shape *A = &w->shapes[i], *B = &w->shapes[j];
      if (A->body == B->body || A->kind != B->kind) continue;
      const struct body *ba = &w->bodies[A->body], *bb = &w->bodies[B->body];
      if ((ba->is_static && bb->is_static) || (ba->group != 0 && ba->group == bb->group)) continue;
      double d2 = 0.0;
      for (int k = 0; k < w->dim; k++)
        d2 += (ba->x[k] - bb->x[k]) * (ba->x[k] - bb->x[k]);
      if (sqrt(d2) >= A->radius + B->radius) continue; /* bounding circles / spheres apart */
      if (A->kind == SHAPE_POLYGON) {
        rc = corrective_pair_2d(w, i, j, buf, cs);
      } else if (A->kind == SHAPE_POLYHEDRON) {
        rc = contact3d_corrective(w, i, j, cs);
      }
    }
  free(buf);
  return rc ? formulation_fail(f, "detecting the overlapping pairs failed") : 0;
}

static int corrective_create(struct formulation *f) { return formulation_type_stewart_trinkle.create(f); }

static int corrective_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs,
                               double h, struct cp_problem **p)
{
  return formulation_type_stewart_trinkle.assemble(f, w, cs, h, p);
}

static int corrective_recover(struct formulation *f, const struct world *w, const struct contact_set *cs,
                              double h, const double *z, double *nu, double *pn)
{
  return formulation_type_stewart_trinkle.recover(f, w, cs, h, z, nu, pn);
}

static void corrective_destroy(struct formulation *f) { formulation_type_stewart_trinkle.destroy(f); }

static void corrective_view(const struct formulation *f, FILE *out)
{
  fprintf(out, "  one contact per overlapping pair of parts; standard model:\n");
  formulation_type_stewart_trinkle.view(f, out);
}

const struct formulation_type formulation_type_corrective = {
    .name = "corrective",
    .summary = "one contact per overlapping pair (deepest features), standard-model LCP; polygons/polyhedra",
    .paper =
        "corrective model of Williams, Lu & Trinkle 2016 Sec. 6 (authors' code); LCP of Egan et al. eqs. 5-7",
    .dims = FORMULATION_2D | FORMULATION_3D,
    .shapes = SHAPE_POLYGON | SHAPE_POLYHEDRON,
    .joints = FORMULATION_2D | FORMULATION_3D,
    .create = corrective_create,
    .options = stewart_trinkle_options,
    .n_options = STEWART_TRINKLE_N_SHARED_OPTIONS,
    .assemble = corrective_assemble,
    .recover = corrective_recover,
    .detect = corrective_detect,
    .destroy = corrective_destroy,
    .view = corrective_view,
};
