/* overlap2d.h — exact overlap of a 2D world's polygon parts (the accuracy metric of the PEG experiments:
 * summed pairwise intersection area), from their world-frame vertices. */
#ifndef CB_OVERLAP2D_H
#define CB_OVERLAP2D_H

#include "world.h"

/* World-frame vertices of a polygon part: out has 2 n doubles. */
void geom2d_world_polygon(const struct world *w, const struct shape *s, double *out);
/* The intersection area of two world-placed polygon parts (2D). */
double world_polygon_overlap(const struct world *w, int sa, int sb);
/* Sum over body pairs (excluding static-static) of the overlap area (2D) of their polygon parts. */
double world_total_overlap_2d(const struct world *w);

#endif
