// The serial executor of portable builds (DMLCPU_PORTABLE, e.g. mingw, where Debian has no
// oneTBB): the same Executor class and unit code as executor.cc, compiled against the serial
// stand-ins in lib/executor/serial_tbb, so every Run executes its units on the calling thread.
#if defined(_WIN32)
// winnt.h defines StoreFence as a macro (_mm_sfence), which would rename kernels::StoreFence;
// include it first (dml_compat.h does later, behind its include guard) and drop the macro.
#include <windows.h>
#undef StoreFence
#endif

// Tells executor.cc that every Run is serial here, whatever the thread count asked for.
#define DMLCPU_EXECUTOR_SERIAL 1
#include "executor/executor.cc"  // NOLINT(build/include): one definition, two thread models
