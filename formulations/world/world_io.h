/* world_io.h — a world (world.h) as text and back, bit for bit: every field a formulation reads (bodies'
 * poses, velocities, applied loads and inertia; shapes with their polygon / polyhedron data as the world
 * holds them, derived quantities included; joints; gravity, mu, threshold, broad phase, t). Doubles are
 * written as the hex digits of their IEEE bits ("#3ff0000000000000" is 1), so the copy is exact; a
 * decimal number is read too (strtod), for texts written by hand. A problem corpus stores it so that a
 * callback problem of the nonlinear formulations (Chakraborty et al.'s geometrically implicit NCPs) can be
 * assembled again from the state it was assembled from (the FCLIB idea for problems without a matrix). No
 * HDF5 here: the caller stores the text where it likes. */
#ifndef CB_WORLD_IO_H
#define CB_WORLD_IO_H

#include "world.h"

#include <stddef.h>

/* The text of w in a malloc'd, NUL-terminated string (*len its length without the NUL). 0, or 1 (out of
 * memory). */
int world_to_text(const struct world *w, char **text, size_t *len);
/* Rebuilds a world from len bytes of text (need not be NUL-terminated). 0 with *out (world_destroy it), or
 * 1 with err saying where the text is bad or truncated. */
int world_from_text(const char *text, size_t len, struct world **out, char *err, size_t elen);

#endif
