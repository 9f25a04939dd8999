/* build_info_stub.c — the build's provenance for the test programs (bench/engine/build_info.h): fixed, so
 * that a commit relinks only the drivers and tools, which carry the real one ($(BUILD)/build_info.c). No test
 * program writes a meta.json or a corpus; the shell tests run the drivers. */
#include "build_info.h"

const char build_git_sha[] = "";
const int build_git_dirty = 0;
