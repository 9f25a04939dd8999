/* overlap3d.h — exact intersection of two world-placed convex polyhedra (accuracy metric of the 3D
 * experiments: total overlap volume, and the overlap's mean point used by the corrective 3D contact of
 * the PEG experiments, ../shared/notes/peg-experiments.md). */
#ifndef CB_OVERLAP3D_H
#define CB_OVERLAP3D_H

#include "world.h"

struct overlap3d {
  double volume;         /* 0 when disjoint or only touching */
  double centroid[3];    /* volume centroid of the intersection (world frame); valid when volume > 0 */
  double vertex_mean[3]; /* mean of the intersection's vertices (world frame); valid when volume > 0 */
  int nv;                /* vertex count of the intersection (0 when disjoint) */
  double depth;          /* inradius of the intersection (the Chebyshev ball's radius; 0 when disjoint) */
};

/* Intersection of polyhedron A placed at (Ra, xa) (x_world = Ra x + xa) with B at (Rb, xb). When intersection
 * is non-NULL it receives the intersection polyhedron in world coordinates (NULL when disjoint; free with
 * polyhedron_free). Returns 0 on success, 1 on allocation or LP failure. */
int overlap3d_compute(const struct polyhedron *A, const double Ra[9], const double xa[3],
                      const struct polyhedron *B, const double Rb[9], const double xb[3],
                      struct overlap3d *out, struct polyhedron **intersection);

#endif
