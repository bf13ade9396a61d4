// The header's functions are static inline (compiled into each Swift module that calls
// them); SwiftPM needs one source file per C target.
#include "CLaneMath.h"
