/* overlap3d.c — exact intersection volume of two convex polyhedra as a half-space intersection by polar
 * duality. The intersection is {x : n_i . x <= d_i} over the faces of both bodies (unit n_i).
 *  1. An interior point x0 with the largest inscribed ball: the Chebyshev centre, an LP (GLPK)
 *     max r s.t. n_i . x + r <= d_i. r <= 0 (up to round-off) means disjoint or only touching: volume 0.
 *  2. With c_i = d_i - n_i . x0 > 0, the dual points n_i / c_i; their convex hull (qhull, hull3d_create)
 *     has one facet m . p <= o per vertex y = x0 + m / o of the intersection.
 *  3. The hull of those vertices (qhull again) gives the volume, centroid and vertex mean; a hull too
 *     flat for qhull (a wedge thinner than 1e-9 of its extent, e.g. a face resting on a face) counts as 0. */
#include "overlap3d.h"

#include "geom3d.h"
#include "hull3d.h"

#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Chebyshev centre of {x : fn_i . x <= fd_i}, i < m. Returns 0 on success with x0 and r set. */
static int chebyshev_centre(int m, const double *fn, const double *fd, double x0[3], double *r)
{
  glp_prob *lp = glp_create_prob();
  int *ia = malloc((4 * (size_t)m + 1) * sizeof *ia), *ja = malloc((4 * (size_t)m + 1) * sizeof *ja);
  double *ar = malloc((4 * (size_t)m + 1) * sizeof *ar);
  int rc = 1;
  if (!lp || !ia || !ja || !ar) goto cleanup;
  glp_set_obj_dir(lp, GLP_MAX);
  glp_add_rows(lp, m);
  glp_add_cols(lp, 4);
  for (int j = 1; j <= 3; j++)
    glp_set_col_bnds(lp, j, GLP_FR, 0.0, 0.0);
  /* r may go negative so that the LP stays feasible when the bodies are apart (then r < 0). */
  glp_set_col_bnds(lp, 4, GLP_FR, 0.0, 0.0);
  glp_set_obj_coef(lp, 4, 1.0);
  int k = 1;
  for (int i = 0; i < m; i++) {
    glp_set_row_bnds(lp, i + 1, GLP_UP, 0.0, fd[i]);
    for (int j = 0; j < 4; j++, k++) {
      ia[k] = i + 1;
      ja[k] = j + 1;
      ar[k] = j < 3 ? fn[3 * i + j] : 1.0;
    }
  }
  glp_load_matrix(lp, 4 * m, ia, ja, ar);
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_OFF;
  if (glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT) {
    for (int j = 0; j < 3; j++)
      x0[j] = glp_get_col_prim(lp, j + 1);
    *r = glp_get_col_prim(lp, 4);
    rc = 0;
  }
cleanup:
  if (lp) glp_delete_prob(lp);
  free(ia);
  free(ja);
  free(ar);
  return rc;
}

int overlap3d_compute(const struct polyhedron *A, const double Ra[9], const double xa[3],
                      const struct polyhedron *B, const double Rb[9], const double xb[3],
                      struct overlap3d *out, struct polyhedron **intersection)
{
  memset(out, 0, sizeof *out);
  if (intersection) *intersection = NULL;
  struct hull3d_placed pa = {0}, pb = {0};
  struct polyhedron *dual = NULL, *cap = NULL;
  double *fn = NULL, *fd = NULL, *pts = NULL;
  int rc = 1, m = A->nf + B->nf;
  if (hull3d_place(A, Ra, xa, &pa) || hull3d_place(B, Rb, xb, &pb)) goto cleanup;
  double d[3];
  vec3_sub(pa.centre, pb.centre, d);
  if (vec3_norm(d) >= pa.radius + pb.radius) { /* bounding spheres apart */
    rc = 0;
    goto cleanup;
  }
  fn = malloc(3 * (size_t)m * sizeof *fn);
  fd = malloc((size_t)m * sizeof *fd);
  pts = malloc(3 * (size_t)m * sizeof *pts);
  if (!fn || !fd || !pts) goto cleanup;
  /* Work about the midpoint of the centres so the LP and the duals are well scaled. */
  double o[3];
  vec3_add(pa.centre, pb.centre, o);
  vec3_scale(o, 0.5, o);
  memcpy(fn, pa.fn, 3 * (size_t)A->nf * sizeof *fn);
  memcpy(fn + 3 * A->nf, pb.fn, 3 * (size_t)B->nf * sizeof *fn);
  for (int i = 0; i < m; i++)
    fd[i] = (i < A->nf ? pa.fd[i] : pb.fd[i - A->nf]) - vec3_dot(fn + 3 * i, o);
  double x0[3], r;
  if (chebyshev_centre(m, fn, fd, x0, &r)) goto cleanup;
  double scale = fmin(pa.radius, pb.radius);
  if (!(r > 1e-9 * scale)) { /* disjoint, touching, or a sliver thinner than round-off */
    rc = 0;
    goto cleanup;
  }
  for (int i = 0; i < m; i++) {
    double c = fd[i] - vec3_dot(fn + 3 * i, x0);
    vec3_scale(fn + 3 * i, 1.0 / c, pts + 3 * i);
  }
  dual = hull3d_create(m, pts);
  if (!dual) goto cleanup;
  free(pts);
  pts = malloc(3 * (size_t)dual->nf * sizeof *pts); /* one intersection vertex per dual facet */
  if (!pts) goto cleanup;
  for (int f = 0; f < dual->nf; f++) {
    double *y = pts + 3 * f;
    vec3_scale(dual->fn + 3 * f, 1.0 / dual->fd[f], y);
    vec3_add(y, x0, y);
    vec3_add(y, o, y);
  }
  cap = hull3d_create(dual->nf, pts);
  if (!cap && hull3d_points_degenerate(dual->nf, pts)) { /* a sliver flatter than round-off: volume 0 */
    rc = 0;
    goto cleanup;
  }
  if (!cap) goto cleanup;
  out->volume = fmax(0.0, cap->volume); /* a sliver's round-off can flip the sign of a ~1e-17 volume */
  memcpy(out->centroid, cap->centroid, sizeof out->centroid);
  out->nv = cap->nv;
  for (int i = 0; i < cap->nv; i++)
    vec3_axpy(1.0 / cap->nv, cap->v + 3 * i, out->vertex_mean);
  out->depth = r;
  if (intersection) *intersection = cap, cap = NULL;
  rc = 0;
cleanup:
  hull3d_placed_free(&pa);
  hull3d_placed_free(&pb);
  polyhedron_free(dual);
  polyhedron_free(cap);
  free(fn);
  free(fd);
  free(pts);
  return rc;
}
