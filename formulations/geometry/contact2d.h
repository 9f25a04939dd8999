/* contact2d.h — the 2D narrow phase, called by world_detect for each pair of 2D parts of different bodies.
 * Appends potential contacts (gap <= threshold) to out following world.h's conventions: normal from b
 * towards a, gap = n . (pa - pb). Features: polygon vertex against the other part's closest feature
 * (edge -> vertex-edge, vertex -> vertex-vertex), disc / half-plane surfaces as FEATURE_SURFACE.
 * A superellipse (contact2d_superellipse.c) against a disc or a half-plane; against a polygon or another
 * superellipse it has no explicit narrow phase (only the geometrically implicit formulations, which find the
 * closest points themselves, could take it) and the pair is refused rather than given a wrong contact.
 * Returns 0 on success, 1 on allocation failure, 2 for an unsupported pair (half-plane with half-plane, a
 * superellipse with a polygon or a superellipse). */
#ifndef CB_CONTACT2D_H
#define CB_CONTACT2D_H

#include "contact_set.h"

int contact2d_shapes(const struct world *w, int sa, int sb, double threshold, struct contact_set *out);
/* 1 when contact2d_shapes has a narrow phase for the two kinds (either order), else 0. */
int contact2d_supported(enum shape_kind a, enum shape_kind b);

#endif
