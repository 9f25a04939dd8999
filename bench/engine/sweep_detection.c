/* sweep_detection.c — the standard model's detection axis (see sweep_detection.h). */
#include "sweep_detection.h"

#include <petscsys.h>
#include <stdio.h>
#include <string.h>

int sweep_apply_detection(const struct sweep_task *task, const char *form, struct sweep_row *row)
{
  const char *det = sweep_task_string(task, "detection");
  if (strcmp(det, "closest") != 0 && strcmp(det, "paper") != 0) {
    fprintf(stderr, "error: -detection %s: closest or paper\n", det);
    return -1;
  }
  if (strcmp(form, "stewart_trinkle") != 0) {
    if (strcmp(det, "closest") == 0) return 0;
    sweep_row_status(row, "not_applicable"); /* one detection only */
    return 1;
  }
  return PetscOptionsSetValue(NULL, "-stewart_trinkle_detection", det) ? -1 : 0;
}
