#ifndef LIFETRACE_CZSTD_SHIM_H
#define LIFETRACE_CZSTD_SHIM_H

// Advanced parameters (ZSTD_d_windowLogMax, ZSTD_getFrameContentSize) are in the stable API
// since zstd 1.4; nothing from the static-linking-only section is used.
#include <zstd.h>

#endif
