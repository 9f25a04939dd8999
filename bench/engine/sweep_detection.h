/* sweep_detection.h — the "detection" axis of the PEG paper's experiments (Williams, Lu & Trinkle 2016,
 * Sec. 6): the standard model (stewart_trinkle) detects its contacts either by closest features or as the
 * authors' experiments did ("paper": every vertex against every edge / face near its line / plane;
 * -stewart_trinkle_detection). The other formulations have one detection each. */
#ifndef CB_SWEEP_DETECTION_H
#define CB_SWEEP_DETECTION_H

#include "sweep.h"

/* For a task with a "detection" axis: sets -stewart_trinkle_detection (in the task's own process) when
 * form is stewart_trinkle; "paper" with another formulation is status not_applicable. Returns 0 to go on,
 * 1 when the task is to be skipped (its status set), -1 on an error (a value other than closest / paper,
 * named on stderr). */
int sweep_apply_detection(const struct sweep_task *task, const char *form, struct sweep_row *row);

#endif
