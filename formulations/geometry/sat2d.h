/* sat2d.h — separating-axis overlap of two convex polygons (2D): the axis of least overlap over both
 * polygons' edge normals, its depth and the vertex average of the clipped overlap polygon. Used by the
 * corrective formulation (../shared/notes/peg-experiments.md: normal = the axis of least overlap,
 * psi = -(least overlap), point = the vertex average of the clipped overlap polygon) and by the
 * geometric penetration metric of the PEG experiments. Polygons are world-placed, counter-clockwise. */
#ifndef CB_SAT2D_H
#define CB_SAT2D_H

#include "world.h"

struct sat2d_result {
  double depth;    /* least overlap over the edge-normal axes; <= 0 when separated */
  double n[2];     /* unit axis of least overlap, oriented from b towards a */
  int edge_of_a;   /* 1: the axis is an edge normal of a; 0: of b */
  int edge;        /* that edge's index */
  double point[2]; /* vertex average of a's and b's intersection polygon (valid when depth > 0) */
};

/* a, b: na / nb counter-clockwise vertices. Returns 1 when they overlap (depth > 0), 0 when separated,
 * -1 on allocation failure. */
int sat2d_polygons(int na, const double *a, int nb, const double *b, struct sat2d_result *r);

/* Deepest overlap (SAT depth) over pairs of polygon parts of bodies that may collide (not both static,
 * not in one nonzero group); 0 when nothing overlaps, negative on allocation failure. A formulation-
 * independent penetration metric (contact gaps of PEG contacts are distances to edge LINES, not depths). */
double world_max_penetration_2d(const struct world *w);

#endif
