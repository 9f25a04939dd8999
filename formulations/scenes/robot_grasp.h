/* robot_grasp.h — the PEG authors' 2D robot-arm grasp (Williams, Lu & Trinkle 2016: not in the paper's text;
 * the authors' robotArm2D.m, ../shared/notes/peg-experiments.md): a static ground (0.3 x 0.03 at (0, 0.14))
 * and base (0.05 x 0.01 at (0, 0.25)); two fingers of two links each (0.05 x 0.01, mass 0.2, J 0.005) at x =
 * 0.05 (f1), -0.05 (f2), 0.10 (f3), -0.10 (f4), y = 0.25, on revolute joints base-f1 at x = 0.025, base-f2 at
 * -0.025, f1-f3 at 0.075, f2-f4 at -0.075 (the arm never collides with itself); a target polygon at
 * (0, 0.2), at rest; g = 9.8. Joint angle j = rotation of its second body minus its first's. */
#ifndef CB_ROBOT_GRASP_H
#define CB_ROBOT_GRASP_H

#include "scenes.h"

enum { ROBOT_GRASP_TARGET = 6, ROBOT_GRASP_JOINTS = 4 };
/* The scene's contact threshold [m] (see robot_grasp.c): under half the links' thickness. */
#define ROBOT_GRASP_THRESHOLD 0.004

/* The scene with friction coefficient mu on every contact and the target given by spec (its vertices,
 * rotation, mass and inertia as given; placed at (0, 0.2), at rest). NULL on failure. */
struct world *scene_robot_grasp(const struct peg_body_spec *target, double mu);
/* Target k (1..10): polygon k of body set b (set 2 of the body-set file), vertices scaled by a further
 * 0.28, its stored rotation, mass 0.1, J 1e-4. 0, or 1 with err naming the problem. */
int scene_robot_grasp_target(const char *bodyset_file, int k, struct peg_body_spec *target, char *err,
                             size_t errlen);

/* Joint angles of the scene's world (ROBOT_GRASP_JOINTS entries). */
void robot_grasp_joint_angles(const struct world *w, double *theta);
/* Applies tau to joint j: +tau on its second body, -tau on its first (added to their applied torques). */
void robot_grasp_joint_torque(struct world *w, int j, double tau);

#endif
