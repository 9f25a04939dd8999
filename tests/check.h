/* check.h — the tiny assertion layer every C test uses. Each check prints "ok - ..." or "not ok - ...",
 * each skip "skip - ..."; tests/run.sh counts those lines across all tests and prints the final
 * "N passed, N failed, N skipped". */
#ifndef CB_CHECK_H
#define CB_CHECK_H

#define CHECK(cond, ...) check_report(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
/* |a - b| <= tol */
#define CHECK_CLOSE(a, b, tol, ...) check_close((a), (b), (tol), __FILE__, __LINE__, __VA_ARGS__)

int check_report(int ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int check_close(double a, double b, double tol, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* A check that cannot run here (data or a backend absent): printed as "skip - REASON" and counted apart,
 * neither passed nor failed, so that a missing prerequisite is visible in the totals. */
void check_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints a summary comment; returns the process exit code (0 iff nothing failed). */
int check_finish(void);
/* The shared data folder (../shared/data relative to the repository) or NULL when it is absent. */
const char *check_shared_data(void);

#endif
