/* world_detect.h — contact detection shared by every formulation (world_detect.c: sort-and-sweep broad
 * phase, per-pair narrow phases of contact2d.c and contact3d.h). */
#ifndef CB_WORLD_DETECT_H
#define CB_WORLD_DETECT_H

#include "contact_set.h"

#include <stddef.h>

/* Contact detection (world_detect.c). Appends to out every potential contact with gap <= threshold
 * between bodies that may collide (not both static, not in the same nonzero group). 0 on success;
 * nonzero on allocation failure or a shape pair no narrow phase supports. */
int world_detect(const struct world *w, double threshold, struct contact_set *out);
/* Why world_detect would refuse w: the first pair of parts of bodies that may collide which no narrow phase
 * supports, named by index and kind in msg (e.g. "shapes 1 (superellipse) and 2 (polygon): no explicit 2D
 * narrow phase for this pair"). 1 with msg when there is such a pair, else 0. */
int world_detect_explain(const struct world *w, char *msg, size_t len);

#endif
