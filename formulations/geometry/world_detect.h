/* world_detect.h — contact detection shared by every formulation (world_detect.c: sort-and-sweep broad
 * phase, per-pair narrow phases of contact2d.c and contact3d.h). */
#ifndef CB_WORLD_DETECT_H
#define CB_WORLD_DETECT_H

#include "contact_set.h"

/* Contact detection (world_detect.c). Appends to out every potential contact with gap <= threshold
 * between bodies that may collide (not both static, not in the same nonzero group). 0 on success;
 * nonzero on allocation failure or a shape pair no narrow phase supports. */
int world_detect(const struct world *w, double threshold, struct contact_set *out);

#endif
